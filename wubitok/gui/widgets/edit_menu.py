"""Edit: undo, redo, cut, copy, paste and select all for the text box that has the focus;
Find in the pane's text; Preferences.

A text box handles these keys itself (Ctrl+Z, Ctrl+C...: it takes them before the window's
shortcuts); the menu is for the mouse, and while open says what the focused box can do now.  The
actions act on whatever has the focus when they are chosen: a line edit, a text box, the
field inside a spin box or an editable combo box; a table or a list only selects all.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)


def focused_text_box() -> QLineEdit | QPlainTextEdit | QTextEdit | None:
    """The text box with the focus (a spin box's or a combo box's field counts), if any."""
    w = QApplication.focusWidget()
    if isinstance(w, QComboBox) and w.isEditable():
        w = w.lineEdit()
    elif isinstance(w, QAbstractSpinBox):
        w = w.findChild(QLineEdit)
    return w if isinstance(w, (QLineEdit, QPlainTextEdit, QTextEdit)) else None


def _can(box: QLineEdit | QPlainTextEdit | QTextEdit, what: str) -> bool:
    if isinstance(box, QLineEdit):
        checks: dict[str, Callable[[], bool]] = {
            "undo": box.isUndoAvailable, "redo": box.isRedoAvailable,
            "cut": lambda: box.hasSelectedText() and not box.isReadOnly(),
            "copy": box.hasSelectedText, "paste": lambda: not box.isReadOnly(), "selectAll": lambda: True}
    else:
        doc = box.document()
        checks = {
            "undo": lambda: not box.isReadOnly() and doc.isUndoAvailable(),
            "redo": lambda: not box.isReadOnly() and doc.isRedoAvailable(),
            "cut": lambda: box.textCursor().hasSelection() and not box.isReadOnly(),
            "copy": lambda: box.textCursor().hasSelection(), "paste": lambda: not box.isReadOnly(),
            "selectAll": lambda: True}
    return checks[what]()


class EditMenu(QObject):
    """The actions of the Edit menu, added to ``menu`` (their parent); ``find`` and ``preferences`` are the window's."""

    EDITS = (("undo", QKeySequence.StandardKey.Undo), ("redo", QKeySequence.StandardKey.Redo), None,
             ("cut", QKeySequence.StandardKey.Cut), ("copy", QKeySequence.StandardKey.Copy),
             ("paste", QKeySequence.StandardKey.Paste), None, ("selectAll", QKeySequence.StandardKey.SelectAll))

    def __init__(self, menu, find: Callable[[], None], preferences: Callable[[], None]):
        super().__init__(menu)
        self.menu = menu
        self.actions: dict[str, QAction] = {}
        for item in self.EDITS:
            if item is None:
                menu.addSeparator()
                continue
            name, key = item
            action = menu.addAction("")
            action.setShortcut(QKeySequence(key))
            action.triggered.connect(lambda _=False, n=name: self.apply(n))
            self.actions[name] = action
        menu.addSeparator()
        self.find_action = menu.addAction("")
        self.find_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Find))
        self.find_action.triggered.connect(find)
        menu.addSeparator()
        self.preferences_action = menu.addAction("")
        self.preferences_action.setShortcut(QKeySequence("Ctrl+,"))
        self.preferences_action.triggered.connect(preferences)
        # Greyed while the menu is open only: a shortcut must reach apply() whatever had the focus
        # when the menu was last shown (apply() itself does only what the focused widget allows).
        menu.aboutToShow.connect(self.update)
        menu.aboutToHide.connect(self._enable_all)

    def apply(self, name: str) -> None:
        """Do ``name`` (undo, copy...) in what has the focus."""
        box = focused_text_box()
        if box is not None:
            if _can(box, name):
                getattr(box, name)()
            return
        w = QApplication.focusWidget()
        if name == "selectAll" and isinstance(w, QAbstractItemView):
            w.selectAll()

    def _enable_all(self) -> None:
        for action in self.actions.values():
            action.setEnabled(True)

    def update(self) -> None:
        """Enable what the focused widget can do now."""
        box = focused_text_box()
        items = isinstance(QApplication.focusWidget(), QAbstractItemView)
        for name, action in self.actions.items():
            action.setEnabled(_can(box, name) if box is not None else (items and name == "selectAll"))

    def retranslate(self) -> None:
        self.menu.setTitle(self.tr("&Edit"))
        texts = {"undo": self.tr("&Undo"), "redo": self.tr("&Redo"), "cut": self.tr("Cu&t"), "copy": self.tr("&Copy"),
                 "paste": self.tr("&Paste"), "selectAll": self.tr("Select &All")}
        for name, action in self.actions.items():
            action.setText(texts[name])
        self.find_action.setText(self.tr("&Find…"))
        self.preferences_action.setText(self.tr("P&references…"))


class FindDialog(QDialog):
    """Find a piece of text in a text box, forwards or backwards, round past the end."""

    def __init__(self, target: QPlainTextEdit | QTextEdit, parent: QWidget | None = None):
        super().__init__(parent)
        self.target = target
        self.setWindowTitle(self.tr("Find"))
        self.label = QLabel(self.tr("Fi&nd:"))
        self.field = QLineEdit()
        self.field.setAccessibleName(self.tr("Text to find"))
        self.label.setBuddy(self.field)
        selected = target.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.field.setText(selected)
        self.status = QLabel()
        self.next_button = QPushButton(self.tr("&Next"))
        self.next_button.setDefault(True)
        self.previous_button = QPushButton(self.tr("&Previous"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.label)
        row.addWidget(self.field, 1)
        row.addWidget(self.next_button)
        row.addWidget(self.previous_button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self.next_button.clicked.connect(lambda: self.find(backwards=False))
        self.previous_button.clicked.connect(lambda: self.find(backwards=True))
        self.field.returnPressed.connect(lambda: self.find(backwards=False))

    def find(self, *, backwards: bool = False) -> bool:
        """Select the next (or previous) match after the cursor, going round once; False if there is none."""
        text = self.field.text()
        if not text:
            return False
        flags = QTextDocument.FindFlag.FindBackward if backwards else QTextDocument.FindFlag(0)
        found = self.target.find(text, flags)
        if not found:  # round past the end (or the start)
            cursor = self.target.textCursor()
            cursor.movePosition(cursor.MoveOperation.End if backwards else cursor.MoveOperation.Start)
            self.target.setTextCursor(cursor)
            found = self.target.find(text, flags)
        self.status.setText("" if found else self.tr("Not found"))
        return found
