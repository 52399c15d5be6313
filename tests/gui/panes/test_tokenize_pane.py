"""Tokenize pane and the token span view, with the real bundled models."""
from __future__ import annotations

import pickle

import pytest
import shiboken6
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QFont, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit

from wubitok.engines.base import load_tokenizer
from wubitok.gui.panes.tokenize import TokenizePane
from wubitok.gui.support import errors
from wubitok.gui.widgets.token_view import TokenTextView, make_document, replace_document, wubi_keys
from wubitok.paths import resources_dir
from wubitok.services.model_files import bundled_models_dir
from wubitok.services.tokenized import Spans, build_segments, document_positions

BUNDLED = sorted(bundled_models_dir().glob("*.json"))
SAMPLES = resources_dir() / "samples"
MIXED = "五笔字型，王永民 1983 年发明。\r\nWubi-BPE learns  merges\tover keys! 😀 𠀀\n"


@pytest.fixture(autouse=True)
def app(gui_app):
    """The app as ``wubitok gui`` sets it up: Han font, English, light theme."""
    return gui_app


@pytest.fixture
def pane(catalog, show_pane):
    return show_pane(TokenizePane(catalog=catalog), 900, 600)


def _show(qtbot, pane: TokenizePane, text: str) -> None:
    pane.set_sample_text(text)
    qtbot.waitUntil(pane.is_ready, timeout=30_000)


# -- the span view -------------------------------------------------------------

@st.composite
def text_and_offsets(draw):
    text = draw(st.text(max_size=40))
    n = len(text)
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=12)))
    spans = [(a, b) for a, b in zip([0, *cuts], [*cuts, n])]
    # Some overlapping and some empty spans too, as byte pieces and special tokens give.
    extra = draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)).map(sorted).map(tuple), max_size=4))
    spans = sorted(spans + extra, key=lambda o: o[0])  # in text order, as every engine gives them
    partial = draw(st.lists(st.booleans(), min_size=len(spans), max_size=len(spans)))
    return text, spans, partial


@settings(max_examples=150, deadline=None)
@given(text_and_offsets())
def test_segments_tile_the_text_and_list_every_covering_token(case):
    text, offsets, partial = case
    starts, ends, covering, flags = build_segments(len(text), offsets, partial)
    assert "".join(text[a:b] for a, b in zip(starts, ends)) == text
    assert all(a < b for a, b in zip(starts, ends))
    for a, b, toks, flag in zip(starts, ends, covering, flags):
        expected = tuple(i for i, (s, e) in enumerate(offsets) if s <= a and b <= e and s < e)
        assert sorted(toks) == sorted(expected)
        assert flag == (len(toks) > 1 or any(partial[i] for i in toks))


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("a中\r\n\t \u2028😀𠀀")), max_size=30))
def test_document_positions_match_a_real_text_document(text):
    doc = QTextDocument()
    doc.setPlainText(text)
    pos = document_positions(text) or list(range(len(text) + 1))
    assert pos[-1] == doc.characterCount() - 1
    for i, c in enumerate(text):
        if c in "\r\n\u2028":
            continue  # Qt stores line breaks as its own separator characters
        assert doc.characterAt(pos[i]) == (
            c if c < "\U00010000" else c.encode("utf-16-le")[:2].decode("utf-16-le", "surrogatepass")
        )


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_view_tooltips_name_id_token_characters_and_wubi_keys(qtbot, tokenized, path):
    tok = load_tokenizer(path)
    text = "中文 tokens"
    enc = tok.encode(text)
    view = TokenTextView()
    qtbot.addWidget(view)
    view.set_tokenized(tokenized(text, enc, tok.display_token))
    data = view.tokenized()
    assert "".join(data.segment_texts()) == text
    first = data.token_segments()[0]
    html = view.tooltip_html(first)
    i = data.spans.seg_tokens[first][0]
    assert f"id <b>{enc.ids[i]}</b>" in html
    assert "Wubi <code>khk" in html  # 中 is khk in Wubi-86
    assert wubi_keys("中文") == "khk yygy"


