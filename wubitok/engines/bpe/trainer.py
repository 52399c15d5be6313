"""The BPE algorithm shared by the byte-level and Wubi-BPE engines.

Symbols are non-negative ints chosen by the caller (bytes, Wubi keys, ...).  Merge
``i`` creates the symbol ``first_new_id + i``; a model is just the ordered
list of merged pairs.

Training is incremental, never a rescan of the corpus per merge:

* every distinct pre-token ("word") is held once, as a list of symbols, with
  its count;
* ``pair -> count`` and ``pair -> indices of the words that contain it`` are
  built once (one dict, so one lookup finds both);
* a merge rewrites, in place, only the words listed for its pair and adjusts
  the counts of the neighbouring pairs it destroys and creates;
* the best pair comes from a heap with lazy invalidation: a popped entry whose
  stored count differs from the live count is pushed back with the live count.
  Counts of existing pairs only ever fall (new pairs always contain the new
  symbol), so a stored count is an upper bound and the first entry popped
  with a current count is the true maximum;
* for the same reason a pair below ``min_frequency`` can never be chosen, so
  it is not tracked at all (most pairs of a big corpus are that rare).

Tie-break, chosen to equal Hugging Face ``tokenizers``' ``BpeTrainer``: the
pair with the highest count wins; among equal counts the pair ``(a, b)`` that
is smaller as a tuple of ids (``a`` first, then ``b``).  HF numbers its base
symbols in its alphabet's code-point order and merged symbols in creation
order, as here; a caller whose base ids are ordered differently relabels
them before training to get HF's merge order (``bpe.byte_level`` and
``bpe.wubi`` do).  One difference remains: when a merge produces a string HF already has (``"a" +
"bc"`` after ``"ab" + "c"``), HF reuses that token's id while this core always
creates a new symbol; the callers decode both the same way.

Pairs are packed into one int ``a << shift | b`` and heap entries into one
int ``pair - (count << 2*shift)``, so the hot loops hash and compare small ints
rather than tuples.
"""
from __future__ import annotations

import heapq
import threading
from collections import Counter, defaultdict
from itertools import repeat
from operator import lshift, or_
from typing import Iterable

from ...progress import check_cancel
from ..base import ProgressCallback


