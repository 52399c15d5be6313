"""WordPiece training by the WordPiece score, incrementally.

Every word starts as its characters, the first as itself and the rest with
the continuation prefix (``"##"``).  Each step merges the adjacent pair
``(a, b)`` with the highest score::

    score(a, b) = count(a b) / (count(a) * count(b))

where counts are occurrences in the corpus under the current segmentation.
The merged token is ``a`` followed by ``b`` without its prefix.  Tokens are
identified by their string, so two merges that spell the same token share it.
Ties: higher score, then higher pair count, then the pair whose tokens come
first in id order (ids follow the alphabet's sorted order, then merges).

Incremental, never a recount of the corpus per merge:

* each distinct word is held once with its count;
* ``pair -> count``, ``pair -> words holding it`` and ``token -> pairs it is
  in`` are built once and adjusted around each merge;
* the best pair comes from a heap of upper bounds, checked when popped.

The heap is the subtle part.  Merging ``(a, b)`` lowers ``count(a)`` and
``count(b)``, so every pair containing ``a`` or ``b`` now scores *higher*,
not just the pairs the merge touched.  Re-pushing all of them after every
merge is exact but slow: a frequent token such as ``##s`` is in thousands of
pairs.  So a token is either

* *eager* (few pairs): all its pairs are re-pushed whenever its count falls;
  their heap keys are exact scores; or
* *lazy* (more than ``LAZY_DEGREE`` pairs): its pairs are re-pushed only when
  its count has fallen by more than a factor ``1 + SLACK`` since the last
  time, and their keys are the score times ``1 + SLACK`` (once per lazy
  token in the pair), which stays an upper bound until then.

Counts of pairs change only in the words a merge rewrites; those pairs are
pushed again at once.  So every live pair's newest heap key is an upper bound
of its true score (exact for eager pairs), and popping in key order until the
top key cannot beat the best true score seen finds the exact best pair.  The
slack costs only a few extra pops near the top, and exact ties between eager
pairs never need popping past, since keys break ties like scores do.
"""
from __future__ import annotations

import heapq
import threading
from collections import defaultdict
from typing import Collection, Mapping

from ...progress import check_cancel
from ..base import ProgressCallback

LAZY_DEGREE = 24
SLACK = 0.125


def initial_alphabet(word_counts: Mapping[str, int], prefix: str, limit: int | None) -> list[str]:
    """Every character that starts a word, and ``prefix + c`` for every one
    that continues a word; the ``limit`` most frequent if there are more.
    Sorted by string."""
    freq: dict[str, int] = defaultdict(int)
    for word, c in word_counts.items():
        freq[word[0]] += c
        for ch in word[1:]:
            freq[prefix + ch] += c
    tokens = list(freq)
    if limit is not None and len(tokens) > limit:
        tokens.sort(key=lambda t: (-freq[t], t))
        tokens = tokens[:max(0, limit)]
    return sorted(tokens)


