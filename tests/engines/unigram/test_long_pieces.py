"""Unigram pieces of any length: found from their first characters, never every prefix stored.

A model with one 100,000-character piece took 4.9 GB to load (every prefix
of every piece was a string in the lookup table).
"""
from __future__ import annotations

import json
import tracemalloc
from contextlib import contextmanager
from typing import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.base import tokenizer_from_dict
from wubitok.engines.unigram import lattice
from wubitok.engines.unigram.lattice import PREFIX_CAP, PieceLattice
from wubitok.engines.unigram.model import Unigram


def test_a_model_with_a_long_piece_loads_in_memory_proportional_to_the_file():
    long = "天地玄黄" * 2_500  # 10,000 characters: 50,000,000 in all its prefixes
    data = Unigram([("天", -2.0), ("地", -2.5), (long, -1.0)]).to_dict()
    text = json.dumps(data)
    tokenizer_from_dict(Unigram([("天", -2.0)]).to_dict())  # the imports are not the model
    tracemalloc.start()
    try:
        model = tokenizer_from_dict(json.loads(text))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10 * len(text.encode("utf-8"))
    enc = model.encode("玄" + long + "天")
    assert enc.tokens[-2:] == [long, "天"]
    assert model.decode(enc.ids) == "玄" + long + "天"


ALPHABET = "ab▁中"
pieces_st = st.dictionaries(st.text(ALPHABET, min_size=1, max_size=2 * PREFIX_CAP + 4),
                            st.floats(-20, -0.1), min_size=1, max_size=30)


@contextmanager
def prefix_cap(value: int) -> Iterator[None]:
    old, lattice.PREFIX_CAP = lattice.PREFIX_CAP, value
    try:
        yield
    finally:
        lattice.PREFIX_CAP = old


@settings(max_examples=150, deadline=None)
@given(pieces=pieces_st, word=st.text(ALPHABET, max_size=3 * PREFIX_CAP))
def test_segmentation_equals_the_lookup_of_every_prefix(pieces, word):
    ids = {p: (i, s) for i, (p, s) in enumerate(sorted(pieces.items()))}
    capped = PieceLattice(ids)
    with prefix_cap(10 * PREFIX_CAP):  # every piece's prefixes stored: the table as it was
        every_prefix = PieceLattice(ids)
    assert capped.viterbi(word) == every_prefix.viterbi(word)
    assert sorted(capped.edges(word, 3), key=repr) == sorted(every_prefix.edges(word, 3), key=repr)


def test_a_piece_of_repeated_characters_still_wins_where_it_fits():
    run = "a" * (PREFIX_CAP + 7)
    model = Unigram([("a", -5.0), (run, -1.0), (run + "a", -1.0)], byte_fallback=True)
    enc = model.encode(run * 2 + "aa")
    assert model.decode(enc.ids) == run * 2 + "aa"
    assert enc.tokens.count(run) + enc.tokens.count(run + "a") == 2
