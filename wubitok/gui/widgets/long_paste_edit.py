"""A plain text editor that takes a long text a piece per turn of the event loop.

Pasting a megabyte into a ``QPlainTextEdit`` is one ``insertText`` of 150-250 ms on the GUI
thread, during which the window is frozen (bench/bench_gui_stalls.py, ``tokenize_paste_1m``).
Here the text goes in pieces of :data:`~.token_view.DOCUMENT_PIECE_CHARS` characters, one
per turn (:class:`~..support.steps.Steps`, about 15 ms each), inside one edit block: it is
still one step to undo.  The editor is read-only until the last piece is in, so nothing is
typed into its middle.  A paste does this, and so can a pane (:meth:`LongPasteEdit.insert_long`:
Convert's result).
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QMimeData, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from ..support.steps import Steps
from .token_view import document_pieces

# Shorter texts go in at once, as Qt does it (a few milliseconds).
LONG_PASTE_CHARS = 50_000


class LongPasteEdit(QPlainTextEdit):
    """``QPlainTextEdit`` with long pastes in pieces; :meth:`is_pasting` while one goes in."""

    # A long text is about to go in, in one edit block (a DocumentText following the document need
    # not read it back out of it: DocumentText.expect).
    longTextComing = Signal(object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._pasting = Steps(self)
        self._finish: Callable[[], None] | None = None  # ends the text going in now

    def is_pasting(self) -> bool:
        return self._finish is not None

    def cut_short(self) -> None:
        """Stop a text going in where it is: its edit block ends, it stays as far as it got, no ``then``."""
        if self._finish is not None:
            self._pasting.clear()
            self._finish()

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 (Qt API)
        text = source.text() if source.hasText() else ""
        if len(text) < LONG_PASTE_CHARS or self.isReadOnly():
            super().insertFromMimeData(source)
            return
        self.insert_long(QTextCursor(self.textCursor()), text)

    def insert_long(self, cursor: QTextCursor, text: str, then: Callable[[], None] | None = None) -> None:
        """Put ``text`` in place of ``cursor``'s selection, in pieces (one undo step); ``then()`` once it is in.
        A text still going in is cut short first (:meth:`cut_short`)."""
        self.cut_short()
        self.longTextComing.emit(text)
        read_only = self.isReadOnly()
        cursor.beginEditBlock()
        cursor.removeSelectedText()
        self.setReadOnly(True)

        def finish() -> None:
            self._finish = None
            cursor.endEditBlock()
            self.setReadOnly(read_only)
            self.setTextCursor(cursor)
            self.ensureCursorVisible()

        def last() -> None:
            finish()
            if then is not None:
                then()

        self._finish = finish
        self._pasting.start([*(lambda p=piece: cursor.insertText(p) for piece in document_pieces(text)), last])
