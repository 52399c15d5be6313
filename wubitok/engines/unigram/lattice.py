"""Segmenting with a trained unigram model: Viterbi, n-best and sampling.

A lattice position is a character offset; an edge is a vocabulary piece that
spells the text between its two positions, scored by the piece's
log-probability.  Where no single-character piece starts, an "unknown" edge
of one character is added, scored the model's minimum score minus 10 (as
SentencePiece does); the engine turns it into byte-fallback pieces.

Ties in Viterbi go to the piece that starts earliest (the longer one): the
first path into a position is kept unless another scores strictly more, with
starts taken left to right, as in SentencePiece's and HF tokenizers' encoders
(their ``EncodeOptimized`` / ``encode_optimized``).
"""
from __future__ import annotations

import math
import random
from typing import Mapping

from ..caches import remember

UNK_PENALTY = 10.0
NINF = -math.inf

# An edge: (start, end, piece id or None for an unknown character, score).
Edge = tuple[int, int, "int | None", float]


# Prefixes of pieces are looked up as strings up to this length (sentencepiece's
# default longest piece); a longer piece is found from its first PREFIX_CAP
# characters, so a piece of n characters costs O(n) memory, not the O(n**2)
# of all its prefixes (a 100,000-character piece took 4.9 GB).
PREFIX_CAP = 16
# Words' best segmentations remembered by viterbi (oldest half dropped when full).
PIECE_CACHE = 100_000
# The "longer" flag of a lookup entry: no longer piece starts so, longer
# pieces or prefixes are in the table, or longer pieces are in ``_long``.
_NO, _MORE, _LONG = 0, 1, 2


class PieceLattice:
    def __init__(self, pieces: Mapping[str, tuple[int, float]]):
        """``pieces``: piece string -> (id, score)."""
        self._cap = cap = PREFIX_CAP
        # One lookup per step of the inner loop: every piece of up to
        # PREFIX_CAP characters and every proper prefix of one, up to that
        # length -> (id or -1, score, how longer pieces start so).
        self._long: dict[str, list[tuple[str, int, float]]] = {}
        for p, (pid, score) in pieces.items():
            if len(p) > cap:
                self._long.setdefault(p[:cap], []).append((p, pid, score))
        prefixes = {p[:k] for p in pieces for k in range(1, min(len(p), cap + 1))}
        self._trie: dict[str, tuple[int, float, int]] = {
            p: (-1, 0.0, _LONG if p in self._long else _MORE) for p in prefixes}
        for p, (pid, score) in pieces.items():
            if len(p) <= cap:
                self._trie[p] = (pid, score, _LONG if p in self._long else _MORE if p in prefixes else _NO)
        scores = [s for _, s in pieces.values()]
        self.unk_score = (min(scores) if scores else 0.0) - UNK_PENALTY
        self._cache: dict[str, tuple[tuple[int | None, int, int], ...]] = {}

    def _long_pieces(self, word: str, i: int) -> list[tuple[int, int, float]]:
        """``(end, id, score)`` of the pieces longer than PREFIX_CAP at ``word[i:]``."""
        return [(i + len(p), pid, score) for p, pid, score in self._long[word[i:i + self._cap]]
                if word.startswith(p, i)]

    def edges(self, word: str, base: int = 0) -> list[Edge]:
        """All edges of ``word``'s lattice, offsets shifted by ``base``."""
        out: list[Edge] = []
        get = self._trie.get
        n = len(word)
        for i in range(n):
            single = False
            for j in range(i + 1, n + 1):
                hit = get(word[i:j])
                if hit is None:
                    break
                pid, score, longer = hit
                if pid >= 0:
                    out.append((base + i, base + j, pid, score))
                    single = single or j == i + 1
                if not longer:
                    break
                if longer == _LONG:
                    out.extend((base + i, base + end, lid, lscore) for end, lid, lscore in self._long_pieces(word, i))
                    break
            if not single:
                out.append((base + i, base + i + 1, None, self.unk_score))
        return out

    def viterbi(self, word: str) -> tuple[tuple[int | None, int, int], ...]:
        """The best segmentation as ``(piece id or None, start, end)``."""
        hit = self._cache.get(word)
        if hit is not None:
            return hit
        n = len(word)
        best = [NINF] * (n + 1)
        best[0] = 0.0
        back_pos = [0] * (n + 1)
        back_id = [-1] * (n + 1)
        get = self._trie.get
        unk = self.unk_score
        for i in range(n):
            bi = best[i]
            single = False
            for j in range(i + 1, n + 1):
                h = get(word[i:j])
                if h is None:
                    break
                pid, score, longer = h
                if pid >= 0:
                    if j == i + 1:
                        single = True
                    v = bi + score
                    if v > best[j]:
                        best[j] = v
                        back_pos[j] = i
                        back_id[j] = pid
                if not longer:
                    break
                if longer == _LONG:
                    for end, lid, lscore in self._long_pieces(word, i):
                        v = bi + lscore
                        if v > best[end]:
                            best[end] = v
                            back_pos[end] = i
                            back_id[end] = lid
                    break
            if not single:
                v = bi + unk
                if v > best[i + 1]:
                    best[i + 1] = v
                    back_pos[i + 1] = i
                    back_id[i + 1] = -1
        path = []
        pos = n
        while pos > 0:
            i, pid = back_pos[pos], back_id[pos]
            path.append((pid if pid >= 0 else None, i, pos))
            pos = i
        path.reverse()
        result = tuple(path)
        remember(self._cache, {word: result}, PIECE_CACHE)
        return result


def nbest_paths(edges: list[Edge], length: int, n: int) -> list[tuple[float, list[Edge]]]:
    """The ``n`` best paths from position 0 to ``length``, best first."""
    into: list[list[Edge]] = [[] for _ in range(length + 1)]
    for e in edges:
        into[e[1]].append(e)
    # best[j]: up to n (score, edge, rank of the path at the edge's start).
    best: list[list[tuple[float, Edge | None, int]]] = [[] for _ in range(length + 1)]
    best[0] = [(0.0, None, 0)]
    for j in range(1, length + 1):
        cands: list[tuple[float, Edge | None, int]] = []
        for e in into[j]:
            for r, (sc, _, _) in enumerate(best[e[0]]):
                cands.append((sc + e[3], e, r))
        cands.sort(key=lambda c: -c[0])  # stable: earlier edges win ties
        best[j] = cands[:n]
    out: list[tuple[float, list[Edge]]] = []
    for sc, edge, r in best[length]:
        path = []
        while edge is not None:
            path.append(edge)
            _, edge, r = best[edge[0]][r]
        path.reverse()
        out.append((sc, path))
    return out


def sample_path(edges: list[Edge], length: int, alpha: float, rng: random.Random) -> list[Edge]:
    """One segmentation drawn with probability proportional to
    ``exp(alpha * score)`` (forward filtering, backward sampling)."""
    into: list[list[Edge]] = [[] for _ in range(length + 1)]
    for e in edges:
        into[e[1]].append(e)
    fwd = [NINF] * (length + 1)
    fwd[0] = 0.0
    for j in range(1, length + 1):
        vals = [fwd[e[0]] + alpha * e[3] for e in into[j]]
        top = max(vals, default=NINF)
        if top > NINF:
            fwd[j] = top + math.log(sum(math.exp(v - top) for v in vals))
    path = []
    pos = length
    while pos > 0:
        cands = into[pos]
        weights = [math.exp(fwd[e[0]] + alpha * e[3] - fwd[pos]) for e in cands]
        e = rng.choices(cands, weights)[0]
        path.append(e)
        pos = e[0]
    path.reverse()
    return path
