"""A line too long to encode whole is cut before a space that ends a word (issue #37, 5):
``engines.corpus.last_space_cut``.  Every engine's ids of the two parts are its ids of the whole,
checked here at every such place of arbitrary mixed text, against a full-text encode."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok import load_tokenizer
from wubitok.engines.bpe.wubi import WubiBPE
from wubitok.engines.corpus import last_space_cut, safe_blocks
from wubitok.paths import resources_dir
from wubitok.scale import stream

MODELS = resources_dir() / "models"
# Spaces of every kind, line breaks, tabs, letters, digits, Han, punctuation, U+2581, a control.
_TEXT = st.text(alphabet=st.sampled_from(list("  \u3000\xa0\t\n\r你好世界天地ab Zé1234。，,.!'s'-\u2581\x01")) |
                st.characters(), max_size=80)


@pytest.fixture(scope="module")
def tokenizers():
    toks = [load_tokenizer(p) for p in sorted(MODELS.glob("*-6000.json"))]
    # Wubi-BPE's other pre-token cut (the bundled one is "joined"), and a model with a spaced special token.
    toks.append(WubiBPE.train("床前明月光，疑是地上霜。 Hello world 123\n" * 20, vocab_size=420,
                            pre_tokens="clause", special_tokens=["<my tok>"]))
    assert len(toks) == 5
    return toks


def _space_cuts(text: str) -> list[int]:
    return [p for p in range(1, len(text)) if text[p] == " " and not text[p - 1].isspace()]


@settings(max_examples=150, deadline=None)
@given(text=_TEXT)
def test_every_engine_splits_no_token_before_a_space_that_ends_a_word(tokenizers, text):
    for tok in tokenizers:
        whole = tok.encode(text).ids
        for p in _space_cuts(text):
            assert tok.encode(text[:p]).ids + tok.encode(text[p:]).ids == whole, (type(tok).__name__, text, p)


def test_last_space_cut_is_the_last_such_place_and_keeps_special_tokens_whole():
    assert last_space_cut("ab  cd e") == 6 and last_space_cut("  x") == 0 and last_space_cut("甲乙") == 0
    assert last_space_cut("a <my tok>b", ["<my tok>"]) == 1  # not inside the special token
    assert list(safe_blocks(["甲 乙丙" * 3], 4, max_chars=6)) == ["甲 乙丙甲", " 乙丙甲", " 乙丙"]


def test_a_long_line_streamed_in_small_blocks_has_the_ids_of_the_whole(tokenizers, monkeypatch):
    """encode --file's blocks (scale.stream) on lines far longer than a block: the same ids."""
    monkeypatch.setattr(stream, "MAX_BLOCK_CHARS", 64)
    line = ("Hello, 世界! 床前明月光 <my tok> 123 don't  stop\u3000ok " * 40).rstrip()
    for tok in tokenizers:
        parts = list(stream.encode_blocks(tok, [line], block_chars=16))
        assert len(parts) > 10
        assert [i for enc in parts for i in enc.ids] == tok.encode(line).ids
        assert [o for enc in parts for o in enc.offsets] == tok.encode(line).offsets
