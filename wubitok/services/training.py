"""Train a tokenizer on corpus files and save it: what ``wubitok train`` and the Train pane both do.

A :class:`TrainRequest` says what to train and where to save it;
:func:`train_to_file` checks the inputs first (the corpus is readable text,
the output folder exists, options fit the model type), trains with the
backend :func:`resolve_backend` picks, and saves atomically.  The front ends
only collect the request and draw the progress.

Three ways to train, one model file:

* on the text, in this process (the default);
* from pre-token counts (``wubitok.scale``): counted in ``workers``
  processes or on a Dask ``cluster``, read from ``counts`` files
  (``wubitok count``), or both, added up, then learned here.  The counts of
  the text are the counts the engine itself makes, so the model is byte for
  byte the one training on the text gives.  Only the built-in trainers learn
  from counts for WordPiece and Unigram (their fast trainers read text), so
  those train with the python backend on this path;
* on a ``sample`` of N lines (reservoir sampling, reproducible with ``seed``),
  as sentencepiece's ``input_sentence_size``: memory holds the sample, not
  the corpus.
"""
from __future__ import annotations

import os
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engines.backends import choose_backend
from ..engines.base import Tokenizer, engine_class
from ..engines.pre_tokenizers.wubi import pretokens_for
from ..errors import FileError, InputError
from ..fileio import TextPath, check_output, check_readable_text, iter_lines
from ..progress import ProgressCallback, check_cancel
from ..scale.counts import BoundedCounts, read_counts_tsv, sample_lines
from ..scale.runner import check_workers, parse_cluster
from ..scale.training import count_pretokens
from ..wubi.codec import CodecOptions


@dataclass(frozen=True)
class TrainRequest:
    model_type: str  # a registered model type: "wubi-bpe", "bpe", "wordpiece", "unigram"
    files: tuple[str | os.PathLike[str], ...]  # corpus files (TextPaths keep their detected encoding)
    vocab_size: int
    output: Path  # the model file to write
    min_frequency: int = 2
    special_tokens: tuple[str, ...] | None = None  # None: the model type's defaults
    backend: str = "auto"  # "python", "fast", or "auto" (see resolve_backend)
    codec: CodecOptions | None = None  # Wubi-BPE only: how Han characters are spelled; None: the default
    pre_tokens: str | None = None  # Wubi-BPE only: how text is cut before merging (PRE_TOKEN_MODES); None: the default
    workers: int = 1  # processes counting the corpus (more than 1: trains from counts)
    cluster: str | None = None  # "local:N" or "tcp://host:port": count on Dask, train from counts
    counts: tuple[str | os.PathLike[str], ...] = ()  # word<TAB>count files to add to the corpus's counts
    sample: int | None = None  # train on a random sample of this many lines of the corpus
    seed: int = 0  # which sample
    max_words: int | None = None  # prune the count table past this many distinct pre-tokens

    @property
    def from_counts(self) -> bool:
        """Trained from pre-token counts (``wubitok.scale``) rather than from the text in this process."""
        return self.workers > 1 or self.cluster is not None or bool(self.counts) or self.max_words is not None


@dataclass(frozen=True)
class TrainResult:
    request: TrainRequest
    backend: str  # the one used: "python" or "fast"
    seconds: float
    vocab_size: int
    file_bytes: int
    trained_by: str | None  # engines that can be trained two ways say which


# Model types whose fast trainer (tokenizers' WordPiece, sentencepiece) reads
# text and cannot learn from counts.
TEXT_ONLY_FAST = ("wordpiece", "unigram")


def trained_by(tokenizer: Tokenizer) -> str | None:
    """Which trainer made a model, for the engines that can be trained two ways (WordPiece,
    Unigram: their fast trainers score differently); None for the others."""
    value = getattr(tokenizer, "trained_by", None)
    return str(value) if value is not None else None


def resolve_backend(request: TrainRequest) -> str:
    """``request.backend``, with "auto" decided by the corpus size (``engines.backends.choose_backend``)."""
    if request.from_counts and request.model_type in TEXT_ONLY_FAST:
        if request.backend == "fast":
            raise InputError(f"the fast {request.model_type} trainer reads text, not counts: "
                             "train with --backend python (or without --workers, --cluster, --counts, --max-words)")
        return "python"
    if request.backend != "auto":
        return request.backend
    corpus_bytes = sum(Path(f).stat().st_size for f in request.files if Path(f).is_file())
    corpus_bytes += sum(Path(f).stat().st_size for f in request.counts if Path(f).is_file())
    return choose_backend("auto", request.model_type, corpus_bytes)