def test_the_segment_under_the_mouse_is_found_past_astral_characters_and_crlf(qtbot, tokenized):
    tok = load_tokenizer(next(p for p in BUNDLED if p.stem.startswith("bpe")))
    text = "😀a\r\n𠀀中文 b"
    view = TokenTextView()
    qtbot.addWidget(view)
    view.resize(400, 200)
    view.show()
    view.set_tokenized(tokenized(text, tok.encode(text), tok.display_token))
    data = view.tokenized()
    from PySide6.QtGui import QTextCursor

    for seg, (start, end) in enumerate(zip(data.spans.seg_start, data.spans.seg_end)):
        if text[start] in "\r\n":
            continue  # a line break has no width to point at
        cur = QTextCursor(view.document())
        cur.setPosition(data.spans.doc_start[seg])
        left = view.cursorRect(cur)
        cur.setPosition(data.spans.doc_start[seg] + 1)
        right = view.cursorRect(cur)
        middle = left.center()
        middle.setX((left.center().x() + right.center().x()) // 2)
        assert view.segment_at(middle) == seg, text[start:end]


def test_replacing_a_document_deletes_ours_once_and_leaves_the_widgets_own_to_it(qtbot):
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    own = edit.document()
    first, second = make_document("第一", QFont()), make_document("second", QFont())
    replace_document(edit, first)
    # The widget deleted its own initial document at once; a deleteLater of ours
    # on it would raise on the dead wrapper.
    assert not shiboken6.isValid(own)
    assert edit.toPlainText() == "第一"
    replace_document(edit, second)
    qtbot.waitUntil(lambda: not shiboken6.isValid(first))
    assert edit.document() is second and edit.toPlainText() == "second"
    qtbot.wait(50)  # the new one survives the event loop's deferred deletes
    assert shiboken6.isValid(second) and edit.toPlainText() == "second"


def test_a_document_the_widget_was_given_elsewhere_is_not_deleted_by_a_replace(qtbot):
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    theirs = QTextDocument()
    edit.setDocument(theirs)
    replace_document(edit, make_document("ours", QFont()))
    qtbot.wait(50)
    assert shiboken6.isValid(theirs) and edit.toPlainText() == "ours"


# -- the pane ------------------------------------------------------------------

def test_bundled_models_are_in_the_chooser_with_wubi_bpe_first_choice(pane, catalog):
    names = [pane.model_box.itemText(i) for i in range(pane.model_box.count())]
    assert names == [e.label() for e in catalog.entries()]
    assert {p.stem for p in BUNDLED} <= {e.name for e in catalog.entries()}
    assert pane.current_entry().name.startswith("wubi-bpe")


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_spans_join_to_the_input_for_each_bundled_model(qtbot, pane, path):
    pane.set_model(path)
    _show(qtbot, pane, MIXED)
    data = pane.token_view.tokenized()
    assert pane.text() == MIXED  # \r\n kept: the text comes from the user, not from the widget
    assert "".join(data.segment_texts()) == MIXED
    expected = load_tokenizer(path).encode(MIXED)
    assert list(data.encoding.ids) == expected.ids
    assert pane.id_view.toPlainText().split() == [str(i) for i in expected.ids]
    assert f"{len(expected.ids):,} tokens" in pane.stats_label.text()
    trained_by = getattr(load_tokenizer(path), "trained_by", None)
    assert trained_by is None or f"trained by {trained_by}" in pane.stats_label.text()
    # The view's own document holds the same text, drawn with one box per segment.
    assert pane.token_view.toPlainText() == MIXED.replace("\r\n", "\n")
    pane.token_view.set_whitespace_visible(True)
    pane.token_view.grab()


def test_partial_character_tokens_are_marked(qtbot, pane):
    byte_bpe = next(p for p in BUNDLED if p.stem.startswith("bpe"))
    pane.set_model(byte_bpe)
    rare = "𠀀"  # a character no small model has whole: it falls apart into byte pieces
    _show(qtbot, pane, rare)
    data = pane.token_view.tokenized()
    assert len(data.encoding.ids) > 1 and all(data.encoding.partial)
    assert list(data.spans.seg_partial) == [True]
    assert "part of a character" in pane.token_view.tooltip_html(0)
    assert "partial-character tokens" in pane.stats_label.text()


def test_typing_retokenizes_after_a_pause(qtbot, pane):
    _show(qtbot, pane, "")
    pane.editor.setFocus()
    qtbot.keyClicks(pane.editor, "abc")
    qtbot.waitUntil(lambda: pane.is_ready() and pane.token_view.tokenized().text == "abc", timeout=30_000)
    assert pane.text() == "abc"


def test_a_corrupt_model_gives_a_dialog_and_keeps_the_text(qtbot, pane, tmp_path):
    _show(qtbot, pane, "保留我的文字")
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "wubitok-tokenizer", "version": 1, "model": "bpe"', encoding="utf-8")
    with qtbot.waitSignal(errors.reporter().shown, timeout=30_000) as blocker:
        pane.open_model(bad)
    title, message = blocker.args
    assert title == "Model problem" and str(bad) in message
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    assert pane.editor.toPlainText() == "保留我的文字"
    errors.reporter().last_dialog.close()


def test_a_missing_model_file_gives_a_dialog(qtbot, pane, tmp_path):
    with qtbot.waitSignal(errors.reporter().shown, timeout=30_000) as blocker:
        pane.open_model(tmp_path / "gone.json")
    assert list(blocker.args) == ["File problem", f"{tmp_path / 'gone.json'}: no such file"]
    errors.reporter().last_dialog.close()


@pytest.fixture(scope="module")
def hf_tokenizer_json(tmp_path_factory):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=600, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    hf.train([str(SAMPLES / "song100.txt")], trainer)
    path = tmp_path_factory.mktemp("hf") / "tokenizer.json"
    hf.save(str(path))
    return path, hf


@pytest.fixture(scope="module")
def spm_model(tmp_path_factory):
    import sentencepiece as spm

    prefix = tmp_path_factory.mktemp("spm") / "poems"
    spm.SentencePieceTrainer.train(input=str(SAMPLES / "song100.txt"), model_prefix=str(prefix), vocab_size=2100,
                                   model_type="unigram", character_coverage=1.0, byte_fallback=True,
                                   minloglevel=2)
    return prefix.with_suffix(".model"), spm.SentencePieceProcessor(model_file=str(prefix.with_suffix(".model")))


def test_a_hugging_face_tokenizer_json_opens_and_shows_its_own_tokens(qtbot, pane, catalog, hf_tokenizer_json):
    path, hf = hf_tokenizer_json
    pane.open_model(path)
    assert pane.current_entry().kind == "hf" and pane.current_entry().source == "opened"
    _show(qtbot, pane, MIXED)
    data = pane.token_view.tokenized()
    assert list(data.encoding.ids) == hf.encode(MIXED, add_special_tokens=False).ids
    assert "".join(data.segment_texts()) == MIXED
    assert any(data.spans.seg_partial)  # byte-level pieces of the rare characters


def test_a_sentencepiece_model_opens_and_shows_its_own_tokens(qtbot, pane, spm_model):
    path, sp = spm_model
    pane.open_model(path)
    assert pane.current_entry().kind == "spm"
    text = "明月几时有，把酒问青天。"
    _show(qtbot, pane, text)
    data = pane.token_view.tokenized()
    assert list(data.encoding.ids) == sp.encode(text)
    assert "".join(data.segment_texts()) == text


def test_a_file_that_is_not_text_gives_a_dialog(qtbot, pane, tmp_path):
    _show(qtbot, pane, "原文")
    bad = tmp_path / "icon.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff")
    with qtbot.waitSignal(errors.reporter().shown, timeout=30_000) as blocker:
        pane.open_text_file(bad)
    assert blocker.args[0] == "File problem" and "not UTF-8" in blocker.args[1]
    assert pane.editor.toPlainText() == "原文"
    errors.reporter().last_dialog.close()


