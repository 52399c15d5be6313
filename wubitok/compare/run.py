"""Run several tokenizers over the same texts or files, streaming.

Lines are read once and handed in batches to every tokenizer in turn, so a
multi-megabyte corpus is never held in memory and the progress callback and
the cancel event are honoured between batches.
"""
from __future__ import annotations

import os
import threading
import time
from collections import Counter
from typing import Iterable, Iterator, Mapping, Sequence, Union

from ..engines.base import ProgressCallback, Tokenizer, check_cancel
from ..errors import InputError
from ..fileio import iter_lines
from ..scale.runner import run_ranges
from .metrics import CompareResult, Line, Tally

# A batch is cut at whichever comes first; small enough that cancel and
# progress respond within a fraction of a second, big enough that batch
# encoders (Hugging Face's is multi-threaded) get useful work per call.
BATCH_LINES = 1024
BATCH_CHARS = 1 << 16

NamedTokenizers = Union[Mapping[str, Tokenizer], Sequence[tuple[str, Tokenizer]]]


def named(tokenizers: NamedTokenizers) -> list[tuple[str, Tokenizer]]:
    """(name, tokenizer) pairs from a mapping or a sequence; names must be unique."""
    pairs = list(tokenizers.items()) if isinstance(tokenizers, Mapping) else list(tokenizers)
    if not pairs:
        raise InputError("no tokenizers to compare")
    seen: set[str] = set()
    for name, _ in pairs:
        if name in seen:
            raise InputError(f"two tokenizers are named {name!r}; give them different names")
        seen.add(name)
    return pairs


def _body(raw: str) -> str:
    # raw is one line with its ending (any of str.splitlines' separators).
    parts = raw.splitlines()
    return parts[0] if parts else ""


def _raw_lines(
    texts: str | Iterable[str] | None, files: Sequence[str | os.PathLike] | None
) -> tuple[Iterator[str], int]:
    """Lines with their endings, and the total UTF-8 size (0 when unknown)."""
    if (texts is None) == (files is None):
        raise InputError("give texts or files (one of them)")
    if files is not None:
        files = list(files)
        if not files:
            raise InputError("no input files given")
        total = 0
        for f in files:
            try:
                total += os.path.getsize(f)
            except OSError:
                pass  # iter_lines reports the missing file with a clear message
        return iter_lines(files), total
    assert texts is not None  # exactly one of the two was given
    if isinstance(texts, str):
        texts = [texts]
    total = 0
    if isinstance(texts, Sequence):
        total = sum(len(t.encode("utf-8", "surrogatepass")) for t in texts)
    return (raw for t in texts for raw in t.splitlines(keepends=True)), total


def _batches(raw_lines: Iterator[str]) -> Iterator[tuple[list[Line], int]]:
    """Batches of non-empty lines, with the raw bytes (endings included) they consumed."""
    batch: list[Line] = []
    chars = raw_bytes = 0
    for raw in raw_lines:
        raw_bytes += len(raw.encode("utf-8", "surrogatepass"))
        body = _body(raw)
        if not body:
            continue
        batch.append(Line.of(body))
        chars += len(body)
        if len(batch) >= BATCH_LINES or chars >= BATCH_CHARS:
            yield batch, raw_bytes
            batch, chars, raw_bytes = [], 0, 0
    if batch or raw_bytes:
        yield batch, raw_bytes


def _measure_batch(pairs: list[tuple[str, Tokenizer]], item: tuple[list[Line], int]
                   ) -> tuple[list[tuple[CompareResult, Counter, Counter]], int]:
    """Every tokenizer's figures on one batch of lines (and the batch's raw bytes)."""
    batch, raw_bytes = item
    bodies = [line.text for line in batch]
    out = []
    for name, tokenizer in pairs:
        tally = Tally(name, tokenizer)
        if bodies:
            start = time.perf_counter()
            encodings = tokenizer.encode_batch(bodies)
            tally.result.encode_seconds += time.perf_counter() - start
            for line, enc in zip(batch, encodings):
                tally.add(line, enc)
        out.append((tally.result, tally.id_counts, tally.lengths))
    return out, raw_bytes


def compare_tokenizers(
    tokenizers: NamedTokenizers,
    texts: str | Iterable[str] | None = None,
    *,
    files: Sequence[str | os.PathLike] | None = None,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    workers: int = 1,
) -> list[CompareResult]:
    """Measure every tokenizer on the same lines; one result each, in order.

    ``texts`` is a string or an iterable of strings (each split into lines);
    ``files`` are UTF-8 files, streamed.  ``progress("encoding", done, total)``
    counts input bytes times tokenizers (``total`` is 0 when ``texts`` is a
    one-shot iterator of unknown size).  ``cancel`` (a ``threading.Event``)
    raises :class:`~wubitok.errors.Cancelled` at the next batch.  ``workers``
    > 1 measures batches in that many processes; the figures are the same
    (except the encode times, which are summed over the processes).
    """
    pairs = named(tokenizers)
    raw_lines, size = _raw_lines(texts, files)
    tallies = [Tally(name, tok) for name, tok in pairs]
    total = size * len(tallies)
    done = 0
    if progress:
        progress("encoding", 0, total)
    # Batches are measured where run_ranges puts them (here, or in worker
    # processes that get the tokenizers once) and their figures added up in order.
    parts = run_ranges(_measure_batch, pairs, _batches(raw_lines), workers=workers)
    try:
        for measured, raw_bytes in parts:
            check_cancel(cancel)
            for tally, part in zip(tallies, measured):
                tally.merge(*part)
            done += raw_bytes * len(tallies)
            if progress:
                progress("encoding", done, max(total, done) if total else 0)
    finally:
        close = getattr(parts, "close", None)
        if close is not None:
            close()
    check_cancel(cancel)
    if progress:
        progress("encoding", done, done)
    return [t.finish() for t in tallies]
