"""Bounded caches of encoded pieces, oldest entries dropped first.

The engines remember each distinct pre-token's encoding in a plain dict
(insertion ordered, so the first keys are the oldest).  Dropping the oldest
key one at a time on every insertion, ``del cache[next(iter(cache))]``, is
quadratic: a deleted key leaves a dummy slot at the front of the dict's
entry table, which every later ``iter`` walks over until the dict is resized.
At 200,000 entries that costs 85 us per insertion, which made byte-level
BPE in one process encode text without repeats at half the speed it had in
two (each seeing half the pieces).  So when full, the oldest half goes at
once, by rebuilding the dict: amortized constant time per insertion.
"""
from __future__ import annotations

from itertools import islice
from typing import Mapping, TypeVar

K = TypeVar("K")
V = TypeVar("V")


def remember(cache: dict[K, V], new: Mapping[K, V], limit: int) -> None:
    """Add ``new`` to ``cache``; if that would pass ``limit`` entries, first
    drop the oldest until at most half of ``limit`` remain (fewer if ``new``
    needs the room; of ``new`` itself only the last ``limit`` are kept)."""
    if len(cache) + len(new) > limit:
        keep = max(0, min(len(cache), limit // 2, limit - len(new)))
        newest = list(islice(cache.items(), len(cache) - keep, None))
        cache.clear()  # a fresh table, without the dummy slots
        cache.update(newest)
        if len(new) > limit:
            new = dict(islice(new.items(), len(new) - limit, None))
    # A dict, not an islice: update's fast path (a third of the time per
    # call; most calls add one piece, on every cache miss).
    cache.update(new)
