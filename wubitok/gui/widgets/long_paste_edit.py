"""A plain text editor that takes a long text a piece per turn of the event loop.

Pasting a megabyte into a ``QPlainTextEdit`` is one ``insertText`` of 150-250 ms on the GUI
thread, during which the window is frozen (bench/bench_gui_stalls.py, ``tokenize_paste_1m``).
Here the text goes in pieces (:mod:`~..support.text_pieces`, about 16,000 characters), one
per turn (:class:`~..support.steps.Steps`, about 15 ms each), each piece in an edit block
joined to the one before (``joinPreviousEditBlock``): it is still one step to undo.  One edit
block around all of them left the document's layout to take in the whole text at its end, in
one turn (83-95 ms of Qt's own at 10 MB; the pasted text read back out of the document by a
:class:`~..support.document_text.DocumentText`, 240-530 ms more); piece by piece, each piece's
change is laid out, and read, on its own turn.  The editor is read-only until the last piece is
in, so nothing is typed into its middle, and its signals are held until then (``textChanged``
once, at the end, as for one edit).  A paste does this, and so can a pane
(:meth:`LongPasteEdit.insert_long`: Convert's result).  A paste reads the clipboard as UTF-8
bytes and decodes a piece per turn (:class:`~..support.text_pieces.Utf8Pieces`): its text as one
Python string cost 50-60 ms of the paste's turn at 10 MB.
"""
from __future__ import annotations

from typing import Callable, Sequence

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from ..support.steps import Steps
from ..support.text_pieces import Utf8Pieces

# Shorter texts go in at once, as Qt does it (a few milliseconds).  A paste counts its UTF-8 bytes.
LONG_PASTE_CHARS = 50_000
# Qt reads "text/plain" as UTF-8 (QMimeData::text), the first of these that the data has.
_TEXT_FORMATS = ("text/plain;charset=utf-8", "text/plain")


class LongPasteEdit(QPlainTextEdit):
    """``QPlainTextEdit`` with long pastes in pieces; :meth:`is_pasting` while one goes in."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._pasting = Steps(self)
        self._finish: Callable[[], None] | None = None  # ends the text going in now

    def is_pasting(self) -> bool:
        return self._finish is not None

    def cut_short(self) -> None:
        """Stop a text going in where it is: it stays as far as it got (one step to undo), no ``then``."""
        if self._finish is not None:
            self._pasting.clear()
            self._finish()

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 (Qt API)
        form = next((f for f in _TEXT_FORMATS if source.hasFormat(f)), None)
        raw = source.data(form).data() if form is not None else b""
        if len(raw) < LONG_PASTE_CHARS or self.isReadOnly():
            super().insertFromMimeData(source)
            return
        self.insert_long(QTextCursor(self.textCursor()), Utf8Pieces(bytes(raw)))

    def insert_long(self, cursor: QTextCursor, pieces: Sequence[str], then: Callable[[], None] | None = None) -> None:
        """Put the text of ``pieces`` (:func:`~..support.text_pieces.document_pieces`) in place of
        ``cursor``'s selection, a piece per turn (one undo step); ``then()`` once it is in.
        A text still going in is cut short first (:meth:`cut_short`)."""
        self.cut_short()
        read_only = self.isReadOnly()
        blocked = self.blockSignals(True)  # a pane hears of it once it is in (a pane may hold them off itself)
        self.setReadOnly(True)

        def put(piece: str, first: bool) -> None:
            if first:  # the selection replaced: an edit block of its own, not joined to the user's last edit
                cursor.beginEditBlock()
                cursor.removeSelectedText()
            else:
                cursor.joinPreviousEditBlock()  # one step to undo with the pieces before
            cursor.insertText(piece)
            cursor.endEditBlock()

        def finish() -> None:
            self._finish = None
            self.blockSignals(blocked)
            self.setReadOnly(read_only)
            self.setTextCursor(cursor)
            self.ensureCursorVisible()
            if not blocked:
                self.textChanged.emit()

        def last() -> None:
            finish()
            if then is not None:
                then()

        self._finish = finish
        # The first piece (and the selection's removal) now, as a paste does it; a piece is read
        # (a Utf8Pieces decoded) only on its turn.
        steps = [lambda i=i: put(pieces[i], i == 0) for i in range(len(pieces))] or [lambda: put("", True)]
        self._pasting.start([*steps, last])
