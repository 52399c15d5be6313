"""Unigram language-model training, as SentencePiece's trainer does it.

The steps of ``unigram_model_trainer.cc``, on distinct script runs with
their counts (``pre_tokenizers.metaspace``):

1. Seeds: every character, plus every substring of 2 to 16 characters that
   occurs at least twice (``min_frequency`` if higher) and is right-maximal
   (its occurrences are not all followed by characters with the same first
   UTF-8 byte: those are the internal nodes of SentencePiece's suffix array,
   which it builds over UTF-8 bytes), scored ``count * length``;
   the best ``seed_size`` of them.  Found level by level (a substring can be
   frequent only if it is one character more than a frequent one), not with
   a suffix array.
2. EM: the E-step sums, over every run, the expected count of each piece
   under the current unigram model (forward-backward over the run's lattice
   of all vocabulary pieces it contains); the M-step drops pieces expected
   less than 0.5 times and sets ``score = digamma(count) - digamma(total)``
   (the Bayesian "DP" EM that acts as a sparse prior).  Two sub-iterations.
3. Prune: each piece's loss is how much the corpus likelihood falls if its
   Viterbi occurrences are re-segmented by its best split (its second-best
   segmentation); keep the best ``max(1.1 * vocab_size, 0.75 * size)``.
   A piece whose own best segmentation is a split is dropped outright.
4. Repeat 2-3 until at most ``1.1 * vocab_size`` pieces remain (as
   sentencepiece 0.2 does, a prune that gets there ends training), then keep
   every character (scored the minimum if it was pruned) and the best-scored
   pieces up to the vocabulary budget.

A character missing from the model is an "unknown" node scored the minimum
score minus 10, as in SentencePiece's lattice.

Speed: all runs' lattices live in flat typed arrays (edges in start order,
runs one after another in one position space), so a forward or backward
pass is one tight loop over all edges.  Forward-backward
runs in probability space, every piece's probability multiplied by
``exp(lam * length)``: every path through a run gets the same factor, so
expected counts are unchanged, and ``lam`` (about minus the corpus'
log-likelihood per character) keeps the numbers far from under- or
overflow; a run where they are not (none in practice) is redone in log space.
"""
from __future__ import annotations

import math
import threading
from array import array
from collections import Counter
from itertools import accumulate, chain, compress, islice
from operator import sub
from typing import Mapping

from ...errors import InputError
from ...progress import check_cancel
from ..base import NO_TEXT, ProgressCallback
from ..pre_tokenizers.metaspace import END

MAX_PIECE_LENGTH = 16
SEED_SIZE = 1_000_000
SHRINKING_FACTOR = 0.75
SUB_ITERATIONS = 2
EXPECTED_FREQUENCY_THRESHOLD = 0.5
UNK_PENALTY = 10.0
MIN_SCORE_PENALTY_DELTA = 0.0001
# Edges per slice of the big loops, between two cancel checks.
_SLICE = 1 << 20
# Corpus characters per part of the seed search (see seed_pieces).
_PART_CHARS = 4_000_000


def digamma(x: float) -> float:
    """SentencePiece's digamma: recurrence up to 7, then the asymptotic series."""
    result = 0.0
    while x < 7:
        result -= 1 / x
        x += 1
    x -= 1.0 / 2.0
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    result += (
        math.log(x)
        + (1.0 / 24.0) * xx2
        - (7.0 / 960.0) * xx4
        + (31.0 / 8064.0) * xx4 * xx2
        - (127.0 / 30720.0) * xx4 * xx4
    )
    return result


