"""The training library (PyTorch, the ``lm`` extra): imported here only, set up for repeatable runs.

``torch`` is optional: :func:`require_torch` turns its absence into one line
naming the extra.  :func:`deterministic` fixes what makes a run repeatable on
one machine: the seed, the number of CPU threads (a different thread count
may sum in a different order) and ``torch.use_deterministic_algorithms``.
Nothing is downloaded: the model is built from code, never from a hub.
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

from ..errors import MissingExtraError


def require_torch() -> ModuleType:
    """``torch``, or one line naming the extra that installs it."""
    try:
        return importlib.import_module("torch")
    except ImportError:
        raise MissingExtraError("language-model evaluation needs PyTorch: pip install wubitok[lm]") from None


def pick_device(requested: str = "auto") -> str:
    """"cuda" when a GPU is there (or asked for), else "cpu"."""
    torch = require_torch()
    if requested == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if requested == "cuda" and not torch.cuda.is_available():
        raise MissingExtraError("--device cuda: PyTorch sees no GPU here")
    return requested


def deterministic(seed: int, threads: int) -> None:
    """Make the next run a pure function of ``seed`` (on this machine, with ``threads`` CPU threads)."""
    # cuBLAS needs this set before its first call to give the same sums each time.
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch = require_torch()
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
