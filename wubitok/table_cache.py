"""Tables that take seconds to build and milliseconds to load, kept on disk.

The Wubi codec's spelling tables take about 2 s of Python to derive from the
dictionary, and every process that spells text needs them: the CLI, the app,
each worker of a corpus run (where that start-up was a large share of a
2-worker run).  Loading them with ``marshal`` takes about 60 ms.

A file is only used when its key matches: the caller's key (the dictionary's
content hash, the options), the Python version (marshal's format) and the
bytecode of the functions that build the table, so a change to the building
code can never be answered by an old file.  Anything wrong with a file (gone,
truncated, another key, unreadable folder) means building the table again; a
cache is never a reason to fail.
"""
from __future__ import annotations

import hashlib
import marshal
import sys
from pathlib import Path
from typing import Any, Callable, TypeVar

from .errors import FileError
from .fileio import atomic_write_bytes
from .paths import user_cache_dir

T = TypeVar("T")
SUFFIX = ".marshal"


def _digest(key: tuple, builders: tuple[Callable[..., Any], ...]) -> str:
    h = hashlib.sha256(repr((key, sys.version)).encode())
    for func in builders:
        h.update(marshal.dumps(getattr(func, "__wrapped__", func).__code__))  # through lru_cache
    return h.hexdigest()


def cached_table(name: str, key: tuple, build: Callable[[], T], *builders: Callable[..., Any],
                 folder: Path | None = None) -> T:
    """``build()``, or the table a previous call with the same key stored.

    ``name`` names the file (one per name: a new key replaces the old file);
    ``builders`` are the functions whose code the table depends on besides
    ``build`` itself.  The table must be made of what ``marshal`` stores (str,
    int, tuple, list, dict...).
    """
    folder = folder or user_cache_dir()
    path = folder / f"{name}{SUFFIX}"
    digest = _digest(key, (build, *builders))
    try:
        stored_digest, table = marshal.loads(path.read_bytes())
        if stored_digest == digest:
            return table
    except (OSError, EOFError, ValueError, TypeError):
        pass  # no file yet, or a damaged one: build it again
    table = build()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, marshal.dumps((digest, table)))  # type: ignore[arg-type]  # T: marshallable
    except (OSError, FileError):
        pass  # a read-only home: the next process builds it again
    return table