def test_a_text_file_is_loaded_in_the_background_exactly(qtbot, pane, tmp_path):
    text = "第一行\r\n第二行 with CRLF\r\n" * 2000
    f = tmp_path / "crlf.txt"
    f.write_bytes(text.encode("utf-8"))
    pane.open_text_file(f)
    qtbot.waitUntil(lambda: pane.is_ready() and pane.token_view.tokenized().text == text, timeout=60_000)
    assert pane.text() == text
    assert "".join(pane.token_view.tokenized().segment_texts()) == text


def test_a_token_that_is_a_piece_of_a_character_names_no_character(qtbot, tokenized):
    # 蛇's Wubi-BPE spelling jP⓪ is two tokens, j and P⓪; P⓪ alone spells 之, which the
    # table and the tooltips must not show for a piece of 蛇: they name 蛇 and the piece.
    from wubitok.gui.widgets.token_table import TokenTable

    tok = load_tokenizer(bundled_models_dir() / "wubi-bpe-6000.json")
    text = "人蛇之"
    enc = tok.encode(text)
    table = TokenTable()
    qtbot.addWidget(table)
    data = tokenized(text, enc, tok.display_token, tok)
    table.set_tokenized(data)
    tokens = [table.token_model.cell(row, "token") for row in range(len(enc.ids))]
    pieces = [t for t, part in zip(tokens, enc.partial) if part]
    assert pieces == ["蛇 (1 of 2)", "蛇 (2 of 2)"]
    assert tokens[0] == "人" and tokens[-1] == "之"  # whole characters are themselves
    assert enc.ids[2] == enc.ids[-1] and tokens[2] != tokens[-1]  # one token, read in context
    assert "之" not in table.token_model.token_tip(2)


