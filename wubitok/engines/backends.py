"""Which trainer runs: the built-in Python one or the reference library.

``"python"`` (the default) is this project's own trainer; ``"fast"`` trains
with the reference library (Hugging Face ``tokenizers`` or ``sentencepiece``,
the ``wubitok[fast]`` extra) on exactly the same pre-tokens and converts the
result; an engine's ``"auto"`` is fast when that library is installed.

The front ends (CLI, GUI) decide "auto" by corpus size with
``choose_backend``: the built-in trainers are fine on small corpora, and
users of small corpora should not need the extra.
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


def use_fast(backend: str, package: str) -> bool:
    """True when ``backend`` asks for the reference library and it is there."""
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if backend == "fast" and not installed(package):
        raise MissingExtraError(f"the fast backend needs {package}: pip install wubitok[fast]")
    return backend == "fast" or (backend == "auto" and installed(package))


def choose_backend(choice: str, model_type: str, corpus_bytes: int) -> str:
    """The backend to train with: ``"auto"`` is "fast" for corpora of at least
    ``AUTO_FAST_BYTES`` when the library is installed, else "python"."""
    if choice != "auto":
        return choice
    package = FAST_PACKAGE.get(model_type)
    if package and corpus_bytes >= AUTO_FAST_BYTES and installed(package):
        return "fast"
    return "python"
