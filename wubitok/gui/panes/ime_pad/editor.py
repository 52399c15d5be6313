"""The pad's editor: a plain text editor whose keys go through the input engine.

Each key press goes to the engine, and what comes back is shown the way a system
input method does: a ``QInputMethodEvent`` puts the typed code inline at the cursor
as underlined pre-edit text and inserts committed text into the document (so undo,
selection and copy behave as usual).  The candidate bar floats under the cursor.
The platform's own input method is switched off for this editor, so keys reach the engine.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QInputMethodEvent, QKeyEvent, QTextCharFormat
from PySide6.QtWidgets import QApplication, QPlainTextEdit

from ....ime import ImeEngine
from ...support import errors
from ...widgets.long_paste_edit import LongPasteEdit
from .candidate_bar import CandidateBar

_NAMED = {
    Qt.Key.Key_Space: "space", Qt.Key.Key_Return: "enter", Qt.Key.Key_Enter: "enter",
    Qt.Key.Key_Backspace: "backspace", Qt.Key.Key_Escape: "escape",
    Qt.Key.Key_PageUp: "pageup", Qt.Key.Key_PageDown: "pagedown",
}
# Keys that would move the cursor away from the pre-edit text: swallowed while composing.
_NAVIGATION = {
    Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Home, Qt.Key.Key_End,
    Qt.Key.Key_Tab, Qt.Key.Key_Delete,
}


class ImeEditor(LongPasteEdit):
    """A plain text editor whose keys go through an :class:`ImeEngine` (long pastes in pieces)."""

    state_changed = Signal(object)  # ImeState after each key
    alerted = Signal()  # a key met a code with no candidates under the "keep it and beep" rule
    add_phrase_requested = Signal(str)  # the selected text, from the context menu

    def __init__(self, engine: ImeEngine, parent=None):
        super().__init__(parent)
        self.engine = engine
        # Our engine is the input method here; a system IME would fight it for the keys.
        self.setAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled, False)
        self._shift_alone = False
        # Qt draws the placeholder under the pre-edit text of an empty document: while a code
        # is typed there is no placeholder (see _show).
        self._placeholder = ""
        self.candidate_bar = CandidateBar(self.viewport())
        self.candidate_bar.hide()
        self.candidate_bar.chosen.connect(self._choose)
        self.candidate_bar.page.connect(self.feed_key)
        self.cursorPositionChanged.connect(self._place_bar)
        self.verticalScrollBar().valueChanged.connect(lambda _: self._place_bar())

    # -- keys --------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        key = event.key()
        if key == Qt.Key.Key_Shift:
            self._shift_alone = not event.isAutoRepeat()
            return
        self._shift_alone = False
        mods = event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier & ~Qt.KeyboardModifier.KeypadModifier
        if mods:  # Ctrl+C, Ctrl+Z...: the editor's, but never in the middle of a code
            if self.engine.composing:
                if key == Qt.Key.Key_Delete and mods == Qt.KeyboardModifier.ControlModifier:
                    self.forget(0)
                return
            super().keyPressEvent(event)
            return
        name = _NAMED.get(key)
        text = event.text()
        if name is None and len(text) == 1 and text.isprintable():
            name = text
        if name is None:
            if not (self.engine.composing and key in _NAVIGATION):
                super().keyPressEvent(event)
            return
        if not self.feed_key(name):
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Shift and self._shift_alone and not event.isAutoRepeat():
            self._shift_alone = False
            self.feed_key("shift")
            return
        super().keyReleaseEvent(event)

    def feed_key(self, key: str) -> bool:
        """Give one key (a character or a named key) to the engine; False if the editor should handle it."""
        result = self.engine.process(key)
        self._show(result.committed)
        return result.handled or bool(result.committed)

    def refresh(self) -> None:
        """Show the engine's state again (after its options changed)."""
        self._show("")

    def forget(self, index: int) -> None:
        """Forget what was learned about candidate ``index`` of the page (the table's entry stays)."""
        if index < len(self.engine.state.candidates):
            with errors.reported(self):
                self.engine.forget(index)
        self.refresh()

    def setPlaceholderText(self, text: str) -> None:  # noqa: N802 (Qt API)
        self._placeholder = text
        super().setPlaceholderText("" if self.engine.composing else text)

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        self.cancel_composition()
        menu = self.createStandardContextMenu(event.pos())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        selected = self.textCursor().selectedText().strip()
        menu.addSeparator()
        action = menu.addAction(self.add_phrase_label(selected))
        action.triggered.connect(lambda: self.add_phrase_requested.emit(selected))
        menu.popup(event.globalPos())

    def add_phrase_label(self, selected: str) -> str:
        if not selected:
            return self.tr("Add a phrase…")
        shown = selected if len(selected) <= 12 else selected[:12] + "…"
        return self.tr("Add “{text}” as a phrase…").replace("{text}", shown)

    def _choose(self, index: int) -> None:
        self._show(self.engine.select(index))
        self.setFocus()

    def _show(self, committed: str) -> None:
        state = self.engine.state
        attrs = []
        if state.preedit:
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
            fmt.setFontUnderline(True)
            attrs.append(QInputMethodEvent.Attribute(QInputMethodEvent.AttributeType.TextFormat,
                                                     0, len(state.preedit), fmt))
            attrs.append(QInputMethodEvent.Attribute(QInputMethodEvent.AttributeType.Cursor,
                                                     len(state.preedit), 1))
        event = QInputMethodEvent(state.preedit, attrs)
        event.setCommitString(committed)
        if state.composing == bool(self.placeholderText()):
            QPlainTextEdit.setPlaceholderText(self, "" if state.composing else self._placeholder)
        self.inputMethodEvent(event)
        if state.alert:
            QApplication.beep()
            self.alerted.emit()
        self.candidate_bar.setVisible(state.composing)
        if state.composing:
            self.candidate_bar.show_state(state)
            self._place_bar()
        self.state_changed.emit(state)

    def _place_bar(self) -> None:
        if not self.engine.composing:
            return
        rect = self.cursorRect()
        bar = self.candidate_bar
        bar.adjustSize()
        vp = self.viewport().rect()
        x = min(rect.left(), max(0, vp.width() - bar.width()))
        y = rect.bottom() + 6
        if y + bar.height() > vp.height() and rect.top() - bar.height() - 6 >= 0:
            y = rect.top() - bar.height() - 6  # no room below: above the line, never over it
        bar.move(QPoint(x, y))
        bar.raise_()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._place_bar()

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        # The cursor rectangle is only right once the editor is laid out.
        QTimer.singleShot(0, self._place_bar)

    # -- leaving the composition ---------------------------------------------
    def cancel_composition(self) -> None:
        """Drop a code being typed (the cursor is about to move elsewhere)."""
        if self.engine.composing:
            self.engine.process("escape")
            self._show("")

    def mousePressEvent(self, event) -> None:  # noqa: N802
        self.cancel_composition()
        super().mousePressEvent(event)


def key_event(key: str) -> QKeyEvent:
    """The key press an editor would get for an engine key it did not take."""
    qt_key = {v: k for k, v in _NAMED.items()}.get(key)
    if qt_key is not None:
        text = {"space": " ", "enter": "\r", "backspace": "\b", "escape": "\x1b"}.get(key, "")
        return QKeyEvent(QEvent.Type.KeyPress, qt_key, Qt.KeyboardModifier.NoModifier, text)
    return QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, key)
