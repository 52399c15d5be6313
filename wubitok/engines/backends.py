"""Which trainer runs: the built-in Python one or the reference library.

``"python"`` (the default) is this project's own trainer; ``"fast"`` trains
with the reference library (Hugging Face ``tokenizers`` or ``sentencepiece``,
the ``wubitok[fast]`` extra) on exactly the same pre-tokens and converts the
result; ``"auto"`` is fast for corpora of at least ``AUTO_FAST_BYTES`` when
that library is installed, else python: the built-in trainers are fine on
small corpora, and users of small corpora should not need the extra.  The
engines, the CLI and the GUI all decide it with ``choose_backend``.
"""
from __future__ import annotations

import importlib

from ..errors import InputError, MissingExtraError

BACKENDS = ("python", "fast", "auto")
# The library each model type's fast backend trains with.
FAST_PACKAGE = {"wubi-bpe": "tokenizers", "bpe": "tokenizers", "wordpiece": "tokenizers", "unigram": "sentencepiece"}
# Corpora at least this big train with the fast backend when "auto" is chosen.
AUTO_FAST_BYTES = 20_000_000


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
    """The backend to train with, "python" or "fast": ``"auto"`` is "fast" for
    corpora of at least ``AUTO_FAST_BYTES`` when the library is installed."""
    choice = check_backend(choice, model_type)
    if choice != "auto":
        return choice
    if corpus_bytes >= AUTO_FAST_BYTES and installed(FAST_PACKAGE[model_type]):
        return "fast"
    return "python"
