"""The plain text of a QTextDocument, kept in step with it edit by edit.

``QPlainTextEdit.toPlainText`` copies the whole document: at 1 MB a few milliseconds per
keystroke, and it is not the text typed -- it turns no-break spaces (U+00A0) into spaces
(``toRawText`` keeps them).  :class:`DocumentText` follows ``contentsChange`` instead and
splices each edit into its copy, reading only the characters inserted.

A document counts UTF-16 units: once a character outside the BMP is in it, its positions
are no longer code points.  The copy keeps where each such character starts, in units, and
turns the document's positions into code points with it, so emoji or Ext-B text costs what
other text does (it was read again whole after each edit: 1 MB per keystroke).
"""
from __future__ import annotations

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


class DocumentText(QObject):
    """:meth:`text` is the text of the document :meth:`follow` was given, after every edit."""

    def __init__(self, doc: QTextDocument, parent: QObject | None = None):
        super().__init__(parent)
        self._doc: QTextDocument | None = None
        self._text = ""
        self._pairs = np.empty(0, np.int64)  # astral_units(self._text)
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
        return self._text

    def expect(self, inserted: str) -> None:
        """``inserted`` is about to go in, in one edit block (a long paste, :class:`LongPasteEdit`):
        the document then reports it as one change, and reading 10 MB back out of it
        (``selectedText``) held the GUI thread 240 ms.  The change is taken as this text when
        its length is this text's as a document stores it (line breaks as one character)."""
        self._expected = inserted.replace("\r\n", "\n").replace("\r", "\n").replace(PARAGRAPH, "\n")

    def _reread(self) -> None:
        assert self._doc is not None
        self._text = raw_text(self._doc)
        self._pairs = astral_units(self._text)

    def _point(self, unit: int) -> int:
        """The code point index of the character at UTF-16 position ``unit``."""
        return unit - int(np.searchsorted(self._pairs, unit))

    def _changed(self, position: int, removed: int, added: int) -> None:
        doc = self._doc
        assert doc is not None
        text, pairs = self._text, self._pairs
        units = len(text) + len(pairs)
        # Qt counts the document's last paragraph break, which the text does not have (a
        # whole document replaced is reported as one more character removed and added).
        position = min(position, units)
        removed = min(removed, units - position)
        added = max(0, min(added, doc.characterCount() - 1 - position))
        expected, self._expected = self._expected, None
        if expected is not None:
            new_pairs = astral_units(expected)
            if len(expected) + len(new_pairs) != added:  # not the change expected after all
                expected = None
        if expected is None:
            cursor = QTextCursor(doc)
            cursor.setPosition(position)
            cursor.setPosition(position + added, QTextCursor.MoveMode.KeepAnchor)
            expected = cursor.selectedText().replace(PARAGRAPH, "\n")
            new_pairs = astral_units(expected)
        start, end = self._point(position), self._point(position + removed)
        self._text = text[:start] + expected + text[end:]
        cut = np.searchsorted(pairs, [position, position + removed])
        self._pairs = np.concatenate((pairs[:cut[0]], new_pairs + position, pairs[cut[1]:] + (added - removed)))
        if len(self._text) + len(self._pairs) != doc.characterCount() - 1:  # lost step: read it whole
            self._reread()
