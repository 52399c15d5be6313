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
bytes, in place, and decodes a piece per turn (:class:`~..support.text_pieces.Utf8Pieces`): its
text as one Python string cost 50-60 ms of the paste's turn at 10 MB.

A long selection goes the same way, a piece per turn from its end, when a paste, Delete,
Backspace, Cut or a typed character replaces it: removing 10 MB of 333,000 lines in one call
was 385 ms of Qt's own (1 MB: 31 ms), in pieces of 16,000 characters at most 14 ms a turn.
"""
from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from ..support.steps import Steps
from ..support.text_pieces import DOCUMENT_PIECE_CHARS, Utf8Pieces

# Shorter texts go in at once, as Qt does it (a few milliseconds).  A paste counts its UTF-8 bytes.
LONG_PASTE_CHARS = 50_000
# Qt reads "text/plain" as UTF-8 (QMimeData::text), the first of these that the data has.
_TEXT_FORMATS = ("text/plain;charset=utf-8", "text/plain")
# Qt's editors take Backspace and Delete by their keys too, whatever the platform's bindings.
_REMOVING = (QKeySequence.StandardKey.Delete, QKeySequence.StandardKey.Backspace)
_REMOVING_KEYS = (Qt.Key.Key_Backspace, Qt.Key.Key_Delete)


def removal_cuts(document, start: int, end: int) -> list[int]:
    """Where a long removal of ``start``-``end`` (UTF-16 positions of ``document``) is cut, from
    the end down to ``start``; never between the two halves of a surrogate pair."""
    cuts = [end]
    while cuts[-1] > start:
        cut = max(start, cuts[-1] - DOCUMENT_PIECE_CHARS)
        if cut > start and 0xDC00 <= ord(document.characterAt(cut)) <= 0xDFFF:
            cut -= 1  # a low surrogate: its high half goes with it
        cuts.append(cut)
    return cuts


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
        if form is None or self.isReadOnly():
            super().insertFromMimeData(source)
            return
        # Read in place (PySide6's QByteArray has the buffer protocol; its stubs do not say so).
        raw = memoryview(source.data(form))  # type: ignore[arg-type]
        if len(raw) < LONG_PASTE_CHARS and not self._long_selection():
            super().insertFromMimeData(source)
            return
        self.insert_long(QTextCursor(self.textCursor()), Utf8Pieces(raw))

    def _long_selection(self) -> bool:
        cursor = self.textCursor()
        return not self.isReadOnly() and cursor.selectionEnd() - cursor.selectionStart() >= LONG_PASTE_CHARS

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        if not self._long_selection():
            super().keyPressEvent(event)
            return
        text = event.text()
        typed = len(text) == 1 and text.isprintable() and not event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier)
        if event.matches(QKeySequence.StandardKey.Cut):
            self.cut()
        elif typed or event.key() in _REMOVING_KEYS or any(event.matches(key) for key in _REMOVING):
            self.insert_long(QTextCursor(self.textCursor()), [text] if typed else [])
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def cut(self) -> None:
        """Qt's cut, with a long selection removed a piece per turn (the Cut key and the Edit menu's)."""
        if not self._long_selection():
            super().cut()
            return
        self.copy()
        self.insert_long(QTextCursor(self.textCursor()), [])

    def insert_long(self, cursor: QTextCursor, pieces: Sequence[str], then: Callable[[], None] | None = None) -> None:
        """Put the text of ``pieces`` (:func:`~..support.text_pieces.document_pieces`) in place of
        ``cursor``'s selection, a piece per turn (one undo step); ``then()`` once it is in.
        A text still going in is cut short first (:meth:`cut_short`)."""
        self.cut_short()
        read_only = self.isReadOnly()
        blocked = self.blockSignals(True)  # a pane hears of it once it is in (a pane may hold them off itself)
        self.setReadOnly(True)

        started = False

        def edit(change: Callable[[], None]) -> None:
            # The first edit an edit block of its own, not joined to the user's last edit; each
            # next one joined to the one before: one step to undo.
            nonlocal started
            cursor.joinPreviousEditBlock() if started else cursor.beginEditBlock()
            started = True
            change()
            cursor.endEditBlock()

        def remove(start: int, end: int) -> None:
            piece = QTextCursor(cursor.document())
            piece.setPosition(start)
            piece.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            edit(piece.removeSelectedText)  # ``cursor`` keeps its place: Qt moves it with the text

        start, end = cursor.selectionStart(), cursor.selectionEnd()
        removals: list[Callable[[], None]]
        if end - start >= LONG_PASTE_CHARS:
            cuts = removal_cuts(cursor.document(), start, end)
            removals = [partial(remove, a, b) for b, a in zip(cuts, cuts[1:])]
        else:  # a short selection (or none) in one edit
            removals = [lambda: edit(cursor.removeSelectedText)]

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
        # Every step on a turn of its own, the first too: a paste's own turn has read the clipboard
        # (Qt's UTF-8 of 10 MB, 26-35 ms).  A piece is read (a Utf8Pieces decoded) only on its turn.
        inserts = [lambda i=i: edit(lambda: cursor.insertText(pieces[i])) for i in range(len(pieces))]
        self._pasting.start([*removals, *inserts, last], first_now=False)