def check_pre_tokens(model_type: str, cut: str | None, name: str = "a pre-token cut (pre_tokens)") -> None:
    """An InputError unless ``cut`` is None or a known cut for a wubi-bpe model;
    ``name`` is what the caller calls the option (``--pre-tokens`` on the command line)."""
    if cut is None:
        return
    if model_type != "wubi-bpe":
        raise InputError(f"{name} is for wubi-bpe models, not {model_type}")
    pretokens_for(cut)  # an unknown cut names the known ones


def check_request(request: TrainRequest, *, create_folder: bool = False) -> list[TextPath]:
    """The corpus paths, once the request is known to be usable; a WubitokError otherwise.

    Everything that can be found out before a long training is: unreadable
    files, a codec or pre-token cut for a model that has none, an unknown
    cut, a missing output folder (made
    when ``create_folder``).
    """
    check_options(request)
    check_output(request.output, [*request.files, *request.counts])
    check_workers(request.workers)
    if request.cluster is not None:
        parse_cluster(request.cluster)
    if request.sample is not None and request.from_counts:
        raise InputError("--sample trains on the sampled lines in this process: "
                         "not with --workers, --cluster, --counts or --max-words")
    if request.sample is not None and not request.files:
        raise InputError("--sample needs corpus files to sample lines from")
    paths = check_readable_text(request.files) if request.files or not request.counts else []
    for counts_file in request.counts:
        if not Path(counts_file).is_file():
            raise FileError(f"{counts_file}: no such file", code="file.missing", path=str(counts_file))
    folder = request.output.resolve().parent
    if create_folder:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileError(f"{folder}: cannot create the folder ({exc.strerror or exc})") from None
    if not folder.is_dir():
        raise FileError(f"{request.output}: folder {folder} does not exist")
    return paths


def check_options(request: TrainRequest) -> None:
    """The model type and its training options (``-v`` too small, a codec for a model without
    one...), checked without reading the corpus: a wrong option is one line at once, not
    after reading gigabytes (issue #37, 6)."""
    engine = engine_class(request.model_type)  # an unknown type names the known ones
    if request.codec is not None and request.model_type != "wubi-bpe":
        raise InputError(f"a Wubi spelling (codec) is for wubi-bpe models, not {request.model_type}")
    check_pre_tokens(request.model_type, request.pre_tokens)
    engine.check_options(**_engine_options(request))


def _engine_options(request: TrainRequest) -> dict[str, Any]:
    """The engine's training options of ``request`` (with the backend decided)."""
    options: dict[str, Any] = {
        "vocab_size": request.vocab_size,
        "min_frequency": request.min_frequency,
        "special_tokens": list(request.special_tokens) if request.special_tokens is not None else None,
        "backend": resolve_backend(request),
    }
    if request.codec is not None:
        options["codec"] = request.codec
    options.update(_pre_tokens_option(request))
    return options


def train_to_file(request: TrainRequest, *, progress: ProgressCallback | None = None,
                  cancel: threading.Event | None = None, create_folder: bool = False) -> TrainResult:
    """Check, train and save (atomically: no partial file on failure or cancel)."""
    start = time.perf_counter()
    paths = check_request(request, create_folder=create_folder)
    check_cancel(cancel)
    options = {**_engine_options(request), "progress": progress, "cancel": cancel}
    backend = options["backend"]
    engine = engine_class(request.model_type)
    if request.from_counts:
        counts = request_counts(request, paths, progress)
        check_cancel(cancel)
        tok = engine.train_from_counts(counts, **options)
    elif request.sample is not None:
        lines = sample_lines(iter_lines(paths), request.sample, request.seed)
        tok = engine.train(texts=["".join(lines)], **options)
    else:
        tok = engine.train(files=paths, **options)
    check_cancel(cancel)
    tok.save(request.output)
    return TrainResult(request, backend, time.perf_counter() - start, tok.vocab_size,
                       request.output.stat().st_size, trained_by(tok))


def _pre_tokens_option(request: TrainRequest) -> dict[str, Any]:
    """The engine option for the request's pre-token cut: counting and training must cut alike."""
    return {"pre_tokens": request.pre_tokens} if request.pre_tokens is not None else {}


def request_counts(request: TrainRequest, paths: list[TextPath],
                   progress: ProgressCallback | None = None) -> Counter[str]:
    """The pre-token counts a request trains from: its corpus counted as the
    engine counts (spread over workers or a cluster), plus its counts files."""
    table = BoundedCounts(request.max_words)
    if request.counts:
        table.add(read_counts_tsv(request.counts))
    if paths:
        table.add(count_pretokens(
            files=paths, model=request.model_type, special_tokens=request.special_tokens, workers=request.workers,
            cluster=request.cluster, max_words=request.max_words, **_pre_tokens_option(request),
            progress=None if progress is None else (lambda done, total: progress("counting", done, total))))
    if not table.counts:
        raise InputError("no pre-tokens to train from (the counts are empty)")
    return table.counts
