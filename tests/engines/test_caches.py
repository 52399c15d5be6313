"""The bounded piece caches: oldest entries go first, the bound holds, and
the engines encode the same with a cache that keeps being trimmed."""
from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.base import load_tokenizer
from wubitok.engines.caches import remember
from wubitok.paths import resources_dir


@lru_cache(maxsize=None)
def model(name: str, copy: int):
    return load_tokenizer(resources_dir() / "models" / f"{name}-6000.json")


def test_remember_drops_the_oldest_half_when_full():
    cache = {i: i for i in range(10)}
    remember(cache, {10: 10}, 10)
    assert list(cache) == [5, 6, 7, 8, 9, 10]  # the newest five, then the new key
    remember(cache, {11: 11}, 10)
    assert list(cache) == [5, 6, 7, 8, 9, 10, 11]  # room left: nothing dropped


def test_remember_keeps_only_the_newest_of_a_batch_bigger_than_the_bound():
    cache = {"a": 0}
    remember(cache, {i: i for i in range(25)}, 10)
    assert list(cache) == list(range(15, 25))


@given(st.lists(st.integers(0, 50), max_size=200), st.integers(1, 20))
def test_remember_never_passes_the_bound_and_keeps_the_newest(keys, limit):
    cache: dict[int, int] = {}
    for k in keys:
        remember(cache, {k: k}, limit)
        assert len(cache) <= limit and k in cache


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=30))
def test_engines_encode_the_same_through_a_cache_trimmed_on_every_few_pieces(texts):
    import wubitok.engines.bpe.byte_level as byte_level
    import wubitok.engines.bpe.wubi as wubi
    import wubitok.engines.unigram.lattice as lattice
    import wubitok.engines.wordpiece.model as wordpiece

    engines = (  # module holding the bound, its name, the model, where the cache is
        (byte_level, "_PIECE_CACHE", "bpe", lambda tok: tok._piece_cache),
        (wubi, "CACHE_SIZE", "wubi-bpe", lambda tok: tok._cache),
        (wordpiece, "PIECE_CACHE", "wordpiece", lambda tok: tok._cache),
        (lattice, "PIECE_CACHE", "unigram", lambda tok: tok._lattice._cache),
    )
    for module, limit_name, name, cache_of in engines:
        expected = [model(name, 0).encode(t) for t in texts]
        small = model(name, 1)  # another instance: its own cache
        if name == "wubi-bpe":
            small.use_encoder("python")  # the fast (Rust) encoder, when installed, has no piece cache
        if name == "wordpiece":
            small._pre._cache_size = 3  # the BERT pre-tokenizer's segment cache too
        saved = getattr(module, limit_name)
        setattr(module, limit_name, 3)
        try:
            got = [small.encode(t) for t in texts]
        finally:
            setattr(module, limit_name, saved)
        assert got == expected
        assert 0 < len(cache_of(small)) <= 3  # used, and trimmed
        if name == "wordpiece":
            assert 0 < len(small._pre._segments) <= 3


def test_a_full_piece_cache_keeps_its_newest_entries(monkeypatch):
    import wubitok.engines.unigram.lattice as lattice
    import wubitok.engines.wordpiece.model as wordpiece

    monkeypatch.setattr(wordpiece, "PIECE_CACHE", 4)
    monkeypatch.setattr(lattice, "PIECE_CACHE", 4)
    words = ["alpha", "beta", "gamma", "delta", "epsilon"]
    for name, cache_of in (("wordpiece", lambda tok: tok._cache), ("unigram", lambda tok: tok._lattice._cache)):
        tok = model(name, 2)
        for word in words:
            tok.encode(word)
        assert list(cache_of(tok)) == ["gamma", "delta", "epsilon"]  # the newest half, then the new word
