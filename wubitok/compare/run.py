"""Run several tokenizers over the same texts or files, streaming.

A sample is a whole document by default: each text, each file, line breaks
included, so a tokenizer's count is what the tokenizer itself gives for that
text or file (``Tokenizer.encode`` of it).  A file longer than
``DOCUMENT_PART_CHARS`` is measured in parts of about that size, cut only
after a line break that a non-space character follows, where no pre-token of
any engine spans the cut (``engines.corpus.safe_blocks``).  With
``per_line=True`` every non-empty line is a sample, without its line ending.

Samples are read once and handed in batches to every tokenizer in turn, so a
multi-megabyte corpus is never held in memory and the progress callback and
the cancel event are honoured between batches.
"""
from __future__ import annotations

import os
import threading
import time
from collections import Counter
from typing import Callable, Iterable, Iterator, Mapping, Sequence, TypeVar, Union, cast

from ..engines.base import Encoding, ProgressCallback, Tokenizer
from ..engines.corpus import safe_blocks
from ..errors import InputError
from ..fileio import iter_lines, iter_text_chunks
from ..progress import check_cancel
from ..scale.runner import run_ranges
from .metrics import CompareResult, ModelFacts, Sample, Tally

# A batch is cut at whichever comes first; small enough that cancel and
# progress respond within a fraction of a second, big enough that batch
# encoders (Hugging Face's is multi-threaded) get useful work per call.
BATCH_SAMPLES = 1024
BATCH_CHARS = 1 << 16
# Files up to this many characters are encoded whole (the token count is the
# tokenizer's own for the file); longer ones in parts of about this size.  An encoding holds about
# 140 bytes per character: parts of 4M characters took 560 MB (issue #37, 5).
DOCUMENT_PART_CHARS = 1 << 20
# A line longer than this is measured in parts cut as ``safe_blocks`` cuts a line with no line
# break (issue #37, 5: a 6 MB line took 470 MB); each part is a sample of its own.
LINE_PART_CHARS = 1 << 18

M = TypeVar("M", bound=ModelFacts)
NamedTokenizers = Union[Mapping[str, Tokenizer], Sequence[tuple[str, Tokenizer]]]
# Where the figures are measured elsewhere (finish_figures, compare_tokenizers with measure=):
NamedModels = Union[Mapping[str, ModelFacts], Sequence[tuple[str, ModelFacts]]]
Batch = tuple[list[str], int]  # sample texts, and the input bytes they consumed
Figures = tuple[CompareResult, Counter, Counter]  # one Tally's figures: result, id counts, token lengths
Measured = tuple[list[Figures], int]  # every tokenizer's figures on a batch, and its input bytes
# measure(batches, unit) -> what measure_batch gives for each batch, in order
MeasureBatches = Callable[[Iterator[Batch], str], Iterable[Measured]]


def named(tokenizers: Mapping[str, M] | Sequence[tuple[str, M]]) -> list[tuple[str, M]]:
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


def _tokenizers(pairs: list[tuple[str, ModelFacts]]) -> list[tuple[str, Tokenizer]]:
    for name, model in pairs:
        if not isinstance(model, Tokenizer):
            raise TypeError(f"{name!r} is not a tokenizer: measuring here needs one")
    return cast("list[tuple[str, Tokenizer]]", pairs)


def _body(raw: str) -> str:
    # raw is one line with its ending (any of str.splitlines' separators).
    parts = raw.splitlines()
    return parts[0] if parts else ""


def _check_input(texts: str | Iterable[str] | None, files: Sequence[str | os.PathLike] | None
                 ) -> tuple[Iterable[str] | None, list[str | os.PathLike] | None, int]:
    """The texts (a str made a list of one) or the files, and the total UTF-8 size (0 when unknown)."""
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
                pass  # reading reports the missing file with a clear message
        return None, files, total
    assert texts is not None  # exactly one of the two was given
    if isinstance(texts, str):
        texts = [texts]
    total = 0
    if isinstance(texts, Sequence):
        total = sum(len(t.encode("utf-8", "surrogatepass")) for t in texts)
    return texts, None, total


def _lines(texts: Iterable[str] | None, files: list[str | os.PathLike] | None) -> Iterator[tuple[str, int]]:
    """Per-line samples: each non-empty line without its ending, with the UTF-8 bytes it
    consumed (an empty line's go with the next sample; ``""`` carries the rest)."""
    raw_lines = iter_lines(files) if files is not None else (
        raw for t in texts or () for raw in t.splitlines(keepends=True))
    pending = 0
    for raw in raw_lines:
        pending += len(raw.encode("utf-8", "surrogatepass"))
        body = _body(raw)
        if len(body) > LINE_PART_CHARS:  # measured in parts, each encoded in bounded memory
            parts = list(safe_blocks([body], LINE_PART_CHARS, max_chars=LINE_PART_CHARS))
            for part in parts[:-1]:
                yield part, 0
            body = parts[-1]
        if body:
            yield body, pending
            pending = 0
    if pending:
        yield "", pending


