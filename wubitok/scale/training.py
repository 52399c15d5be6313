"""Training from counts, anywhere: count pre-tokens in parts, add them up, learn on one machine.

Each engine counts with ``Engine.count`` (a pure function of the text) and
learns with ``Engine.train_from_counts``; ``train(texts)`` and
``train_from_counts(count(texts))`` give the same model file.  Here the
counting is spread: files are cut into byte ranges at places no pre-token
crosses (``documents``, kind ``blocks``), each range is counted on its own —
in this process, in ``workers`` processes or on a Dask ``cluster`` — and the
parts are added in range order.  So the counts, and the model, are the same
for any number of workers or partitions.

Two ways to bound memory on a big corpus:

* ``sample=N``: count a reproducible random sample of N lines instead of the
  corpus (sentencepiece's ``input_sentence_size``);
* ``max_words=N``: a count table that *prunes* (``counts.BoundedCounts``,
  lossy counting): past N distinct pre-tokens the rarest are dropped, parts
  being added in range order so the result does not depend on the number of
  workers.  A pruned table is no longer the exact counts (kept counts are
  low by at most the stated bound, rare words are missing): the model
  differs from the one the whole text gives (that is the price of the bound).
"""
from __future__ import annotations

import os
from collections import Counter
from typing import Any, Iterable, Sequence

from ..engines.base import Tokenizer, engine_class
from ..errors import InputError
from ..fileio import iter_lines
from .counts import BoundedCounts, sample_lines
from .documents import RANGE_BYTES, ByteRange, byte_ranges, read_range
from .encode import ByteProgress
from .runner import run_ranges


def count_byte_range(rng: ByteRange, model: str = "wubi-bpe", special_tokens: Sequence[str] | None = None,
                     **options: Any) -> Counter:
    """The counts of one range of ``byte_ranges(files, "blocks")``: the map step,
    for any engine that runs tasks (this module's workers, Dask, Spark, Ray)."""
    return engine_class(model).count(texts=[read_range(rng)], special_tokens=special_tokens, **options)


def _count_task(spec: tuple[str, tuple[str, ...] | None, dict[str, Any]], rng: ByteRange) -> Counter:
    model, specials, options = spec
    return count_byte_range(rng, model, specials, **options)


def count_pretokens(texts: Iterable[str] | str | None = None, *, files: Sequence[str | os.PathLike] | None = None,
                    model: str = "wubi-bpe", special_tokens: Sequence[str] | None = None, workers: int = 1,
                    cluster: str | None = None, sample: int | None = None, seed: int = 0,
                    max_words: int | None = None, progress: ByteProgress | None = None,
                    range_bytes: int = RANGE_BYTES, encoding: str | None = None, **options: Any) -> Counter:
    """Pre-token counts of ``texts`` or ``files`` as ``model`` counts them.

    ``options`` are the engine's counting options (``pattern`` for bpe,
    ``lowercase`` / ``strip_accents`` for wordpiece).  ``workers`` and
    ``cluster`` spread the counting of files; ``sample`` and ``max_words``
    bound memory (see the module docstring).  ``encoding`` None reads each
    file in its own encoding (a TextPath's, else detected).
    """
    cls = engine_class(model)
    specials = tuple(special_tokens) if special_tokens is not None else None
    if (texts is None) == (files is None):
        raise InputError("give texts or files to count (one of them)")
    if sample is not None:
        lines = iter_lines(files, encoding) if files is not None else (
            line for t in ([texts] if isinstance(texts, str) else texts or ()) for line in t.splitlines(keepends=True))
        texts, files = ["".join(sample_lines(lines, sample, seed))], None
    table = BoundedCounts(max_words)
    if files is None:
        table.add(cls.count(texts=texts, special_tokens=specials, **options))
        return table.counts
    ranges = byte_ranges(files, "blocks", range_bytes, encoding)
    total, done = sum(r.size for r in ranges), 0
    if progress is not None:
        progress(0, total)  # the start, so that the first range's report has a rate
    parts = run_ranges(_count_task, (model, specials, options), ranges, workers=workers, cluster=cluster)
    try:
        for rng, part in zip(ranges, parts):
            table.add(part)
            done += rng.size
            if progress is not None:
                progress(done, total)
    finally:
        close = getattr(parts, "close", None)
        if close is not None:
            close()
    return table.counts


def train_from_counts(counts: Counter, *, model: str = "wubi-bpe", **options: Any) -> Tokenizer:
    """``Engine.train_from_counts`` of the engine named ``model``."""
    if not counts:
        raise InputError("no counts to train from (an empty corpus or counts file)")
    return engine_class(model).train_from_counts(counts, **options)
