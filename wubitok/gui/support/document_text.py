"""The plain text of a QTextDocument, kept in step with it edit by edit.

``QPlainTextEdit.toPlainText`` copies the whole document: at 1 MB a few milliseconds per
keystroke, and it is not the text typed -- it turns no-break spaces (U+00A0) into spaces
(``toRawText`` keeps them).  :class:`DocumentText` follows ``contentsChange`` instead and
puts each edit into its slices of the text, reading only the characters inserted.

A document counts UTF-16 units: once a character outside the BMP is in it, its positions
are no longer code points.  Each string of the text keeps where each such character starts, in
units, and turns the document's positions into code points with it, so emoji or Ext-B text costs what
other text does (it was read again whole after each edit: 1 MB per keystroke).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import shiboken6
from PySide6.QtCore import QObject
from PySide6.QtGui import QTextCursor, QTextDocument

PARAGRAPH = "\u2029"  # how a document's raw text and its selections write a line break


def raw_text(doc: QTextDocument) -> str:
    """The document's text with its line breaks as ``\\n`` and nothing else changed."""
    return doc.toRawText().replace(PARAGRAPH, "\n")


def astral_units(text: str) -> np.ndarray:
    """Where each character outside the BMP starts in ``text``, in UTF-16 units (sorted)."""
    if len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text):  # 11 ms at 10 MB; utf-32 takes 43
        return np.empty(0, np.int64)
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
    at = np.flatnonzero(points > 0xFFFF).astype(np.int64)
    return at + np.arange(len(at), dtype=np.int64)  # each one before adds a unit


class _Slice(NamedTuple):
    """Code points ``start``-``end`` of ``whole``: UTF-16 units ``first``-``last`` of it, ``pairs``
    being where its characters outside the BMP start (:func:`astral_units` of ``whole``)."""

    whole: str
    pairs: np.ndarray
    start: int
    end: int
    first: int
    last: int

    @classmethod
    def of(cls, text: str, pairs: np.ndarray) -> _Slice:
        return cls(text, pairs, 0, len(text), 0, len(text) + len(pairs))

    def units(self) -> int:
        return self.last - self.first

    def upto(self, units: int) -> _Slice:
        """The slice's first ``units`` units."""
        return self._replace(end=self._point(units), last=self.first + units)

    def after(self, units: int) -> _Slice:
        """The slice without its first ``units`` units."""
        return self._replace(start=self._point(units), first=self.first + units)

    def kept(self) -> _Slice:
        """The slice, or its text copied out when it is what is left of a string 16 times longer:
        a few characters left of a 10 MB text would keep all of it alive."""
        return self if (self.end - self.start) * 16 >= len(self.whole) else _joined([self])

    def _point(self, units: int) -> int:
        # Each character outside the BMP before the cut takes two units: a cut never falls inside one.
        pairs = self.pairs
        before = 0 if not len(pairs) else int(np.searchsorted(pairs, self.first + units)
                                                - np.searchsorted(pairs, self.first))
        return self.start + units - before


