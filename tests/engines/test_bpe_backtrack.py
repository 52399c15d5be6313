"""The backtracking BPE encoder gives exactly what applying merges by rank gives."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.bpe_backtrack import BacktrackEncoder
from wubitok.engines.bpe_core import MergeApplier, train_merges

ALPHABET = 5  # few symbols: many repeats, overlaps like "a a a", deep merges


def _model(seed: int, num_merges: int = 60):
    rng = random.Random(seed)
    words = [(tuple(rng.choice(range(ALPHABET)) for _ in range(rng.randint(1, 12))), rng.randint(1, 9)) for _ in range(80)]
    merges = train_merges(words, first_new_id=ALPHABET, num_merges=num_merges, min_frequency=1)
    return merges


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), seqs=st.lists(st.lists(st.integers(0, ALPHABET - 1), max_size=40), max_size=20))
def test_same_tokens_as_rank_order_merging(seed, seqs):
    merges = _model(seed)
    oracle = MergeApplier(merges, ALPHABET, cache_size=0)
    fast = BacktrackEncoder(merges, ALPHABET, range(ALPHABET))
    for seq in seqs:
        assert fast.encode(seq) == oracle.apply(seq)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_usable_tokens_are_exactly_those_bpe_can_produce(seed):
    merges = _model(seed)
    oracle = MergeApplier(merges, ALPHABET, cache_size=0)
    fast = BacktrackEncoder(merges, ALPHABET, range(ALPHABET))
    for i in range(len(merges)):
        t = ALPHABET + i
        assert fast.usable[t] == (oracle.apply(fast._symbols_of(t)) == [t])


def test_repeated_symbol_runs():
    # "a a" -> X, "X a" -> Y: runs of one symbol stress the left-first tie rule.
    merges = [(0, 0), (2, 0), (2, 2), (0, 1)]
    oracle = MergeApplier(merges, 2, cache_size=0)
    fast = BacktrackEncoder(merges, 2, range(2))
    for n in range(1, 12):
        for tail in ([], [1], [0, 1]):
            seq = [0] * n + tail
            assert fast.encode(seq) == oracle.apply(seq)
