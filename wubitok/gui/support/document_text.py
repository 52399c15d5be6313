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
        # The text ends here, in code points, when it was cut from its end and not copied yet: a long
        # text is removed a piece at a time from its end, and each cut copied the rest (20 MB at 10 MB).
        self._end: int | None = None
        self._pairs = np.empty(0, np.int64)  # astral_units(the text)
        # Insertions one after another (a long paste goes in a piece per edit) are kept aside and put
        # into the text when it is asked for: splicing each 16,000-character piece into 40 MB of text
        # took 15-48 ms a piece, 38 s in all.
        self._pending: list[str] = []
        self._pending_pairs: list[np.ndarray] = []  # their astral_units, each from its own start
        self._pending_at = 0  # where they go, in UTF-16 units
        self._pending_units = 0
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
        self._flush()
        self._cut()
        return self._text

    def _cut(self) -> None:
        if self._end is not None:
            self._text, self._end = self._text[:self._end], None

    def _length(self) -> int:
        """The text's length in code points (without the insertions kept aside)."""
        return len(self._text) if self._end is None else self._end

    def _flush(self) -> None:
        if not self._pending:
            return
        sizes = [len(piece) + len(pairs) for piece, pairs in zip(self._pending, self._pending_pairs)]
        starts = np.cumsum([0, *sizes[:-1]], dtype=np.int64)
        counts = [len(pairs) for pairs in self._pending_pairs]
        inserted = "".join(self._pending)
        pairs = np.concatenate(self._pending_pairs).astype(np.int64) + np.repeat(starts, counts)
        units = self._pending_units
        self._clear_pending()
        self._splice(self._pending_at, 0, inserted, pairs, units)

    def _clear_pending(self) -> None:
        self._pending.clear()
        self._pending_pairs.clear()
        self._pending_units = 0

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
        self._clear_pending()
        self._text, self._end = raw_text(self._doc), None
        self._pairs = astral_units(self._text)

    def _point(self, unit: int) -> int:
        """The code point index of the character at UTF-16 position ``unit``."""
        return unit - int(np.searchsorted(self._pairs, unit))

    def _splice(self, position: int, removed: int, inserted: str, pairs: np.ndarray, added: int) -> None:
        """``removed`` units at ``position`` become ``inserted`` (``added`` units, ``pairs`` its astral_units)."""
        old = self._pairs
        if not inserted and position + removed == self._length() + len(old):  # its end cut off
            self._end = self._point(position)
            self._pairs = old[:np.searchsorted(old, position)]
            return
        self._cut()
        text = self._text
        # One join of the parts that are not empty: a join of one part is that part, not a copy (a long
        # text put into an empty one, 38 MB at 10 MB of codes).
        parts = (text[:self._point(position)], inserted, text[self._point(position + removed):])
        self._text = "".join([part for part in parts if part])
        cut = np.searchsorted(old, [position, position + removed])
        self._pairs = np.concatenate((old[:cut[0]], pairs + position, old[cut[1]:] + (added - removed)))

    def _changed(self, position: int, removed: int, added: int) -> None:
        doc = self._doc
        assert doc is not None
        units = self._length() + len(self._pairs) + self._pending_units
        # Qt counts the document's last paragraph break, which the text does not have (a
        # whole document replaced is reported as one more character removed and added).
        position = min(position, units)
        removed = min(removed, units - position)
        added = max(0, min(added, doc.characterCount() - 1 - position))
        expected = self._expected
        if added or not expected:  # setPlainText removes everything first, then inserts: not yet the text
            self._expected = None
        inserted = None
        if expected is not None:
            pairs = astral_units(expected)
            if len(expected) + len(pairs) == added:
                inserted = expected
        if inserted is None:
            cursor = QTextCursor(doc)
            cursor.setPosition(position)
            cursor.setPosition(position + added, QTextCursor.MoveMode.KeepAnchor)
            inserted = cursor.selectedText().replace(PARAGRAPH, "\n")
            pairs = astral_units(inserted)
        if inserted and not removed and self._keep_aside(position, inserted, pairs, added):
            return
        if removed and not inserted and self._trim_pending(position, removed):
            if self._length() + len(self._pairs) + self._pending_units != doc.characterCount() - 1:
                self._reread()  # lost step: read it whole
            return
        self._flush()
        self._splice(position, removed, inserted, pairs, added)
        if self._length() + len(self._pairs) != doc.characterCount() - 1:  # lost step: read it whole
            self._reread()

    def _keep_aside(self, position: int, inserted: str, pairs: np.ndarray, added: int) -> bool:
        """Keep an insertion aside with the ones before it, if it falls among them (after the last one,
        or inside one: a key typed in a long text just pasted, which putting all of them into the text
        at once cost 80 ms at 10 MB)."""
        if not self._pending:
            self._pending_at = position
        offset = position - self._pending_at
        if not 0 <= offset <= self._pending_units:
            return False
        if offset == self._pending_units:
            self._pending.append(inserted)
            self._pending_pairs.append(pairs)
        else:
            i, start = 0, 0
            while start + len(self._pending[i]) + len(self._pending_pairs[i]) <= offset:
                start += len(self._pending[i]) + len(self._pending_pairs[i])
                i += 1
            piece, piece_pairs, within = self._pending[i], self._pending_pairs[i], offset - start
            before = int(np.searchsorted(piece_pairs, within))  # astral characters before the cut
            head, tail = piece[:within - before], piece[within - before:]
            self._pending[i:i + 1] = [part for part in (head, inserted, tail) if part]
            parts = (piece_pairs[:before], pairs, piece_pairs[before:] - within)
            self._pending_pairs[i:i + 1] = [q for q, part in zip(parts, (head, inserted, tail)) if part]
        self._pending_units += added
        return True

    def _trim_pending(self, position: int, removed: int) -> bool:
        """Take the ``removed`` units at ``position`` off the end of the insertions kept aside, if
        that is where they are: a long text replaced is removed a piece at a time from its end
        (LongPasteEdit), and putting the insertions into the text first, then cutting each piece off
        it, copied the whole text (40 MB at 10 MB of codes) per piece."""
        end = self._pending_at + self._pending_units
        if position < self._pending_at or position + removed != end:
            return False
        while removed:
            piece, pairs = self._pending[-1], self._pending_pairs[-1]
            piece_units = len(piece) + len(pairs)
            if piece_units <= removed:
                self._pending.pop()
                self._pending_pairs.pop()
            else:  # a removal never splits a surrogate pair: the units kept end on a character
                kept = pairs[pairs < piece_units - removed]
                self._pending[-1] = piece[:piece_units - removed - len(kept)]
                self._pending_pairs[-1] = kept
                piece_units = removed
            self._pending_units -= piece_units
            removed -= piece_units
        return True