def train_wordpiece(
    word_counts: Mapping[str, int],
    alphabet: list[str],
    *,
    num_merges: int,
    min_frequency: int = 2,
    prefix: str = "##",
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> list[str]:
    """The tokens made by up to ``num_merges`` merges, in the order made.

    ``alphabet`` gives the base tokens (ids 0..); a character outside it
    splits its word there, since no token can contain it.  Training stops
    early when no pair occurs ``min_frequency`` times (at least once).
    """
    threshold = max(1, min_frequency)
    strings: list[str] = list(alphabet)
    ids: dict[str, int] = {t: i for i, t in enumerate(strings)}
    plen = len(prefix)

    seqs: list[list[int]] = []
    counts: list[int] = []
    freq: list[int] = [0] * len(strings)
    get_id = ids.get
    for n, (word, c) in enumerate(sorted(word_counts.items())):
        if n % 8192 == 0:
            check_cancel(cancel)
        cur: list[int] = []
        for i, ch in enumerate(word):
            t = get_id(ch if i == 0 else prefix + ch)
            if t is None:
                if len(cur) > 1:
                    seqs.append(cur)
                    counts.append(c)
                cur = []
                continue
            freq[t] += c
            cur.append(t)
        if len(cur) > 1:
            seqs.append(cur)
            counts.append(c)

    # A pair is packed into one int: a << SHIFT | b.
    SHIFT = 32
    LOW = (1 << SHIFT) - 1
    pair_count: dict[int, int] = defaultdict(int)
    pair_words: dict[int, set[int]] = defaultdict(set)
    for wi, seq in enumerate(seqs):
        if wi % 8192 == 0:
            check_cancel(cancel)
        c = counts[wi]
        for x, y in zip(seq, seq[1:]):
            key = x << SHIFT | y
            pair_count[key] += c
            pair_words[key].add(wi)
    pair_count = dict(pair_count)
    # token -> its pairs that occur at least `threshold` times (others
    # cannot be merged until a rewrite raises their count, and then they
    # are pushed anyway).
    tok_pairs: dict[int, set[int]] = defaultdict(set)
    for key, c in pair_count.items():
        if c >= threshold:
            tok_pairs[key >> SHIFT].add(key)
            tok_pairs[key & LOW].add(key)

    up = 1.0 + SLACK
    lazy: dict[int, int] = {}  # lazy token -> its count when its pairs were last pushed
    for t, pairs in tok_pairs.items():
        if len(pairs) > LAZY_DEGREE:
            lazy[t] = freq[t]
    heap: list[tuple[float, int, int]] = []
    newest: dict[int, tuple[float, int, int]] = {}  # pair -> its newest heap entry
    heappush, heappop = heapq.heappush, heapq.heappop

    def entry(key: int) -> tuple[float, int, int]:
        a, b = key >> SHIFT, key & LOW
        cnt = pair_count[key]
        bound = cnt / (freq[a] * freq[b])
        if a in lazy:
            bound *= up
        if b in lazy:
            bound *= up
        e = (-bound, -cnt, key)
        newest[key] = e
        return e

    for key, c in pair_count.items():
        if c >= threshold:
            heap.append(entry(key))
    heapq.heapify(heap)

    made: list[str] = []
    step = max(1, num_merges // 100)
    while len(made) < num_merges:
        # Pop until no key left can beat the best true score seen; the
        # runners-up go back with fresh keys.
        best: tuple[float, int, int] | None = None
        runners: list[int] = []
        while heap:
            top = heap[0]
            if best is not None and top >= best:
                break
            heappop(heap)
            key = top[2]
            if newest.get(key) is not top:
                continue  # superseded by a newer entry, or the pair is gone
            del newest[key]
            cnt = pair_count[key]
            live = (-cnt / (freq[key >> SHIFT] * freq[key & LOW]), -cnt, key)
            if best is None or live < best:
                if best is not None:
                    runners.append(best[2])
                best = live
            else:
                runners.append(key)
        for key in runners:
            heappush(heap, entry(key))
        if best is None:
            break
        check_cancel(cancel)

        key = best[2]
        a, b = key >> SHIFT, key & LOW
        sb = strings[b]
        new_str = strings[a] + (sb[plen:] if sb.startswith(prefix) else sb)
        m = ids.get(new_str)
        if m is None:
            m = len(strings)
            ids[new_str] = m
            strings.append(new_str)
            freq.append(0)
            made.append(new_str)
        # else: reached again by another route ("a" + "##bc" after "ab" +
        # "##c"): the same token, merged into, but no new vocabulary entry.

        delta: dict[int, int] = defaultdict(int)
        for wi in pair_words.pop(key, ()):
            seq = seqs[wi]
            n = len(seq)
            out: list[int] = []
            i = 0
            while i < n:
                if i + 1 < n and seq[i] == a and seq[i + 1] == b:
                    out.append(m)
                    i += 2
                else:
                    out.append(seq[i])
                    i += 1
            if len(out) == n:
                continue  # the word lost this pair to an earlier merge
            c = counts[wi]
            for x, y in zip(seq, seq[1:]):
                delta[x << SHIFT | y] -= c
            for x, y in zip(out, out[1:]):
                k2 = x << SHIFT | y
                delta[k2] += c
                pair_words[k2].add(wi)
            merged = (n - len(out)) * c
            freq[a] -= merged
            freq[b] -= merged
            freq[m] += merged
            seqs[wi] = out

        if m in lazy and freq[m] > lazy[m]:
            # A token made again by another route grew: keep lazy[m] the
            # highest count its pairs may have been pushed with.
            lazy[m] = freq[m]
        touched: set[int] = set()
        for k2, d in delta.items():
            if d == 0:
                continue
            now = pair_count.get(k2, 0) + d
            x, y = k2 >> SHIFT, k2 & LOW
            if now >= threshold:
                pair_count[k2] = now
                tok_pairs[x].add(k2)
                tok_pairs[y].add(k2)
                touched.add(k2)
                continue
            if now > 0:
                pair_count[k2] = now
            else:
                pair_count.pop(k2, None)
                pair_words.pop(k2, None)
            newest.pop(k2, None)
            tok_pairs[x].discard(k2)
            tok_pairs[y].discard(k2)
        # count(a) and count(b) fell, so their pairs score higher now.
        for t in ((a, b) if a != b else (a,)):
            if freq[t] <= 0:
                tok_pairs.pop(t, None)
                lazy.pop(t, None)
                continue
            linked: Collection[int] = tok_pairs.get(t, ())
            if t in lazy:
                if lazy[t] <= freq[t] * up:
                    continue
            elif len(linked) <= LAZY_DEGREE:
                touched.update(linked)
                continue
            lazy[t] = freq[t]
            touched.update(linked)
        for k2 in touched:
            heappush(heap, entry(k2))
        if progress is not None and len(made) % step == 0:
            progress("merging", len(made), num_merges)
    if progress is not None:
        done = len(made)
        progress("merging", done, num_merges if done == num_merges else done)
    return made
