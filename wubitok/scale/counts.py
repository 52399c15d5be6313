"""Pre-token counts as data: merging, a bounded table, a TSV file, a line sample.

Counting is a pure map step (text -> counts) and merging is adding
(``engines.corpus.merge_counts``), so
counts made anywhere — worker processes, a Dask cluster, Spark, Ray — add up
to the counts of the whole corpus, and training from them gives the model
that training on the text gives.

The TSV format is ``word<TAB>count`` per line, what sentencepiece's
``input_format=tsv`` reads.  A pre-token may hold a tab, a line break or a
backslash (whitespace pre-tokens do), so those are written ``\\t``, ``\\n``,
``\\r`` and ``\\\\``; lines are sorted by count (highest first), then word.
"""
from __future__ import annotations

import os
import random
from collections import Counter
from typing import Iterable, Iterator, Mapping

from ..errors import FileError, InputError
from ..fileio import atomic_write_bytes

_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}


class BoundedCounts:
    """A count table that keeps at most ``max_words`` words by pruning (lossy counting).

    Parts are added in a fixed order (range order, whatever the number of
    workers), and when the table grows past ``max_words`` the words of the
    lowest counts are dropped until at most ``max_words // 2`` remain (ties:
    all words of the cut-off count go).  A dropped word that comes again
    starts again from 0.

    What is approximate, exactly: let ``max_undercount`` be the sum of the
    cut-off counts of all prunes.  Every kept count is at most
    ``max_undercount`` below the word's true count (never above it), and
    every word that occurs more than ``max_undercount`` times is kept.  So
    the frequent pre-tokens, which make the merges, are counted nearly
    exactly; the rare ones are missing.  A model trained from a pruned table
    is not the one the whole text gives, but it is the same for any number of
    workers or partitions.  ``max_words=None`` never prunes (exact counts).
    """

    def __init__(self, max_words: int | None = None):
        if max_words is not None and (isinstance(max_words, bool) or not isinstance(max_words, int)
                                      or max_words < 2):
            raise InputError(f"max_words must be an integer >= 2, not {max_words!r}")
        self.max_words = max_words
        self.counts: Counter = Counter()
        self.pruned_words = 0  # words dropped, summed over prunes (a word dropped twice counts twice)
        self.max_undercount = 0

    def add(self, part: Mapping[str, int]) -> None:
        self.counts.update(part)
        if self.max_words is not None and len(self.counts) > self.max_words:
            self._prune(self.max_words // 2)

    def _prune(self, keep: int) -> None:
        by_count = Counter(self.counts.values())
        remaining = len(self.counts)
        cutoff = 0
        for count in sorted(by_count):
            if remaining <= keep:
                break
            remaining -= by_count[count]
            cutoff = count
        # In place: a pruned copy would hold the table twice at its biggest.
        counts = self.counts
        rare = [w for w, c in counts.items() if c <= cutoff]
        for word in rare:
            del counts[word]
        self.pruned_words += len(rare)
        self.max_undercount += cutoff


def _escape(word: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in word) if any(ch in _ESCAPES for ch in word) else word


def _unescape(field: str, where: str) -> str:
    if "\\" not in field:
        return field
    out = []
    chars = iter(field)
    for ch in chars:
        if ch == "\\":
            nxt = next(chars, "")
            if nxt not in _UNESCAPES:
                raise FileError(f"{where}: unknown escape \\{nxt}")
            out.append(_UNESCAPES[nxt])
        else:
            out.append(ch)
    return "".join(out)


def counts_tsv(counts: Mapping[str, int]) -> Iterator[str]:
    """The lines of the TSV file, sorted by count (highest first), then word."""
    for word, count in sorted(counts.items(), key=lambda wc: (-wc[1], wc[0])):
        yield f"{_escape(word)}\t{count}\n"


def write_counts_tsv(counts: Mapping[str, int], path: str | os.PathLike) -> None:
    atomic_write_bytes(path, "".join(counts_tsv(counts)).encode("utf-8", "surrogatepass"))


def read_counts_tsv(paths: Iterable[str | os.PathLike] | str | os.PathLike) -> Counter:
    """Counts from one or more TSV files (added up), with one clear error per bad line."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    counts: Counter = Counter()
    for path in paths:
        for n, body in enumerate(_tsv_lines(path), 1):
            word, tab, number = body.rpartition("\t")
            if not tab or not number.isdigit() or not word:
                raise FileError(f"{path}, line {n}: not word<TAB>count")
            counts[_unescape(word, f"{path}, line {n}")] += int(number)
    return counts


def _tsv_lines(path: str | os.PathLike) -> Iterator[str]:
    # Lines end at "\n" only (a word may hold U+2028 or U+0085: str.splitlines would cut it).
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise FileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    with fh:
        for n, raw in enumerate(fh, 1):
            try:
                yield raw.decode("utf-8", "surrogatepass").rstrip("\n").removesuffix("\r")
            except UnicodeDecodeError:
                raise FileError(f"{path}, line {n}: not UTF-8 text") from None


def sample_lines(lines: Iterable[str], n: int, seed: int = 0) -> list[str]:
    """``n`` lines drawn uniformly at random (reservoir sampling), in corpus order.

    The same lines and seed always give the same sample; memory holds ``n``
    lines, whatever the corpus size (as sentencepiece's input_sentence_size).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"the sample size must be an integer >= 1, not {n!r}")
    rng = random.Random(seed)
    reservoir: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        if i < n:
            reservoir.append((i, line))
        else:
            j = rng.randrange(i + 1)
            if j < n:
                reservoir[j] = (i, line)
    return [line for _, line in sorted(reservoir)]
