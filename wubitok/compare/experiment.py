"""The experiment users come for: train every engine alike, measure on held-out text.

Each engine is trained with the same vocabulary size and minimum frequency on
the same corpus files, then all of them (and any external tokenizers given)
are compared on held-out files none of them saw.
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

from ..engines.base import ProgressCallback, Tokenizer, engine_class
from ..errors import FileError, InputError
from ..fileio import atomic_write_many, check_output, check_readable_text, encode_text
from ..progress import check_cancel
from .metrics import CompareResult
from .run import NamedTokenizers, compare_tokenizers, named

DEFAULT_MODELS = ("wubi-bpe", "bpe", "wordpiece", "unigram")


@dataclass
class ExperimentResult:
    results: list[CompareResult]
    tokenizers: dict[str, Tokenizer]
    train_seconds: dict[str, float]
    model_paths: dict[str, Path] = field(default_factory=dict)


def train_and_compare(
    corpus: Sequence[str | os.PathLike],
    held_out: Sequence[str | os.PathLike],
    vocab_size: int,
    *,
    models: Sequence[str] = DEFAULT_MODELS,
    externals: NamedTokenizers = (),
    out_dir: str | os.PathLike | None = None,
    min_frequency: int = 2,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    per_line: bool = False,
) -> ExperimentResult:
    """Train ``models`` on ``corpus`` and compare them (and ``externals``) on ``held_out``.

    Progress stages are "training <model>: <engine stage>" for each training,
    then "encoding" for the comparison.  With ``out_dir`` each trained model
    is saved there as ``<model>.json``, all at the end: a failure or Ctrl-C
    before then leaves older models of the same names, and no new folder.
    Each held-out file is one sample, or each of its lines with ``per_line``
    (see ``compare_tokenizers``).
    """
    if vocab_size < 1:
        raise InputError("the vocabulary size must be at least 1")
    if not models:
        raise InputError("no models to train")
    if len(set(models)) != len(models):
        raise InputError("a model type is listed twice")
    classes = {m: engine_class(m) for m in models}
    # Refuse a vocabulary one engine cannot train now, not after the others have trained for minutes.
    for model, cls in classes.items():
        smallest = cls.min_vocab_size()
        if vocab_size < smallest:
            raise InputError(f"vocab_size {vocab_size} is too small for {model}: it needs at least {smallest}")
    externals = list(externals.items()) if isinstance(externals, Mapping) else list(externals)
    clash = set(models) & {name for name, _ in externals}
    if clash:
        raise InputError(f"an external tokenizer is named like a trained one: {', '.join(sorted(clash))}")
    # Fail on an unreadable file now, not after minutes of training.
    check_readable_text(corpus)
    check_readable_text(held_out)
    out = check_output(out_dir) if out_dir is not None else None
    if out is not None and out.exists() and not out.is_dir():
        raise FileError(f"{out}: not a folder", code="file.not_folder", path=str(out))

    trained: dict[str, Tokenizer] = {}
    seconds: dict[str, float] = {}
    paths: dict[str, Path] = {}
    for model, cls in classes.items():
        check_cancel(cancel)
        report = None
        if progress:
            def report(stage: str, done: int, total: int, _model: str = model) -> None:
                progress(f"training {_model}: {stage}", done, total)
        start = time.perf_counter()
        trained[model] = cls.train(files=list(corpus), vocab_size=vocab_size, min_frequency=min_frequency,
                                   progress=report, cancel=cancel)
        seconds[model] = time.perf_counter() - start
    if out is not None:
        paths = {model: out / f"{model}.json" for model in trained}
        _save_all(out, [(paths[m], encode_text(tok.to_json(), path=paths[m])) for m, tok in trained.items()])

    results = compare_tokenizers(
        named([*trained.items(), *externals]), files=held_out, progress=progress, cancel=cancel, per_line=per_line
    )
    for r in results:
        r.train_seconds = seconds.get(r.name)
    return ExperimentResult(results, trained, seconds, paths)


def _save_all(folder: Path, files: list[tuple[Path, bytes]]) -> None:
    """Write the models into ``folder`` (made if needed; removed again if writing fails)."""
    made = [p for p in (folder, *folder.parents) if not p.exists()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileError(f"{folder}: cannot create the output folder ({exc.strerror or exc})") from None
    try:
        atomic_write_many(files)
    except BaseException:
        for p in made:  # innermost first
            try:
                p.rmdir()
            except OSError:
                break
        raise
