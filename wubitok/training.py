"""Train a tokenizer on corpus files and save it: what ``wubitok train`` and the Train pane both do.

A :class:`TrainRequest` says what to train and where to save it;
:func:`train_to_file` checks the inputs first (the corpus is readable UTF-8,
the output folder exists, options fit the model type), trains with the
backend :func:`resolve_backend` picks, and saves atomically.  The front ends
only collect the request and draw the progress.
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .codec import CodecOptions
from .engines.backends import choose_backend
from .engines.base import Tokenizer, check_cancel, engine_class
from .errors import FileError, InputError
from .fileio import TextPath, check_readable_text
from .progress import ProgressCallback


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


@dataclass(frozen=True)
class TrainResult:
    request: TrainRequest
    backend: str  # the one used: "python" or "fast"
    seconds: float
    vocab_size: int
    file_bytes: int
    trained_by: str | None  # engines that can be trained two ways say which


def trained_by(tokenizer: Tokenizer) -> str | None:
    """Which trainer made a model, for the engines that can be trained two ways (WordPiece,
    Unigram: their fast trainers score differently); None for the others."""
    value = getattr(tokenizer, "trained_by", None)
    return str(value) if value is not None else None


def resolve_backend(request: TrainRequest) -> str:
    """``request.backend``, with "auto" decided by the corpus size (``engines.backends.choose_backend``)."""
    if request.backend != "auto":
        return request.backend
    corpus_bytes = sum(Path(f).stat().st_size for f in request.files if Path(f).is_file())
    return choose_backend("auto", request.model_type, corpus_bytes)


def check_request(request: TrainRequest, *, create_folder: bool = False) -> list[TextPath]:
    """The corpus paths, once the request is known to be usable; a WubitokError otherwise.

    Everything that can be found out before a long training is: unreadable
    files, a codec for a model that has none, a missing output folder (made
    when ``create_folder``).
    """
    engine_class(request.model_type)  # an unknown type names the known ones
    if request.codec is not None and request.model_type != "wubi-bpe":
        raise InputError(f"a Wubi spelling (codec) is for wubi-bpe models, not {request.model_type}")
    paths = check_readable_text(request.files)
    folder = request.output.resolve().parent
    if create_folder:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileError(f"{folder}: cannot create the folder ({exc.strerror or exc})") from None
    if not folder.is_dir():
        raise FileError(f"{request.output}: folder {folder} does not exist")
    return paths


def train_to_file(request: TrainRequest, *, progress: ProgressCallback | None = None,
                  cancel: threading.Event | None = None, create_folder: bool = False) -> TrainResult:
    """Check, train and save (atomically: no partial file on failure or cancel)."""
    start = time.perf_counter()
    paths = check_request(request, create_folder=create_folder)
    backend = resolve_backend(request)
    check_cancel(cancel)
    extra: dict[str, Any] = {"codec": request.codec} if request.codec is not None else {}
    tok = engine_class(request.model_type).train(
        files=paths,
        vocab_size=request.vocab_size,
        min_frequency=request.min_frequency,
        special_tokens=list(request.special_tokens) if request.special_tokens is not None else None,
        progress=progress,
        cancel=cancel,
        backend=backend,
        **extra,
    )
    check_cancel(cancel)
    tok.save(request.output)
    return TrainResult(request, backend, time.perf_counter() - start, tok.vocab_size,
                       request.output.stat().st_size, trained_by(tok))
