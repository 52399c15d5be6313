"""Which trainer runs: the built-in Python one or the reference library.

``"python"`` (the default) is this project's own trainer; ``"fast"`` trains
with the reference library (Hugging Face ``tokenizers`` or ``sentencepiece``,
the ``wubitok[fast]`` extra) and converts the result; ``"auto"`` is fast when
that library is installed.  Same names as the BPE engines and the CLI.
"""
from __future__ import annotations

import importlib.util

from ..errors import InputError

BACKENDS = ("python", "fast", "auto")


def use_fast(backend: str, package: str) -> bool:
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    return backend == "fast" or (backend == "auto" and importlib.util.find_spec(package) is not None)
