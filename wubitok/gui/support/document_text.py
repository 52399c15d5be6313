"""The plain text of a QTextDocument, kept in step with it edit by edit.

``QPlainTextEdit.toPlainText`` copies the whole document: at 1 MB a few milliseconds per
keystroke, and it is not the text typed -- it turns no-break spaces (U+00A0) into spaces
(``toRawText`` keeps them).  :class:`DocumentText` follows ``contentsChange`` instead and
splices each edit into its copy, reading only the characters inserted.

A document counts UTF-16 units: once a character outside the BMP is in it, positions are
no longer code points, and the copy is read again whole after each edit
(``toRawText``) -- correct, and as slow as before.
"""
from __future__ import annotations

import shiboken6
from PySide6.QtCore import QObject
from PySide6.QtGui import QTextCursor, QTextDocument

PARAGRAPH = "\u2029"  # how a document's raw text and its selections write a line break


def raw_text(doc: QTextDocument) -> str:
    """The document's text with its line breaks as ``\\n`` and nothing else changed."""
    return doc.toRawText().replace(PARAGRAPH, "\n")


def _has_astral(text: str) -> bool:
    return len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)


class DocumentText(QObject):
    """:meth:`text` is the text of the document :meth:`follow` was given, after every edit."""

    def __init__(self, doc: QTextDocument, parent: QObject | None = None):
        super().__init__(parent)
        self._doc: QTextDocument | None = None
        self._text = ""
        # Insertions one after another (a long paste goes in a piece per edit) are kept aside and put
        # into the text when it is asked for: splicing each 16,000-character piece into 40 MB of text
        # took 15-48 ms a piece, 38 s in all.
        self._pending: list[str] = []
        self._pending_at = 0  # where they go in _text
        self._pending_len = 0
        self._astral = False
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
        return self._text

    def _flush(self) -> None:
        if self._pending:
            text, at = self._text, self._pending_at
            self._text = text[:at] + "".join(self._pending) + text[at:]
            self._pending.clear()
            self._pending_len = 0

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
        self._pending.clear()
        self._pending_len = 0
        self._text = raw_text(self._doc)
        self._astral = _has_astral(self._text)

    def _changed(self, position: int, removed: int, added: int) -> None:
        doc = self._doc
        assert doc is not None
        if self._astral:
            self._reread()
            return
        length = len(self._text) + self._pending_len
        # Qt counts the document's last paragraph break, which the text does not have (a
        # whole document replaced is reported as one more character removed and added).
        position = min(position, length)
        removed = min(removed, length - position)
        added = max(0, min(added, doc.characterCount() - 1 - position))
        expected = self._expected
        if added or not expected:  # setPlainText removes everything first, then inserts: not yet the text
            self._expected = None
        if expected is not None and len(expected) == added and not _has_astral(expected):
            self._flush()
            text = self._text
            self._text = text[:position] + expected + text[position + removed:]
            if len(self._text) != doc.characterCount() - 1:  # not the change expected after all
                self._reread()
            return
        cursor = QTextCursor(doc)
        cursor.setPosition(position)
        cursor.setPosition(position + added, QTextCursor.MoveMode.KeepAnchor)
        inserted = cursor.selectedText().replace(PARAGRAPH, "\n")
        if _has_astral(inserted):
            self._reread()
            return
        if not removed and (not self._pending or position == self._pending_at + self._pending_len):
            if not self._pending:
                self._pending_at = position
            self._pending.append(inserted)
            self._pending_len += len(inserted)
            return
        self._flush()
        text = self._text
        self._text = text[:position] + inserted + text[position + removed:]