class DocumentText(QObject):
    """:meth:`text` is the text of the document :meth:`follow` was given, after every edit.

    The text is kept as slices of strings (a piece table): an edit cuts the slices around it and
    puts the inserted text between them, and nothing is copied until the text is asked for whole.
    Copying a 10 MB text for one key (two slices and their join, 40 MB of new memory) held the GUI
    thread 72-122 ms on this machine, and a long paste or a long text replaced a piece per edit
    copied it per piece.  :meth:`slices` gives the text without copying it.
    """

    def __init__(self, doc: QTextDocument, parent: QObject | None = None):
        super().__init__(parent)
        self._doc: QTextDocument | None = None
        self._slices: list[_Slice] = []  # the text, in order
        self._units = 0  # its length in UTF-16 units, as the document counts it
        self._expected: str | None = None  # a long text about to go in (expect)
        self.follow(doc)

    def follow(self, doc: QTextDocument) -> None:
        """Follow ``doc`` from now on (a widget was given another document)."""
        if self._doc is not None and shiboken6.isValid(self._doc):  # a widget deletes its own first document
            self._doc.contentsChange.disconnect(self._changed)
        self._doc = doc
        self._reread()
        doc.contentsChange.connect(self._changed)

    def text(self) -> str:
        """The text, put together once if edits have cut it into slices."""
        if len(self._slices) == 1 and self._slices[0][2:4] == (0, len(self._slices[0].whole)):
            return self._slices[0].whole
        joined = _joined(self._slices)
        self._slices = [joined] if joined.whole else []
        return joined.whole

    def slices(self) -> list[tuple[str, int, int]]:
        """The text as ``(string, start, end)`` slices, nothing copied (:func:`wubitok.text.builder.text_blocks`
        reads them a block at a time)."""
        return [(s.whole, s.start, s.end) for s in self._slices]

    def expect(self, inserted: str) -> None:
        """``inserted`` is about to go in whole (``setPlainText``): the document then reports it as
        one change, and reading 10 MB back out of it (``selectedText``) held the GUI thread 240 ms
        (a long paste goes in a piece per edit, :class:`LongPasteEdit`, each read on its own).
        The change is taken as this text when its length is this text's as a document stores it
        (line breaks as one character); a change that only removes (``setPlainText`` clears the
        document first) leaves it expected."""
        self._expected = inserted.replace("\r\n", "\n").replace("\r", "\n").replace(PARAGRAPH, "\n")

    def _reread(self) -> None:
        assert self._doc is not None
        text = raw_text(self._doc)
        self._slices = [_Slice.of(text, astral_units(text))] if text else []
        self._units = sum(piece.units() for piece in self._slices)

    def _replace(self, position: int, removed: int, inserted: _Slice | None) -> None:
        """The ``removed`` units at ``position`` become ``inserted``, in the slices."""
        head: list[_Slice] = []
        tail: list[_Slice] = []
        at, end = 0, position + removed
        for piece in self._slices:
            first, last = at, at + piece.units()
            if first < position:
                head.append(piece if last <= position else piece.upto(position - first).kept())
            if last > end:
                tail.append(piece if first >= end else piece.after(end - first).kept())
            at = last
        self._units += (inserted.units() if inserted is not None else 0) - removed
        if inserted is not None and head and _short(head[-1]) and _short(inserted):
            # Keys typed one after another make one string, not a slice each.
            inserted = _joined([head.pop(), inserted])
        self._slices = head + ([inserted] if inserted is not None else []) + tail

    def _changed(self, position: int, removed: int, added: int) -> None:
        doc = self._doc
        assert doc is not None
        # Qt counts the document's last paragraph break, which the text does not have (a
        # whole document replaced is reported as one more character removed and added).
        position = min(position, self._units)
        removed = min(removed, self._units - position)
        added = max(0, min(added, doc.characterCount() - 1 - position))
        expected = self._expected
        if added or not expected:  # setPlainText removes everything first, then inserts: not yet the text
            self._expected = None
        inserted = None
        if expected is not None:
            pairs = astral_units(expected)
            if len(expected) + len(pairs) == added:
                inserted = _Slice.of(expected, pairs)
        if inserted is None and added:
            cursor = QTextCursor(doc)
            cursor.setPosition(position)
            cursor.setPosition(position + added, QTextCursor.MoveMode.KeepAnchor)
            text = cursor.selectedText().replace(PARAGRAPH, "\n")
            inserted = _Slice.of(text, astral_units(text))
        self._replace(position, removed, inserted if inserted is not None and inserted.whole else None)
        if self._units != doc.characterCount() - 1:  # lost step: read it whole
            self._reread()


def _joined(slices: list[_Slice]) -> _Slice:
    """The slices' text copied into one string, its pairs taken from theirs (finding them in the
    copy again, :func:`astral_units`, was 11 ms at 10 MB)."""
    text = "".join([s.whole[s.start:s.end] for s in slices])
    pairs, offset = [], 0
    for s in slices:
        if len(s.pairs):
            inside = s.pairs[np.searchsorted(s.pairs, s.first):np.searchsorted(s.pairs, s.last)]
            pairs.append(inside + (offset - s.first))
        offset += s.units()
    return _Slice.of(text, np.concatenate(pairs) if pairs else np.empty(0, np.int64))


SHORT = 4096  # code points: a slice this short is joined with a short insertion next to it


def _short(piece: _Slice) -> bool:
    return piece.end - piece.start <= SHORT