def test_a_result_is_shown_in_steps_and_a_newer_one_replaces_the_rest(qtbot, pane):
    from wubitok.gui.panes.tokenize import tokenize_text

    _show(qtbot, pane, "五笔字型")
    entry, font, id_font = pane.current_entry(), pane.token_view.font(), pane.id_view.font()
    first, second = (tokenize_text(pane.catalog, entry, text, font, id_font, cancel=None)
                     for text in ("五笔字型", "输入法是王永民发明的"))
    pane._show(first)
    assert not pane.is_ready()  # the table and the ids come on later turns
    pane._show(second)  # before the first one's steps ran: they are dropped
    qtbot.waitUntil(pane.is_ready)
    n = len(second.data.encoding.ids)
    assert pane.token_table.token_model.rowCount() == n and len(pane.id_view.toPlainText().split()) == n
    assert pane.token_view.tokenized() is second.data and pane.token_count() == n


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60), st.integers(0, 70))
def test_a_texts_spans_tile_its_shown_start_and_come_through_pickling(text, limit):
    tok = load_tokenizer(next(p for p in BUNDLED if p.stem.startswith("bpe")))
    enc = tok.encode(text)
    spans = pickle.loads(pickle.dumps(Spans.of(text, enc, limit)))
    assert spans.shown_chars == min(len(text), limit)
    shown = text[: spans.shown_chars]
    assert "".join(shown[a:b] for a, b in zip(spans.seg_start, spans.seg_end)) == shown
    pos = document_positions(shown) or range(len(shown) + 1)
    assert list(spans.doc_start) == [pos[a] for a in spans.seg_start]
    assert list(spans.doc_end) == [pos[b] for b in spans.seg_end]
    for seg, toks in enumerate(spans.seg_tokens):
        assert all(enc.offsets[i][0] <= spans.seg_start[seg] < spans.seg_end[seg] <= enc.offsets[i][1] for i in toks)
