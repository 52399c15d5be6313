"""Keyboard rules shared by every pane: Tab leaves text boxes and tables, and
reaches links.

A multi-line text box takes Tab as a character by default, which traps
keyboard users in it (only Shift+Tab got out).  :func:`tab_moves_focus`
makes Tab and Shift+Tab move the focus like everywhere else, and keeps a
tab character typable where text is edited: Ctrl+Tab inserts one.

Item views (tables, lists) move their current cell with Tab by default
(Qt's ``tabKeyNavigation``): Tab walked Lookup's results cell by cell, 6
presses a row.  Here Tab leaves the view; the arrow keys move inside it.

A frameless scroll area (a pane's, Lookup's detail) is a container, not a
control: it was a focus stop with nothing to show it had the focus.  Tab
goes to the controls inside it, and the area scrolls them into view.

A label whose links do something (``linkActivated`` is connected) is
reachable by Tab, which then steps from link to link (Qt's
``LinksAccessibleByKeyboard``; Enter follows the focused one); Tab goes
straight to its first link, and past it while it shows none (a stop with
nothing to mark).
"""
from __future__ import annotations

from PySide6.QtCore import SIGNAL, QEvent, QObject, Qt
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QFrame, QLabel, QPlainTextEdit, QScrollArea, QTextEdit, QWidget


class _CtrlTabInsertsTab(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        if (event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Tab
                and event.modifiers() == Qt.KeyboardModifier.ControlModifier
                and isinstance(watched, (QPlainTextEdit, QTextEdit)) and not watched.isReadOnly()):
            watched.insertPlainText("\t")
            return True
        return False


class _TabIntoLinks(QObject):
    """Tab into a label goes to its first link (Shift+Tab: its last), or past the label
    when it shows none.  (Qt stops on the label itself first, with no link marked.)"""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        if (event.type() == QEvent.Type.FocusIn and isinstance(watched, QLabel) and isinstance(event, QFocusEvent)
                and event.reason() in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason)):
            watched.focusNextPrevChild(event.reason() == Qt.FocusReason.TabFocusReason)
        return False


_filter: _CtrlTabInsertsTab | None = None
_label_filter = _TabIntoLinks()


def tab_moves_focus(root: QWidget) -> None:
    """Tab moves the focus out of every text box and item view in ``root`` (Ctrl+Tab
    types a tab), and into every label with active links."""
    global _filter
    if _filter is None:
        _filter = _CtrlTabInsertsTab()
    editors: list[QPlainTextEdit | QTextEdit] = [*root.findChildren(QPlainTextEdit), *root.findChildren(QTextEdit)]
    if isinstance(root, (QPlainTextEdit, QTextEdit)):
        editors.append(root)
    for edit in editors:
        edit.setTabChangesFocus(True)
        edit.removeEventFilter(_filter)
        edit.installEventFilter(_filter)
    for view in root.findChildren(QAbstractItemView):
        view.setTabKeyNavigation(False)
    for area in root.findChildren(QScrollArea):
        if area.frameShape() == QFrame.Shape.NoFrame:
            area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    for label in root.findChildren(QLabel):
        if label.receivers(SIGNAL("linkActivated(QString)")) > 0:
            label.setTextInteractionFlags(label.textInteractionFlags()
                                          | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
            label.removeEventFilter(_label_filter)
            label.installEventFilter(_label_filter)
