"""``wubitok lm-eval`` and the Compare pane's language-model run: the request, its tokenizers, its text.

A tokenizer is named by a model file (any kind ``model_files`` opens), a
bundled model's name (``wubi-bpe-6000``: ``resources/models/wubi-bpe-6000.json``)
or ``chars`` / ``chars:SIZE``, the character-level baseline trained on the
training text (:mod:`wubitok.lm.chars`, 8000 ids by default).  The text is
training files and test files, or one file whose last tenth (cut at a line
start) is the test text.  :data:`QUICK` is the ``--quick`` preset.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

from ..errors import InputError
from ..fileio import check_readable_text, read_text
from ..lm.backend import require_torch
from ..lm.chars import CharTokenizer
from ..lm.data import TokenSource
from ..lm.experiment import LmConfig, LmEvalResult, evaluate_tokenizers
from ..progress import ProgressCallback
from .model_files import bundled_models_dir, load_model_file

CHARS = "chars"
CHARS_DEFAULT_SIZE = 8000
TEST_SHARE = 0.1  # of one file, when no test file is given
MAX_TOKENIZERS = 4
# --quick: two tokenizers on a 3 MB corpus in minutes on 2 cores. A smaller window and fewer steps;
# the first million characters of the training text (3 MB of Chinese in UTF-8) and 50,000 of the test text.
QUICK = LmConfig(context_chars=64, steps=300)
QUICK_TRAIN_CHARS = 1_000_000
QUICK_TEST_CHARS = 50_000


@dataclass(frozen=True)
class LmEvalRequest:
    tokenizers: Sequence[str]
    train: Sequence[str | Path]
    test: Sequence[str | Path] = ()
    config: LmConfig = field(default_factory=LmConfig)
    train_chars: int | None = None  # use only the first this many characters
    test_chars: int | None = None
    encoding: str | None = None  # of the text files; None detects each

    def quick(self) -> LmEvalRequest:
        """This request with the ``--quick`` preset (seeds, device and threads kept)."""
        config = replace(QUICK, seeds=self.config.seeds, device=self.config.device, threads=self.config.threads)
        return replace(self, config=config, train_chars=self.train_chars or QUICK_TRAIN_CHARS,
                       test_chars=self.test_chars or QUICK_TEST_CHARS)


def bundled_names() -> list[str]:
    return sorted(p.stem for p in bundled_models_dir().glob("*.json"))


def resolve_tokenizer(spec: str, train_text: str) -> tuple[str, TokenSource]:
    """(display name, tokenizer) for a file, a bundled model's name, or ``chars[:SIZE]``."""
    if spec == CHARS or spec.startswith(CHARS + ":"):
        size_text = spec.partition(":")[2] or str(CHARS_DEFAULT_SIZE)
        if not size_text.isdigit():
            raise InputError(f"{spec}: the character baseline's size is a number (chars:8000)")
        return spec, CharTokenizer.from_text(train_text, int(size_text))
    bundled = bundled_models_dir() / f"{spec}.json"
    if "/" not in spec and "\\" not in spec and bundled.is_file():
        return spec, load_model_file(bundled)
    path = Path(spec)
    if not path.exists():
        raise InputError(f"{spec}: no such model file, nor a bundled model ({', '.join(bundled_names())}) "
                         f"nor '{CHARS}'")
    return path.stem if path.name != "tokenizer.json" else path.parent.name or path.stem, load_model_file(path)


def split_text(text: str, share: float = TEST_SHARE) -> tuple[str, str]:
    """(training, test): the test text is the last ``share`` of ``text``, from a line start."""
    cut = text.rfind("\n", 0, int(len(text) * (1 - share)))
    cut = cut + 1 if cut >= 0 else int(len(text) * (1 - share))
    return text[:cut], text[cut:]


def read_corpus(request: LmEvalRequest) -> tuple[str, str]:
    """The training and test text of ``request`` (cut to its character limits)."""
    if not request.train:
        raise InputError("no training text: give a file")
    check_readable_text([*request.train, *request.test])
    train = "".join(read_text(p, request.encoding) for p in request.train)
    if request.test:
        test = "".join(read_text(p, request.encoding) for p in request.test)
    else:
        train, test = split_text(train)
    return train[:request.train_chars], test[:request.test_chars]


def run_lm_eval(request: LmEvalRequest, *, progress: ProgressCallback | None = None,
                cancel: threading.Event | None = None) -> LmEvalResult:
    """Read the text, open the tokenizers, train and score (``wubitok.lm.evaluate_tokenizers``)."""
    if not 1 <= len(request.tokenizers) <= MAX_TOKENIZERS:
        raise InputError(f"compare 1 to {MAX_TOKENIZERS} tokenizers, not {len(request.tokenizers)}")
    request.config.check()
    require_torch()  # a missing extra is one line before the text is read
    train, test = read_corpus(request)
    tokenizers = [resolve_tokenizer(spec, train) for spec in request.tokenizers]
    return evaluate_tokenizers(tokenizers, train, test, request.config, progress=progress, cancel=cancel)