def _documents(texts: Iterable[str] | None, files: list[str | os.PathLike] | None) -> Iterator[tuple[str, int]]:
    """Whole-document samples: each text, each file (in parts if long), with their UTF-8 bytes."""
    for text in texts or ():
        yield text, len(text.encode("utf-8", "surrogatepass"))
    for path in files or ():
        for part in safe_blocks(iter_text_chunks(path, DOCUMENT_PART_CHARS), min_chars=DOCUMENT_PART_CHARS,
                                max_chars=DOCUMENT_PART_CHARS):
            yield part, len(part.encode("utf-8", "surrogatepass"))


def _batches(samples: Iterator[tuple[str, int]]) -> Iterator[Batch]:
    """Batches of non-empty sample texts, with the input bytes (line endings included) they consumed.
    Texts, not Samples: a Sample is made where the batch is measured (in a worker process, if any)."""
    batch: list[str] = []
    chars = raw_bytes = 0
    for text, n_bytes in samples:
        raw_bytes += n_bytes
        if not text:
            continue
        batch.append(text)
        chars += len(text)
        if len(batch) >= BATCH_SAMPLES or chars >= BATCH_CHARS:
            yield batch, raw_bytes
            batch, chars, raw_bytes = [], 0, 0
    if batch or raw_bytes:
        yield batch, raw_bytes


def _measure_batch(spec: tuple[list[tuple[str, Tokenizer]], str], item: Batch) -> Measured:
    # run_ranges' calling convention
    return measure_batch(*spec, item)


def measure_batch(pairs: Sequence[tuple[str, Tokenizer]], unit: str, item: Batch) -> Measured:
    """Every tokenizer's figures on one batch of samples (and the batch's input bytes);
    ``unit``: what a sample is ("document" or "line")."""
    bodies, raw_bytes = item
    batch = [Sample.of(text) for text in bodies]
    out = []
    for name, tokenizer in pairs:
        tally = Tally(name, tokenizer, unit)
        if bodies:
            start = time.perf_counter()
            encodings = tokenizer.encode_batch(bodies)
            tally.result.encode_seconds += time.perf_counter() - start
            for sample, enc in zip(batch, encodings):
                tally.add(sample, enc)
        out.append((tally.result, tally.id_counts, tally.lengths))
    return out, raw_bytes


def measure_document(name: str, tokenizer: Tokenizer, text: str) -> tuple[Encoding, Figures]:
    """One tokenizer on one non-empty text: its encoding, and its figures as
    ``compare_tokenizers`` measures that text (for :func:`finish_figures`).

    A front end that shows the tokens and the figures encodes once, and can
    measure each tokenizer in a different process.
    """
    if not text:
        raise InputError("measure_document needs a non-empty text")
    tally = Tally(name, tokenizer, "document")
    start = time.perf_counter()
    (enc,) = tokenizer.encode_batch([text])
    tally.result.encode_seconds += time.perf_counter() - start
    tally.add(Sample.of(text), enc)
    return enc, (tally.result, tally.id_counts, tally.lengths)


def finish_figures(tokenizers: NamedModels, figures: Sequence[Figures]) -> list[CompareResult]:
    """The results of :func:`measure_document` figures, one per tokenizer, in order."""
    tallies = [Tally(name, tok) for name, tok in named(tokenizers)]
    for tally, part in zip(tallies, figures, strict=True):
        tally.merge(*part)
    return [t.finish() for t in tallies]


def compare_tokenizers(
    tokenizers: NamedModels,
    texts: str | Iterable[str] | None = None,
    *,
    files: Sequence[str | os.PathLike] | None = None,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    workers: int = 1,
    per_line: bool = False,
    measure: MeasureBatches | None = None,
) -> list[CompareResult]:
    """Measure every tokenizer on the same samples; one result each, in order.

    ``texts`` is a string or an iterable of strings, ``files`` are text
    files, streamed.  Each text and each file is one sample, line breaks
    included (see the module doc); ``per_line=True`` makes every non-empty
    line a sample instead, without its ending.  ``progress("encoding", done, total)``
    counts input bytes times tokenizers (``total`` is 0 when ``texts`` is a
    one-shot iterator of unknown size).  ``cancel`` (a ``threading.Event``)
    raises :class:`~wubitok.errors.Cancelled` at the next batch.  ``workers``
    > 1 measures batches in that many processes; the figures are the same
    (except the encode times, which are summed over the processes).
    ``measure(batches, unit)`` replaces how batches are measured: it yields,
    in order, what ``measure_batch(tokenizers, unit, batch)`` returns for each
    (a front end runs it in worker processes that have the models already); then
    ``tokenizers`` need only be :class:`~.metrics.ModelFacts`, else they must be tokenizers.
    """
    pairs = named(tokenizers)
    text_list, file_list, size = _check_input(texts, files)
    samples = _lines(text_list, file_list) if per_line else _documents(text_list, file_list)
    unit = "line" if per_line else "document"
    tallies = [Tally(name, tok, unit) for name, tok in pairs]
    total = size * len(tallies)
    done = 0
    if progress:
        progress("encoding", 0, total)
    # Batches are measured where run_ranges puts them (here, or in worker
    # processes that get the tokenizers once) and their figures added up in order.
    if measure is not None:
        parts = measure(_batches(samples), unit)
    else:
        parts = run_ranges(_measure_batch, (_tokenizers(pairs), unit), _batches(samples), workers=workers)
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
