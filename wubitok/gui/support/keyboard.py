"""Keyboard rules shared by every pane: Tab leaves a text box.

A multi-line text box takes Tab as a character by default, which traps
keyboard users in it (only Shift+Tab got out).  :func:`tab_moves_focus`
makes Tab and Shift+Tab move the focus like everywhere else, and keeps a
tab character typable where text is edited: Ctrl+Tab inserts one.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget


class _CtrlTabInsertsTab(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        if (event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Tab
                and event.modifiers() == Qt.KeyboardModifier.ControlModifier
                and isinstance(watched, (QPlainTextEdit, QTextEdit)) and not watched.isReadOnly()):
            watched.insertPlainText("\t")
            return True
        return False


_filter: _CtrlTabInsertsTab | None = None


def tab_moves_focus(root: QWidget) -> None:
    """Tab moves the focus out of every text box in ``root``; Ctrl+Tab types a tab."""
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
