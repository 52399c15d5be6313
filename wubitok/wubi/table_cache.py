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

A table is marshalled in pieces of about :data:`PIECE_OBJECTS` objects (a
dict or list in slices, a tuple member by member), joined in a Python loop:
one ``marshal`` call holds the GIL throughout, and the app loads models in a
thread of the GUI's process, whose GUI thread waited 40-80 ms on one
``loads`` or ``dumps`` of the whole table.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TypeVar

from ..errors import FileError
from ..fileio import atomic_write_bytes
from ..paths import user_cache_dir

T = TypeVar("T")
SUFFIX = ".marshal"
FORMAT = "pieces-1"  # of the file (split_table, join_table): part of the key
# Objects per marshalled piece: about 4 ms of one loads or dumps call.
PIECE_OBJECTS = 8192
CONTAINERS = (list, tuple, dict, set, frozenset)
_locks: dict[Path, threading.Lock] = {}  # per cache file, for this process's threads
_locks_lock = threading.Lock()


def _digest(key: tuple, builders: tuple[Callable[..., Any], ...]) -> str:
    h = hashlib.sha256(repr((key, sys.version, FORMAT)).encode())
    for func in builders:
        h.update(marshal.dumps(getattr(func, "__wrapped__", func).__code__))  # through lru_cache
    return h.hexdigest()


def _weight(value: Any) -> int:
    """About how many objects marshal handles for ``value`` (one level deep)."""
    return 1 + len(value) if isinstance(value, CONTAINERS) else 1


def _item_weight(item: tuple[Any, Any]) -> int:
    return 1 + _weight(item[1])


def _parts(items: Iterable[Any], weigh: Callable[[Any], int], size: int) -> Iterator[list[Any]]:
    part: list[Any] = []
    weight = 0
    for item in items:
        part.append(item)
        weight += weigh(item)
        if weight >= size:
            yield part
            part, weight = [], 0
    if part:
        yield part


def split_table(table: Any, size: int = PIECE_OBJECTS) -> tuple[Any, list[bytes]]:
    """``table`` marshalled in pieces of about ``size`` objects: (layout, pieces).
    Dicts and lists are cut in slices, tuples member by member; the rest is whole."""
    pieces: list[bytes] = []
    return _split(table, size, pieces), pieces


def _split(value: Any, size: int, pieces: list[bytes]) -> Any:
    if isinstance(value, tuple):
        return ("tuple", [_split(v, size, pieces) for v in value])
    start = len(pieces)
    if isinstance(value, dict):
        pieces += map(marshal.dumps, map(dict, _parts(value.items(), _item_weight, size)))
        return ("dict", len(pieces) - start)
    if isinstance(value, list):
        pieces += map(marshal.dumps, _parts(value, _weight, size))
        return ("list", len(pieces) - start)
    pieces.append(marshal.dumps(value))
    return ("whole",)


def join_table(layout: Any, pieces: list[bytes]) -> Any:
    """The table :func:`split_table` gave ``layout`` and ``pieces`` for, unmarshalled a piece at a time."""
    rest = iter(pieces)
    table = _join(layout, rest)
    if next(rest, None) is not None:
        raise ValueError("pieces left over")
    return table


def _join(layout: Any, pieces: Iterator[bytes]) -> Any:
    kind = layout[0]
    if kind == "tuple":
        return tuple([_join(part, pieces) for part in layout[1]])
    if kind == "dict":
        joined: dict[Any, Any] = {}
        for _ in range(layout[1]):
            joined.update(marshal.loads(next(pieces)))
        return joined
    if kind == "list":
        items: list[Any] = []
        for _ in range(layout[1]):
            items += marshal.loads(next(pieces))
        return items
    return marshal.loads(next(pieces))


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
    table = _load(path, digest)
    if table is not None:
        return table
    # One build per file at a time, in a process and across processes: a second
    # thread asking meanwhile (the app loads a model for Compare while Train
    # asks the codec) or another process (the app's encode worker, loading the
    # same models at its first start) waits, then loads what the first stored,
    # instead of 2 s more of Python beside it on the same cores.
    with _file_lock(path), _process_lock(path):
        table = _load(path, digest)
        if table is not None:
            return table
        table = build()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(path, marshal.dumps((digest, *split_table(table))))
        except (OSError, FileError):
            pass  # a read-only home: the next process builds it again
        return table


def cached_file(name: str, key: tuple, suffix: str, build: Callable[[Path], None], *builders: Callable[..., Any],
                folder: Path | None = None) -> Path:
    """The file ``build(path)`` writes for ``key``, built by the first caller and kept.

    For a table better opened than loaded (the input method's SQLite index): the file is
    named for the digest of ``key`` and of the building code, written under a temporary
    name and renamed, so a file under that name is always whole; files of the same
    ``name`` with another digest (an older dictionary or build) are removed, and so are
    temporary files a killed build left.  One build at a time per file, in a process and
    across processes.  Where the folder cannot be written (read-only, full), the error of
    the build or of the folder is raised: the caller keeps what it built otherwise.
    """
    path = cached_file_path(name, key, suffix, build, *builders, folder=folder)
    folder = path.parent
    if path.is_file():
        return path
    with _file_lock(path), _process_lock(path) as locked:
        if path.is_file():
            return path
        if locked:  # no other process is building: any temporary file is a killed build's
            for stale in folder.glob(f".{name}-*{suffix}.*.tmp"):
                stale.unlink(missing_ok=True)
        tmp = folder / f".{path.name}.{os.getpid()}.tmp"
        try:
            build(tmp)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    for old in folder.glob(f"{name}-*{suffix}"):
        if old != path:
            try:
                old.unlink()  # a process that has it open keeps reading it
                old.with_suffix(".lock").unlink(missing_ok=True)
            except OSError:
                pass
    return path


def cached_file_path(name: str, key: tuple, suffix: str, build: Callable[[Path], None],
                     *builders: Callable[..., Any], folder: Path | None = None) -> Path:
    """Where :func:`cached_file` keeps the file for these arguments (it may not be built yet)."""
    return (folder or user_cache_dir()) / f"{name}-{_digest(key, (build, *builders))[:24]}{suffix}"


def _load(path: Path, digest: str) -> Any:
    """The table stored at ``path`` under ``digest``; None if there is none."""
    try:
        # The pieces come back as bytes: a copy, not the table's objects.
        stored_digest, layout, pieces = marshal.loads(path.read_bytes())
        if stored_digest == digest:
            return join_table(layout, pieces)
    except (OSError, EOFError, ValueError, TypeError, IndexError, StopIteration):
        pass  # no file yet, or a damaged one: build it again
    return None


@contextmanager
def _process_lock(path: Path) -> Iterator[bool]:
    """Hold ``path``'s lock file (beside it) against other processes while the block runs;
    yields whether it is held.

    Where there is no ``fcntl`` or the folder cannot be written, there is no
    lock: each process builds for itself, as it would with no cache.
    """
    try:
        import fcntl
    except ImportError:  # Windows
        yield False
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_suffix(".lock"), "a")  # noqa: SIM115 (held across the yield)
    except OSError:
        yield False
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes (or the process ends)
        yield True


def _file_lock(path: Path) -> threading.Lock:
    with _locks_lock:
        return _locks.setdefault(path, threading.Lock())
