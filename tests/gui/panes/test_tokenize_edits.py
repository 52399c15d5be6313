"""After any edits, what Tokenize shows -- tokens, segments, table rows, ids -- is a full run's.

The pane sends the encode worker only the edit and splices the tokens that changed into the
result it shows (``services/encoded_versions``); these tests type into the editor and compare
every view with the text encoded whole, for each bundled model.
"""
from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextCursor

from wubitok.gui.panes.tokenize import TokenizePane
from wubitok.gui.support.document_text import raw_text
from wubitok.gui.widgets.token_table import COLUMNS
from wubitok.services.id_lines import id_lines_of
from wubitok.services.model_files import bundled_models_dir, load_model_file
from wubitok.services.tokenized import PackedEncoding, Spans

BUNDLED = sorted(bundled_models_dir().glob("*.json"))
PIECES = st.sampled_from(["\n", "\n\n", " ", "  ", "\t", "，", "。", "!", "123", "明月几时有", "把酒问青天", "Wubi",
                          " key", "▁", "é", "\u00a0", "[UNK]", "a", "天"])
TEXTS = st.lists(PIECES, max_size=16).map("".join)
# (position, characters removed, text inserted, wait for the tokens before the next edit)
EDITS = st.lists(st.tuples(st.integers(0, 120), st.integers(0, 4), TEXTS, st.booleans()), min_size=1, max_size=5)


@pytest.fixture(autouse=True)
def app(gui_app):
    return gui_app


@functools.cache
def _model(path):
    return load_model_file(path, "wubitok")


def _shows_the_full_run(pane: TokenizePane, tok) -> None:
    text = raw_text(pane.editor.document())
    assert pane.text() == text
    full = tok.encode(text)
    data = pane.token_view.tokenized()
    assert data is not None and data.text == text
    assert list(data.encoding.ids) == full.ids and list(data.encoding.tokens) == full.tokens
    assert list(data.encoding.offsets) == [tuple(o) for o in full.offsets]
    expected = Spans.of(text, full)
    for field in ("seg_start", "seg_end", "seg_tokens", "doc_start", "doc_end"):
        assert list(getattr(data.spans, field)) == list(getattr(expected, field)), field
    assert data.spans.seg_partial == expected.seg_partial
    assert raw_text(pane.token_view.document()) == text[: data.shown_chars]
    model = pane.token_table.token_model
    assert model.rowCount() == len(full.ids)
    assert [model.cell(row, "id") for row in range(model.rowCount())] == [str(i) for i in full.ids]
    assert [model.cell(row, "offsets") for row in range(model.rowCount())] == [f"{s}–{e}" for s, e in full.offsets]
    assert pane.id_view.toPlainText() == "\n".join(id_lines_of(text, PackedEncoding.pack(full), data.shown_chars)[1])
    assert pane.token_count() == len(full.ids)
    assert "index" in COLUMNS


@pytest.mark.parametrize("large_edit", [None, 3], ids=["typing", "pastes"])
@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_what_the_pane_shows_after_edits_is_the_full_run(qtbot, catalog, show_pane, monkeypatch, path, large_edit):
    if large_edit is not None:  # every edit but the smallest shown as a new result (as a paste is)
        monkeypatch.setattr("wubitok.gui.panes.tokenize.LARGE_EDIT_CHARS", large_edit)
    pane = show_pane(TokenizePane(catalog=catalog), 900, 600)
    pane.set_model(path.stem)
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    tok = _model(path)

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(start=TEXTS, edits=EDITS)
    def edits_then_compare(start, edits):
        pane.set_sample_text(start)
        qtbot.waitUntil(pane.is_ready, timeout=30_000)
        for at, removed, inserted, wait in edits:
            cursor = pane.editor.textCursor()
            end = pane.editor.document().characterCount() - 1
            cursor.setPosition(min(at, end))
            cursor.setPosition(min(at + removed, end), QTextCursor.MoveMode.KeepAnchor)
            cursor.insertText(inserted)
            pane.retokenize()  # at once, not after the pause typing waits for
            if wait:
                qtbot.waitUntil(pane.is_ready, timeout=30_000)
        qtbot.waitUntil(pane.is_ready, timeout=30_000)
        _shows_the_full_run(pane, tok)

    edits_then_compare()


def test_an_edit_is_shown_without_a_new_document(qtbot, catalog, show_pane):
    pane = show_pane(TokenizePane(catalog=catalog), 900, 600)
    pane.set_sample_text("明月几时有\n把酒问青天\n")
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    docs = pane.token_view.document(), pane.id_view.document()
    pane.editor.textCursor().insertText("天")
    pane.retokenize()
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    assert (pane.token_view.document(), pane.id_view.document()) == docs
    _shows_the_full_run(pane, _model(next(p for p in BUNDLED if p.stem.startswith("wubi-bpe"))))


def test_a_long_text_and_a_long_paste_reach_the_worker_as_shared_memory(qtbot, catalog, show_pane, monkeypatch):
    # Pickled by the pool's feeder thread, a 10 MB text held the app's GIL 58-67 ms; shared, the worker
    # reads one block.  What the pane shows is still the full run.
    from wubitok.services import shared_text
    from wubitok.services.encode_pool import EncodePool

    monkeypatch.setattr(shared_text, "SHARE_FROM", 5)
    sent: list[type] = []
    call = EncodePool.call
    monkeypatch.setattr(EncodePool, "call", lambda self, fn, *args, **k: (
        sent.extend(type(a.inserted) for a in args if hasattr(a, "inserted")) or call(self, fn, *args, **k)))
    pane = show_pane(TokenizePane(catalog=catalog), 900, 600)
    path = BUNDLED[0]
    pane.set_model(path.stem)
    pane.set_sample_text("明月几时有\n把酒问青天\n")
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    cursor = pane.editor.textCursor()
    cursor.setPosition(3)
    cursor.insertText("不知天上宫阙\n今夕是何年")
    pane.retokenize()
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    assert shared_text.SharedText in sent and sent[-1] is shared_text.SharedText
    _shows_the_full_run(pane, _model(path))
