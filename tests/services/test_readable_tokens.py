"""The readable form of tokens (services.readable_tokens) with the bundled models: the text a token
covers, pieces of a character numbered in order, byte pieces in hex that join to the text's UTF-8."""
from __future__ import annotations

import pickle
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.base import load_tokenizer
from wubitok.services.model_files import bundled_models_dir
from wubitok.services.readable_tokens import TokenForms, byte_parts, format_parts, readable_parts, visible

BUNDLED = sorted(p.stem for p in bundled_models_dir().glob("*.json"))
# Common and rare Han, punctuation, Latin, whitespace, an astral character, an emoji.
ALPHABET = "民族你好性五笔，。！ \t\n\u3000abcΩé龘𠀀😀"


@lru_cache(maxsize=None)
def _model(name: str):
    tok = load_tokenizer(bundled_models_dir() / f"{name}.json")
    return tok, TokenForms.of(tok)


@pytest.mark.parametrize("name", BUNDLED)
@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=ALPHABET, max_size=24))
def test_each_token_reads_as_the_text_it_covers(name, text):
    tok, forms = _model(name)
    enc = tok.encode(text)
    for i, tid in enumerate(enc.ids):
        parts = readable_parts(text, enc.ids, enc.offsets, enc.partial, i, forms)
        s, e = enc.offsets[i]
        if tid in forms.special_ids:
            assert parts[0].kind == "special" and parts[0].covers == visible(text[s:e])
        elif not enc.partial[i]:
            assert parts == [type(parts[0])("text", visible(text[s:e]))]
        for p in parts:
            if p.kind == "piece":  # a piece names the character it is part of, never another
                assert p.text in visible(text[s:e]) and 1 <= p.k <= p.n
            if p.kind == "bytes":
                assert forms.byte_piece(tid) is not None
    # The pieces of one character are numbered 1..n in text order.
    for pos, ch in enumerate(text):
        covering = [i for i, (s, e) in enumerate(enc.offsets) if s <= pos < e]
        numbers = []
        for i in covering:
            pieces = [p for p in readable_parts(text, enc.ids, enc.offsets, enc.partial, i, forms) if p.kind == "piece"]
            # a token cut at both ends holds the last piece of its first character and the first of its
            # last: the piece of the character at pos is the first or the last of them (same text or not)
            mine = (pieces[0] if pos == enc.offsets[i][0] else pieces[-1]) if pieces else None
            if mine is not None and mine.text == visible(ch):
                numbers.append(mine.k)
        assert numbers in ([], list(range(1, len(covering) + 1)))


@settings(max_examples=80, deadline=None)
@given(text=st.text(alphabet=ALPHABET, max_size=24))
def test_byte_level_pieces_join_to_the_texts_utf8(text):
    tok, forms = _model("bpe-6000")
    enc = tok.encode(text)
    assert b"".join(forms.byte_piece(t) for t in enc.ids) == text.encode("utf-8")


def test_bytes_show_as_characters_where_whole_and_hex_where_not():
    assert format_parts(byte_parts(" 民".encode()[:2])) == "␣ <E6>"
    assert format_parts(byte_parts("，你".encode())) == "，你"
    assert format_parts(byte_parts("族".encode()[:2])) == "<E6 97>"


def test_forms_cross_processes_and_know_each_engines_pieces():
    for name in BUNDLED:
        tok, forms = _model(name)
        again = pickle.loads(pickle.dumps(forms))
        assert again == forms
        assert [again.spelling(i) for i in range(50)] == [tok.spelling(i) for i in range(50)]
    assert _model("unigram-6000")[1].byte_piece(_model("unigram-6000")[0].token_to_id("<0xE9>")) == b"\xe9"
    assert _model("wordpiece-6000")[1].special_ids == {_model("wordpiece-6000")[0].token_to_id(t)
                                                       for t in _model("wordpiece-6000")[0].special_tokens}
    wubi, forms = _model("wubi-bpe-6000")
    # keys as typed, the index after them as #13 (五 shares its one-key code g)
    assert [forms.spelling(i) for i in wubi.encode("五笔").ids] == ["g#13", "tt#1"]