def seed_pieces(
    followed_runs: Mapping[str, int],
    *,
    max_length: int = MAX_PIECE_LENGTH,
    min_count: int = 2,
    seed_size: int = SEED_SIZE,
    cancel: threading.Event | None = None,
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """``(chars, substrings)``: every character with its count, sorted by
    count (then character); the best right-maximal frequent substrings with
    their scores (count * length), sorted by score (then string).

    ``followed_runs`` keys are runs with the symbol that follows them in the
    text appended (see ``pre_tokenizers.metaspace.count_runs``): a substring that
    ends a run is right-maximal only if those followers differ."""
    chars: dict[str, int] = {}
    groups: dict[int, list[str]] = {}
    for key, c in followed_runs.items():
        for ch in key[:-1]:
            chars[ch] = chars.get(ch, 0) + c
        if len(key) > 2:
            groups.setdefault(c, []).append(key)
    # Keys with equal counts share one text (joined by "\n", which no key
    # holds), so counting is a few C-level Counter calls per level; `inside`
    # marks the positions that are inside a run (not a follower or "\n").
    texts: dict[int, str] = {}
    inside: dict[int, bytes] = {}
    for c, keys in sorted(groups.items()):
        keys.sort()
        texts[c] = "\n".join(keys)
        inside[c] = b"".join(b"\x01" * (len(k) - 1) + b"\x00\x00" for k in keys)
    # The work splits by a substring's first character: every count and
    # right-maximality test of a substring involves only substrings with the
    # same first character.  Big corpora go in several parts, which bounds
    # the memory of the count tables; the result is the same.
    positions: Counter = Counter()
    for text in texts.values():
        positions.update(text)
    sizes = sorted(((positions[ch], ch) for ch, n in chars.items() if n >= min_count), key=lambda x: (-x[0], x[1]))
    parts = max(1, -(-sum(n for n, _ in sizes) // _PART_CHARS))
    load = [0] * parts
    part_of: dict[str, int] = {}
    for n, ch in sizes:
        k = load.index(min(load))
        part_of[ch] = k
        load[k] += n
    found: list[tuple[str, int]] = []
    for k in range(parts):
        alive: dict[int, array] = {}
        for c, text in texts.items():
            alive[c] = array("i", (i for i, ch in enumerate(text) if inside[c][i] and part_of.get(ch) == k))
        prev = {ch: n for ch, n in chars.items() if part_of.get(ch) == k}
        _grow(texts, inside, alive, prev, found, max_length, min_count, seed_size, cancel)
    found.sort(key=lambda x: (-x[1], x[0]))
    del found[seed_size:]
    char_list = sorted(chars.items(), key=lambda x: (-x[1], x[0]))
    return char_list, found


def _grow(texts: dict[int, str], inside: dict[int, bytes], alive: dict[int, array], prev: dict[str, int],
          found: list[tuple[str, int]], max_length: int, min_count: int, seed_size: int,
          cancel: threading.Event | None) -> None:
    """Extend ``found`` with the right-maximal frequent substrings that grow,
    one character at a time, from the frequent ``prev`` (at ``alive``)."""
    for length in range(2, max_length + 2):
        # Every frequent (length-1)-gram with the symbol after it: these
        # counts give both the next frequent grams and right-maximality.
        total: Counter = Counter()
        for c, text in texts.items():
            a = alive[c]
            for lo in range(0, len(a), _SLICE):
                check_cancel(cancel)
                subs = [text[i:i + length] for i in a[lo:lo + _SLICE]]
                if c == 1:
                    total.update(subs)
                else:
                    for t, n in Counter(subs).items():
                        total[t] += n * c
        if length > 2:
            # Not right-maximal: every occurrence is followed by a character
            # with the same first UTF-8 byte (SentencePiece builds its suffix
            # array over UTF-8 bytes, so it only sees a branch there).  Line
            # ends are all different (sentences end in distinct sentinels).
            lead: dict[str, int] = {}
            for t in total:
                s, last = t[:-1], t[-1]
                b = -1 if last == END else _lead_byte(last)
                if lead.setdefault(s, b) != b:
                    lead[s] = -1
            found.extend((s, n * (length - 1)) for s, n in prev.items() if lead[s] == -1)
            del lead
            if len(found) > 2 * seed_size:
                found.sort(key=lambda x: (-x[1], x[0]))
                del found[seed_size:]
        if length > max_length:
            return
        frequent: dict[str, int] = {}
        for c, text in texts.items():
            check_cancel(cancel)
            kept = array("i")
            ins = inside[c]
            for i in alive[c]:
                if ins[i + length - 1]:  # the gram ends inside its run
                    t = text[i:i + length]
                    n = total[t]
                    if n >= min_count:
                        kept.append(i)
                        frequent[t] = n
            alive[c] = kept
        del total
        if not frequent:
            return
        prev = frequent


def _lead_byte(ch: str) -> int:
    cp = ord(ch)
    if cp < 0x80:
        return cp
    if cp < 0x800:
        return 0xC0 | cp >> 6
    if cp < 0x10000:
        return 0xE0 | cp >> 12
    return 0xF0 | cp >> 18


class _Lattices:
    """Every run's lattice as flat typed arrays of edges, in start order.

    An edge is stored in 6 bytes: how far its start is from the previous
    edge's start (0, 1, or 2 across the gap between runs: every position
    starts at least its character's edge), its length and its piece.  Starts
    are rebuilt slice by slice with ``accumulate`` at C speed.
    """

    def __init__(self, runs: list[tuple[str, int]], index: Mapping[str, int], max_length: int,
                 cancel: threading.Event | None):
        prefixes = set()
        for p in index:
            for k in range(1, len(p)):
                prefixes.add(p[:k])
        D, L, P = array("B"), array("B"), array("i")
        starts, ends, counts, lengths, first_edge = [], [], [], [], array("i")
        pos = last = 0
        get = index.get
        for n_run, (run, c) in enumerate(runs):
            if n_run % 4096 == 0:
                check_cancel(cancel)
            n = len(run)
            first_edge.append(len(P))
            for i in range(n):
                stop = min(n, i + max_length)
                for j in range(i + 1, stop + 1):
                    piece = run[i:j]
                    piece_id = get(piece)
                    if piece_id is not None:
                        D.append(pos + i - last)
                        last = pos + i
                        L.append(j - i)
                        P.append(piece_id)
                    if piece not in prefixes:
                        break
            starts.append(pos)
            ends.append(pos + n)
            counts.append(c)
            lengths.append(n)
            pos += n + 1
        first_edge.append(len(P))
        self.D, self.L, self.P, self.first_edge = D, L, P, first_edge
        self.starts, self.ends, self.counts, self.lengths = starts, ends, counts, lengths
        self.size = pos

    def keep_pieces(self, remap: list[int]) -> None:
        """Drop edges of pieces mapped to -1, renumber the others."""
        table = bytes(1 if r >= 0 else 0 for r in remap)
        flags = bytes(map(table.__getitem__, self.P))
        D, L, P = array("B"), array("B"), array("i")
        last = 0
        for lo, S, Ls, Ps in self._slices():
            f = flags[lo:lo + _SLICE]
            kept = array("i", compress(S, f))
            if kept:
                D.extend(map(sub, kept, chain((last,), kept)))
                last = kept[-1]
            L.extend(compress(Ls, f))
            P.extend(map(remap.__getitem__, compress(Ps, f)))
        first = array("i", [0])
        for a, b in zip(self.first_edge, islice(self.first_edge, 1, None)):
            first.append(first[-1] + sum(flags[a:b]))
        self.D, self.L, self.P, self.first_edge = D, L, P, first

    def _slices(self, backward: bool = False):
        """``(first edge, starts, lengths, pieces)`` of the edges in slices,
        forward or (each slice reversed) backward: bounded copies, and a
        cancel check between slices for the callers."""
        bases = [0]
        for lo in range(0, len(self.P), _SLICE):
            bases.append(bases[-1] + sum(self.D[lo:lo + _SLICE]))
        order = list(enumerate(range(0, len(self.P), _SLICE)))
        for k, lo in (reversed(order) if backward else order):
            S = array("i", islice(accumulate(self.D[lo:lo + _SLICE], initial=bases[k]), 1, None))
            L, P = self.L[lo:lo + _SLICE], self.P[lo:lo + _SLICE]
            yield (lo, S[::-1], L[::-1], P[::-1]) if backward else (lo, S, L, P)

    def expected_counts(self, prob: list[float], lam: float, logp: list[float],
                        cancel: threading.Event | None) -> tuple[list[float], float]:
        """Expected piece counts over all runs, and the corpus log-likelihood.
        ``prob[p]`` is piece p's probability times ``exp(lam * len)``."""
        get_prob = prob.__getitem__
        alpha = array("d", bytes(8 * (self.size + 1)))
        for s in self.starts:
            alpha[s] = 1.0
        for _, S, L, P in self._slices():
            check_cancel(cancel)
            for s, n, q in zip(S, L, map(get_prob, P)):
                alpha[s + n] += alpha[s] * q
        beta = array("d", bytes(8 * (self.size + 1)))
        loglik = 0.0
        redo = []
        for k, end in enumerate(self.ends):
            z = alpha[end]
            if 1e-280 < z < 1e280:
                beta[end] = self.counts[k] / z
                loglik += self.counts[k] * (math.log(z) - lam * self.lengths[k])
            else:
                redo.append(k)
        expected = [0.0] * len(prob)
        for _, S, L, P in self._slices(backward=True):
            check_cancel(cancel)
            for s, n, p in zip(S, L, P):
                t = prob[p] * beta[s + n]
                if t:
                    beta[s] += t
                    expected[p] += alpha[s] * t
        for k in redo:
            loglik += self._log_space_run(k, logp, expected)
        return expected, loglik

    def _run_edges(self, k: int) -> list[tuple[int, int, int]]:
        """Run k's edges as (start, end, piece) inside the run."""
        lo, hi = self.first_edge[k], self.first_edge[k + 1]
        S = accumulate(self.D[lo + 1:hi], initial=0)  # the run's first edge starts at 0
        return [(s, s + n, p) for s, n, p in zip(S, self.L[lo:hi], self.P[lo:hi])]

    def _log_space_run(self, k: int, logp: list[float], expected: list[float]) -> float:
        n, c = self.lengths[k], self.counts[k]
        edges = self._run_edges(k)
        ninf = -math.inf
        a = [ninf] * (n + 1)
        a[0] = 0.0
        for s, e, p in edges:
            a[e] = _logaddexp(a[e], a[s] + logp[p])
        b = [ninf] * (n + 1)
        b[n] = 0.0
        for s, e, p in reversed(edges):
            b[s] = _logaddexp(b[s], b[e] + logp[p])
        z = a[n]
        for s, e, p in edges:
            v = a[s] + logp[p] + b[e] - z
            if v > -745:
                expected[p] += c * math.exp(v)
        return c * z

    def viterbi_counts(self, logp: list[float], cancel: threading.Event | None) -> list[float]:
        """How often each piece is in the runs' best segmentations."""
        best = array("d", [-math.inf]) * (self.size + 1)
        for s in self.starts:
            best[s] = 0.0
        back_start = array("i", bytes(4 * (self.size + 1)))
        back_piece = array("i", bytes(4 * (self.size + 1)))
        get_logp = logp.__getitem__
        for _, S, L, P in self._slices():
            check_cancel(cancel)
            for s, n, lq, p in zip(S, L, map(get_logp, P), P):
                e = s + n
                v = best[s] + lq
                if v > best[e]:
                    best[e] = v
                    back_start[e] = s
                    back_piece[e] = p
        freq = [0.0] * len(logp)
        for start, end, c in zip(self.starts, self.ends, self.counts):
            pos = end
            while pos > start:
                freq[back_piece[pos]] += c
                pos = back_start[pos]
        return freq


def _logaddexp(x: float, y: float) -> float:
    if x < y:
        x, y = y, x
    if y == -math.inf:
        return x
    return x + math.log1p(math.exp(y - x))


def _split_without_itself(piece: str, index: Mapping[str, int], logp: list[float]) -> tuple[float, list[int]]:
    """Best segmentation of ``piece`` that does not use ``piece`` itself."""
    n = len(piece)
    ninf = -math.inf
    best = [ninf] * (n + 1)
    best[0] = 0.0
    back: list[tuple[int, int]] = [(0, 0)] * (n + 1)
    get = index.get
    for i in range(n):
        bi = best[i]
        if bi == ninf:
            continue
        for j in range(i + 1, n + 1):
            if i == 0 and j == n:
                continue
            p = get(piece[i:j])
            if p is None:
                continue
            v = bi + logp[p]
            if v > best[j]:
                best[j] = v
                back[j] = (i, p)
    path = []
    pos = n
    while pos > 0:
        i, p = back[pos]
        path.append(p)
        pos = i
    path.reverse()
    return best[n], path


def train_unigram(
    followed_runs: Mapping[str, int],
    *,
    vocab_size: int,
    num_meta: int,
    min_frequency: int = 2,
    max_piece_length: int = MAX_PIECE_LENGTH,
    seed_size: int = SEED_SIZE,
    shrinking_factor: float = SHRINKING_FACTOR,
    num_sub_iterations: int = SUB_ITERATIONS,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> list[tuple[str, float]]:
    """The trained pieces with their log-probability scores, best first
    (ties by piece).  ``vocab_size`` counts ``num_meta`` pieces (specials,
    bytes) that are not trained; the result has at most the rest.
    ``followed_runs`` is ``count_runs``' result; pass it without keeping a
    reference, so that its memory goes once the lattice is built."""
    budget = vocab_size - num_meta
    if budget < 1:
        raise InputError(f"vocab_size {vocab_size} leaves no room for pieces after {num_meta} special and byte tokens")
    desired = int(vocab_size * 1.1)
    if progress is not None:
        progress("seeding", 0, 1)
    chars, subs = seed_pieces(followed_runs, max_length=max_piece_length, min_count=max(2, min_frequency),
                              seed_size=seed_size, cancel=cancel)
    if not chars:
        raise InputError(NO_TEXT, code="training.no_text")
    if progress is not None:
        progress("seeding", 1, 1)

    pieces = [c for c, _ in chars] + [s for s, _ in subs]
    total = sum(n for _, n in chars) + sum(n for _, n in subs)
    log_total = math.log(total)
    scores = [math.log(n) - log_total for _, n in chars] + [math.log(n) - log_total for _, n in subs]
    num_chars = len(chars)  # pieces[:num_chars] are the characters, always in the lattice
    index = {p: i for i, p in enumerate(pieces)}
    present = bytearray(b"\x01") * len(pieces)
    order = list(range(len(pieces)))  # SentencePiece's piece order (matters for ties)
    runs: dict[str, int] = {}
    for key, c in followed_runs.items():
        runs[key[:-1]] = runs.get(key[:-1], 0) + c
    del followed_runs  # the caller hands it over: the lattice is all EM needs
    run_list = sorted(runs.items())
    del runs
    lat = _Lattices(run_list, index, max_piece_length, cancel)
    del run_list
    total_chars = sum(n * c for n, c in zip(lat.lengths, lat.counts))
    # The first lam: minus the mean log-probability per character of the
    # all-characters segmentation.
    lam = -sum(scores[index[ch]] * n for ch, n in chars) / max(1, total_chars)

    def lattice_scores() -> tuple[list[float], list[float]]:
        live = [scores[i] for i in order]
        unk = min(live) - UNK_PENALTY
        logp = [-math.inf] * len(pieces)
        for i in order:
            logp[i] = scores[i]
        for i in range(num_chars):
            if not present[i]:
                logp[i] = unk
        prob = [math.exp(lp + lam * len(p)) if lp > -math.inf else 0.0 for lp, p in zip(logp, pieces)]
        return logp, prob

    rounds_done = 0
    while True:
        for _ in range(num_sub_iterations):
            logp, prob = lattice_scores()
            expected, loglik = lat.expected_counts(prob, lam, logp, cancel)
            lam = -loglik / max(1, total_chars)
            # M-step: digamma-smoothed, pieces expected < 0.5 times dropped.
            kept = [i for i in order if expected[i] >= EXPECTED_FREQUENCY_THRESHOLD]
            if not kept:
                raise InputError("the training text is too small to train a Unigram model")
            psi_total = digamma(sum(expected[i] for i in kept))
            for i in order:
                present[i] = 0
            for i in kept:
                present[i] = 1
                scores[i] = digamma(expected[i]) - psi_total
            order = kept
        rounds_done += 1
        if progress is not None:
            left = (
                max(0, math.ceil(math.log(desired / len(order)) / math.log(shrinking_factor)))
                if len(order) > desired
                else 0
            )
            progress("training", rounds_done, rounds_done + left + (1 if left else 0))
        if len(order) <= desired:
            break
        before = len(order)
        order = _prune(order, pieces, scores, present, num_chars, lat, index, desired,
                       shrinking_factor, lattice_scores, cancel)
        if len(order) <= desired or len(order) >= before:
            # As sentencepiece (0.2) does: a prune that reaches the target
            # size ends training, without another EM round.  A prune that
            # removes nothing means only characters are left (a vocabulary
            # smaller than the alphabet): _finalize keeps the most frequent
            # ones and byte fallback spells the rest.
            break
        # Physically drop the edges of pieces gone for good (characters stay:
        # a missing character is an unknown node).
        keep_idx = sorted(set(order) | set(range(num_chars)))
        remap = [-1] * len(pieces)
        for new, old in enumerate(keep_idx):
            remap[old] = new
        lat.keep_pieces(remap)
        pieces = [pieces[i] for i in keep_idx]
        scores = [scores[i] for i in keep_idx]
        present = bytearray(present[i] for i in keep_idx)
        order = [remap[i] for i in order]
        index = {p: i for i, p in enumerate(pieces)}
    check_cancel(cancel)
    if progress is not None:
        progress("training", rounds_done, rounds_done)
    return _finalize(order, pieces, scores, chars, budget)


def _prune(order, pieces, scores, present, num_chars, lat, index, desired, shrinking_factor,
           lattice_scores, cancel) -> list[int]:
    logp, _ = lattice_scores()
    # How each piece would be re-segmented without it (its second best).
    always_keep = {}
    alternatives: dict[int, list[int]] = {}
    for n, i in enumerate(order):
        if n % 4096 == 0:
            check_cancel(cancel)
        piece = pieces[i]
        if len(piece) == 1:
            always_keep[i] = True  # no second segmentation
            continue
        split_score, split = _split_without_itself(piece, index, logp)
        if logp[i] >= split_score:
            always_keep[i] = True
            alternatives[i] = split
        else:
            always_keep[i] = False  # its own best segmentation is a split
    freq = lat.viterbi_counts(logp, cancel)
    total = sum(freq[i] for i in order)
    vsum = sum(lat.counts)
    logsum = math.log(total)
    kept: list[int] = []
    candidates: list[tuple[float, int]] = []
    for i in order:
        if freq[i] == 0 or not always_keep[i]:
            continue
        alt = alternatives.get(i)
        if not alt:
            kept.append(i)
            continue
        # Likelihood lost if every occurrence of piece i became its split:
        # i's count moves to the pieces of the split.
        f = freq[i]
        logprob_sp = math.log(f) - logsum
        logsum_alt = math.log(total + f * (len(alt) - 1))
        logprob_alt = sum(math.log(freq[n] + f) - logsum_alt for n in alt)
        candidates.append((-(f / vsum) * (logprob_sp - logprob_alt), i))
    pruned_size = max(desired, int(shrinking_factor * len(order)))
    candidates.sort()
    for _, i in candidates:
        if len(kept) >= pruned_size:
            break
        kept.append(i)
    for i in range(num_chars):
        if i not in always_keep or freq[i] == 0:
            present[i] = 0
    return kept


def _finalize(order, pieces, scores, chars, budget) -> list[tuple[str, float]]:
    live = {pieces[i]: scores[i] for i in order}
    min_score = min(live.values())
    final: dict[str, float] = {}
    penalty = 0.0
    for ch, _ in chars:  # by count, most frequent first
        if len(final) >= budget:
            break
        if ch in live:
            final[ch] = live[ch]
        else:
            final[ch] = min_score + penalty
            penalty += MIN_SCORE_PENALTY_DELTA
    for p, s in sorted(live.items(), key=lambda x: (-x[1], x[0])):
        if len(final) >= budget:
            break
        final.setdefault(p, s)
    return sorted(final.items(), key=lambda x: (-x[1], x[0]))
