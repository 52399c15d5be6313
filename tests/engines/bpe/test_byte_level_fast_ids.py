"""Byte-level BPE's ids from HF tokenizers (the "fast" encoder) equal ours (issue #32).

Corpus encoding takes ids only; with ``tokenizers`` installed they come from
HF's Rust BPE, except for the inputs it cannot take as we do (lone
surrogates, special tokens written in the text where the model reads them,
models whose merges re-create a token string or that use another pattern),
which stay ours.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.base import load_tokenizer
from wubitok.engines.bpe.byte_level import ByteLevelBPE
from wubitok.paths import resources_dir

SAMPLES = resources_dir() / "samples"
LINES = (SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8").splitlines()[:3000]
_PIECES = st.one_of(st.characters(), st.sampled_from(list("你好世界的是一 ，。！abc  \n\t") + ["<s>", "</s>"]))
TEXT = st.lists(_PIECES, max_size=40).map("".join)


@pytest.fixture(scope="module")
def pair():
    fast = load_tokenizer(resources_dir() / "models" / "bpe-6000.json")
    python = load_tokenizer(resources_dir() / "models" / "bpe-6000.json")
    assert fast.use_encoder("fast") == "fast" and python.use_encoder("python") == "python"
    return fast, python


def test_fast_ids_equal_ours_on_the_corpus(pair):
    fast, python = pair
    assert fast.encode_batch_ids(LINES) == python.encode_batch_ids(LINES) == [e.ids for e in python.encode_batch(LINES)]


@settings(max_examples=100, deadline=None)
@given(texts=st.lists(TEXT, max_size=5))
def test_fast_ids_equal_ours_on_any_text(pair, texts):
    fast, python = pair
    assert fast.encode_batch_ids(texts) == python.encode_batch_ids(texts)
    assert fast.ordinary().encode_batch_ids(texts) == python.ordinary().encode_batch_ids(texts)


def test_models_hf_cannot_run_exactly_stay_in_python():
    # A merge that re-creates the string of a token made before: HF keeps one id per string.
    bytes_a = ord("a")
    twice = ByteLevelBPE([(bytes_a, bytes_a), (bytes_a, bytes_a)])
    assert twice.use_encoder("fast") == "python"
    other = ByteLevelBPE([], pattern=r"\w+|\s+|[^\w\s]+")
    assert other.use_encoder("fast") == "python"
    assert other.use_encoder("auto") == "python" and other.encode_batch_ids(["ab cd"]) == [other.encode("ab cd").ids]
