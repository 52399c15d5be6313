"""Which trainer runs: the built-in Python one or the reference library.

``"python"`` (the default) is this project's own trainer; ``"fast"`` trains
with the reference library (Hugging Face ``tokenizers`` or ``sentencepiece``,
the ``wubitok[fast]`` extra) on exactly the same pre-tokens and converts the
result; ``"auto"`` is fast for corpora of at least ``AUTO_FAST_BYTES`` when
that library is installed, else python: the built-in trainers are fine on
small corpora, and users of small corpora should not need the extra.  The
BPE engines' two backends learn the same merges (``SAME_MODEL``), so for
them "auto" is fast whenever ``tokenizers`` (a default dependency) is there:
the same model in about half the CPU time.  The engines, the CLI and the GUI
all decide it with ``choose_backend``.

Encoding has the same three choices (``choose_encoder``): ``"fast"`` applies
the merges with the reference library where a model type has such an encoder
(Wubi-BPE: HF ``tokenizers``' Rust BPE, the same ids and offsets), and
``"auto"``, the default, is fast whenever that library is installed.
"""
from __future__ import annotations

import importlib

from ..errors import InputError, MissingExtraError

BACKENDS = ("python", "fast", "auto")
# The library each model type's fast backend trains with.
FAST_PACKAGE = {"wubi-bpe": "tokenizers", "bpe": "tokenizers", "wordpiece": "tokenizers", "unigram": "sentencepiece"}
# The library each model type's fast encoder runs on (the others always encode in Python).
FAST_ENCODER_PACKAGE = {"wubi-bpe": "tokenizers", "bpe": "tokenizers"}
# Corpora at least this big train with the fast backend when "auto" is chosen.
AUTO_FAST_BYTES = 20_000_000
# Model types whose fast backend trains the very model the Python one does (tested merge for
# merge): "auto" trains them fast at any size.
SAME_MODEL = frozenset({"wubi-bpe", "bpe"})


def installed(package: str) -> bool:
    # An import rather than find_spec: it also honours a package blocked in sys.modules.
    try:
        importlib.import_module(package)
    except ImportError:
        return False
    return True


def check_backend(backend: object, model_type: str) -> str:
    """``backend`` if it is one of ``BACKENDS`` and, for "fast", its library is installed."""
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    package = FAST_PACKAGE[model_type]
    if backend == "fast" and not installed(package):
        raise MissingExtraError(f"the fast backend needs {package}: pip install wubitok[fast]")
    return str(backend)


def choose_backend(choice: str, model_type: str, corpus_bytes: int) -> str:
    """The backend to train with, "python" or "fast": ``"auto"`` is "fast" when the library is
    installed and the corpus has at least ``AUTO_FAST_BYTES`` or the model type is in ``SAME_MODEL``."""
    choice = check_backend(choice, model_type)
    if choice != "auto":
        return choice
    if (corpus_bytes >= AUTO_FAST_BYTES or model_type in SAME_MODEL) and installed(FAST_PACKAGE[model_type]):
        return "fast"
    return "python"


def choose_encoder(choice: object, model_type: str) -> str:
    """The encoder to use, "python" or "fast": ``"auto"`` is "fast" when the
    model type has a fast encoder and its library is installed."""
    if choice not in BACKENDS:
        raise InputError(f"unknown encoder {choice!r} (choose from {', '.join(BACKENDS)})")
    package = FAST_ENCODER_PACKAGE.get(model_type)
    if choice == "fast" and package is None:
        raise InputError(f"{model_type} models have no fast encoder (choose python or auto)")
    if choice == "fast" and not installed(str(package)):
        raise MissingExtraError(f"the fast encoder needs {package}: pip install wubitok[fast]")
    if choice == "auto":
        return "fast" if package is not None and installed(package) else "python"
    return str(choice)
