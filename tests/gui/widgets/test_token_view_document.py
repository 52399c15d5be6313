"""Token view documents are built in pieces (the GIL is let go between them): the same document as one setPlainText."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QFont, QTextDocument

from wubitok.gui.support.text_pieces import DOCUMENT_PIECE_CHARS
from wubitok.gui.widgets.token_view import make_document

# Line breaks of every kind, Han, an Ext B character (two UTF-16 units), Latin.
CHUNKS = st.lists(st.sampled_from(["\n", "\r", "\r\n", "中", "文", "\U00020000", "a", " ", "\u2029"]), max_size=120)


def _oracle(text: str) -> QTextDocument:
    doc = QTextDocument()
    doc.setPlainText(text)
    return doc


@settings(max_examples=40, deadline=None)
@given(parts=CHUNKS, repeat=st.integers(1, 400))
def test_a_document_built_in_pieces_is_the_one_set_plain_text_builds(gui_app, parts, repeat):
    # Long enough to take several pieces: line breaks (CR LF too) fall on and near the cuts.
    text = "".join(parts) * repeat
    doc, expected = make_document(text, QFont()), _oracle(text)
    assert doc.toPlainText() == expected.toPlainText()
    assert doc.blockCount() == expected.blockCount() and doc.characterCount() == expected.characterCount()
    assert not doc.isUndoAvailable()


def test_a_crlf_exactly_at_a_cut_is_one_line_break(gui_app):
    text = "中" * (DOCUMENT_PIECE_CHARS - 1) + "\r\n" + "文" * 10
    doc = make_document(text, QFont())
    assert doc.blockCount() == _oracle(text).blockCount() == 2
