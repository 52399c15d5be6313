"""The backtracking BPE encoder gives exactly what applying merges by rank gives."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.bpe.encoder import BacktrackEncoder, MergeApplier
from wubitok.engines.bpe.trainer import train_merges

ALPHABET = 5  # few symbols: many repeats, overlaps like "a a a", deep merges


def _model(seed: int, num_merges: int = 60):
    rng = random.Random(seed)
    words = [
        (tuple(rng.choice(range(ALPHABET)) for _ in range(rng.randint(1, 12))), rng.randint(1, 9)) for _ in range(80)
    ]
    merges = train_merges(words, first_new_id=ALPHABET, num_merges=num_merges, min_frequency=1)
    return merges


def _encoders(merges, alphabet: int = ALPHABET) -> tuple[MergeApplier, BacktrackEncoder]:
    """The plain rank-order merger (the oracle) and the encoder under test."""
    return MergeApplier(merges, alphabet, cache_size=0), BacktrackEncoder(merges, alphabet, range(alphabet))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), seqs=st.lists(st.lists(st.integers(0, ALPHABET - 1), max_size=40), max_size=20))
def test_same_tokens_as_rank_order_merging(seed, seqs):
    merges = _model(seed)
    oracle, fast = _encoders(merges)
    for seq in seqs:
        assert fast.encode(seq) == oracle.apply(seq)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_usable_tokens_are_exactly_those_bpe_can_produce(seed):
    merges = _model(seed)
    oracle, fast = _encoders(merges)
    for i in range(len(merges)):
        t = ALPHABET + i
        assert fast.usable[t] == (oracle.apply(fast._symbols_of(t)) == [t])


def test_repeated_symbol_runs():
    # "a a" -> X, "X a" -> Y: runs of one symbol stress the left-first tie rule.
    merges = [(0, 0), (2, 0), (2, 2), (0, 1)]
    oracle, fast = _encoders(merges, 2)
    for n in range(1, 12):
        for tail in ([], [1], [0, 1]):
            seq = [0] * n + tail
            assert fast.encode(seq) == oracle.apply(seq)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), seqs=st.lists(st.lists(st.integers(0, ALPHABET - 1), max_size=40), max_size=20))
def test_many_sequences_at_once_as_one_by_one(seed, seqs):
    # encode_many works on all sequences together (one greedy pass, pair
    # checks over all tokens); empty sequences and pairs across sequences
    # must not disturb it
    merges = _model(seed)
    oracle, fast = _encoders(merges)
    symbols = "".join("".join(map(chr, s)) for s in seqs)
    bounds = [0]
    for s in seqs:
        bounds.append(bounds[-1] + len(s))
    assert [list(t) for t in fast.encode_many(symbols, bounds)] == [oracle.apply(s) for s in seqs]


def test_tokens_too_deep_for_a_pattern_still_encode():
    # (0,0)->2, (2,2)->3, ...: a run of 1024 zeros is one token, deeper than
    # the greedy pattern may nest, so the encoder walks a trie instead
    merges = [(0, 0)] + [(i, i) for i in range(2, 11)] + [(0, 1), (1, 0)]
    oracle, fast = _encoders(merges, 2)
    rng = random.Random(7)
    seqs = [[0] * 1024, [0] * 1500 + [1], [1] + [0] * 700] + [
        [rng.choice((0, 0, 0, 1)) for _ in range(rng.randint(0, 300))] for _ in range(30)
    ]
    for seq in seqs:
        assert fast.encode(seq) == oracle.apply(seq)
    symbols = "".join("".join(map(chr, s)) for s in seqs)
    bounds = [0]
    for s in seqs:
        bounds.append(bounds[-1] + len(s))
    assert [list(t) for t in fast.encode_many(symbols, bounds)] == [oracle.apply(s) for s in seqs]


def test_symbol_that_is_no_token_is_an_error():
    fast = BacktrackEncoder([(0, 1)], 3, range(2))  # symbol 2 is not a base symbol
    with pytest.raises(ValueError, match="symbol 2"):
        fast.encode([0, 1, 2, 0])
    with pytest.raises(ValueError, match="symbol 2"):
        fast.encode_many("\x00\x01\x00\x02", [0, 2, 4])