def train_merges(
    words: Iterable[tuple[tuple[int, ...], int]],
    *,
    first_new_id: int,
    num_merges: int,
    min_frequency: int = 2,
    max_token_length: int | None = None,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> list[tuple[int, int]]:
    """Learn up to ``num_merges`` merges from ``(symbols, count)`` pairs.

    ``words`` holds each distinct pre-token once with its corpus count; its
    symbol ids must be below ``first_new_id``.  Merge ``i`` of the result
    creates id ``first_new_id + i``.  Training stops early
    when no pair occurs at least ``min_frequency`` times (and at least once).
    A pair whose token would be longer than ``max_token_length`` symbols is
    never merged (as HF's ``BpeTrainer(max_token_length=...)``: dropped when
    it comes out on top).
    ``progress("merging", done, total)`` is called about every 1% and once at
    the end with ``done == total`` (``total`` shrinks to the merges found when
    training stops early).  A set ``cancel`` event raises ``errors.Cancelled``.
    """
    threshold = max(1, min_frequency)
    seqs: list[list[int]] = []
    counts: list[int] = []
    max_id = first_new_id + max(num_merges, 0)
    # One int object per symbol id, shared by every word: a spelling makes a
    # new int for each id above 256, 28 bytes a symbol, which for millions of
    # distinct words was most of the memory.
    canon: dict[int, int] = {}
    intern = canon.setdefault
    for n, (symbols, count) in enumerate(words):
        if n % 8192 == 0:
            check_cancel(cancel)
        if len(symbols) > 1 and count > 0:
            seqs.append(list(tuple(map(intern, symbols, symbols))))  # via a tuple: a list of exact size
            counts.append(count)
            top = max(symbols)
            if top > max_id:
                max_id = top
    shift = max_id.bit_length()
    low_mask = (1 << shift) - 1
    count_unit = 1 << (2 * shift)
    pair_mask = count_unit - 1

    # pair -> [count, indices of words holding it].  One dict lookup gives
    # both; the index lists may repeat a word or name words that lost the pair
    # (cheaper to skip at merge time than to keep exact).
    stats = _initial_stats(seqs, counts, shift, threshold, cancel)
    heap = [key - st[0] * count_unit for key, st in stats.items()]
    heapq.heapify(heap)

    merges: list[tuple[int, int]] = []
    # symbols in each id: base symbols are one each, a merge adds its parts
    length = [1] * first_new_id
    step = max(1, num_merges // 100)
    heappop, heappush = heapq.heappop, heapq.heappush
    get = stats.get
    while len(merges) < num_merges and heap:
        entry = heappop(heap)
        key = entry & pair_mask
        stored = -(entry >> 2 * shift)
        st = get(key)
        live = 0 if st is None else st[0]
        if live != stored:
            if live >= threshold:
                heappush(heap, key - live * count_unit)
            elif st is not None:
                del stats[key]  # its only heap entry is gone; it can never win
            continue
        # Only pairs at or above the threshold are ever pushed, so this one wins.
        assert st is not None  # live == stored >= threshold >= 1
        check_cancel(cancel)
        a = key >> shift
        b = key & low_mask
        if max_token_length is not None and length[a] + length[b] > max_token_length:
            del stats[key]  # too long now, too long for ever
            continue
        new = first_new_id + len(merges)
        merges.append((a, b))
        length.append(length[a] + length[b])
        new_sh = new << shift
        born: list[int] = []
        del stats[key]
        b_sh = b << shift
        same = a == b
        for wi in set(st[1]):
            seq = seqs[wi]
            n = len(seq)
            # Count the a's first so that the searches below never run off
            # the end (a raised ValueError per word costs more than count()).
            left = seq.count(a)
            i = -1
            while left:
                i = seq.index(a, i + 1)
                left -= 1
                if i + 1 < n and seq[i + 1] == b:
                    break
            else:
                continue  # a stale index entry: the word lost the pair earlier
            c = counts[wi]
            # Rewrite in place, left to right, as HF does: the left neighbour
            # is read after earlier merges in this word (it may be `new`).
            while True:
                seq[i] = new
                del seq[i + 1]
                n -= 1
                if same:
                    left -= 1
                if i:
                    p = seq[i - 1] << shift
                    old = get(p | a)
                    if old is not None:  # None: too rare to track, or (a, a) itself in a run
                        old[0] -= c
                    k2 = p | new
                    e = get(k2)
                    if e is None:
                        stats[k2] = [c, [wi]]
                        born.append(k2)
                    else:
                        e[0] += c
                        e[1].append(wi)
                i += 1
                if i >= n:
                    break
                q = seq[i]
                old = get(b_sh | q)
                if old is not None:
                    old[0] -= c
                k2 = new_sh | q
                e = get(k2)
                if e is None:
                    stats[k2] = [c, [wi]]
                    born.append(k2)
                else:
                    e[0] += c
                    e[1].append(wi)
                while left:
                    i = seq.index(a, i)
                    left -= 1
                    if i + 1 < n and seq[i + 1] == b:
                        break
                    i += 1
                else:
                    break
        for k2 in born:
            c = stats[k2][0]
            if c >= threshold:
                heappush(heap, k2 - c * count_unit)
            else:
                # Too rare now, so too rare for ever: forget it (and its index).
                del stats[k2]
        if progress is not None and len(merges) % step == 0:
            progress("merging", len(merges), num_merges)
    if progress is not None:
        # Stopping early shrinks the total, so the caller always sees 100%.
        done = len(merges)
        progress("merging", done, num_merges if done == num_merges else done)
    return merges


def _initial_stats(seqs: list[list[int]], counts: list[int], shift: int, threshold: int,
                   cancel: threading.Event | None) -> dict[int, list]:
    # Pairs are built and counted with C-level map/Counter calls: one Counter
    # per word count (most words occur once), weighted once at the end.
    by_count: dict[int, Counter] = defaultdict(Counter)
    where: dict[int, list[int]] = defaultdict(list)
    for wi, seq in enumerate(seqs):
        if wi % 8192 == 0:
            check_cancel(cancel)
        keys = list(map(or_, map(lshift, seq, repeat(shift)), seq[1:]))
        by_count[counts[wi]].update(keys)
        for key in set(keys):
            where[key].append(wi)
    check_cancel(cancel)
    totals: dict[int, int] = defaultdict(int)
    for c, pairs in by_count.items():
        for key, n in pairs.items():
            totals[key] += n * c
    return {key: [total, where[key]] for key, total in totals.items() if total >= threshold}
