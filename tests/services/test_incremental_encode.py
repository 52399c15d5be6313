"""Encoding again only the lines an edit touched gives exactly the full run's encoding, for every engine."""
from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.services.incremental_encode import find_edit, reencode
from wubitok.services.model_files import bundled_models_dir, load_model_file

MODELS = sorted(bundled_models_dir().glob("*.json"))
# Text as it is edited: Han, Latin, digits, punctuation, spaces, tabs and line breaks (\r\n too),
# with arbitrary Unicode among them.
PIECES = st.one_of(
    st.sampled_from(["\n", "\r\n", "\n\n", " ", "  ", "\t", "，", "。", "!", "'s", "123", "-",
                     "明月几时有", "把酒问青天", "Wubi", " key", "<unk>", "<s>", "</s>", "[UNK]", "[CLS]", "▁",
                     "\r", "\u2028", "\x85", "é", "e\u0301"]),
    st.text(max_size=4),
)
TEXTS = st.lists(PIECES, max_size=30).map("".join)


@functools.cache
def _model(path):
    return load_model_file(path, "wubitok")


def _same(a, b) -> None:
    assert (a.ids, a.tokens, a.offsets) == (b.ids, b.tokens, b.offsets)
    assert (a.partial or [False] * len(a.ids)) == (b.partial or [False] * len(b.ids))


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.stem)
@settings(max_examples=150, deadline=None)
@given(old=TEXTS, edits=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 6), TEXTS), min_size=1, max_size=3))
def test_reencoding_an_edit_is_the_full_run(path, old, edits):
    tok = _model(path)
    text, enc = old, tok.encode(old)
    for at, removed, inserted in edits:
        at = min(at, len(text))
        new = text[:at] + inserted + text[at + removed:]
        enc = reencode(tok, text, enc, new).encoding
        _same(enc, tok.encode(new))
        text = new


def test_only_the_edited_lines_are_encoded_again():
    tok = _model(next(p for p in MODELS if p.stem.startswith("wubi-bpe")))
    old = "明月几时有\n把酒问青天\n不知天上宫阙\n今夕是何年\n"
    new = old.replace("问青天", "问苍天")
    done = reencode(tok, old, tok.encode(old), new)
    assert new[done.start:done.end] == "把酒问苍天\n"


@given(old=st.text(), new=st.text())
def test_find_edit_leaves_out_what_the_texts_share(old, new):
    edit = find_edit(old, new)
    assert old[:edit.start] + new[edit.start:edit.new_end] + old[edit.old_end:] == new
    assert edit.start <= edit.old_end and edit.start <= edit.new_end


@given(old=st.text(max_size=40), new=st.text(max_size=40))
def test_find_edit_by_chunks_is_the_same(old, new):
    import wubitok.services.incremental_encode as incremental

    whole = incremental.find_edit(old, new)
    chunk, incremental.CHUNK = incremental.CHUNK, 3
    try:
        assert incremental.find_edit(old, new) == whole
    finally:
        incremental.CHUNK = chunk
