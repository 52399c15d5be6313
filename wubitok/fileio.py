"""Reading user files with clear errors, and writing them atomically."""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Iterable, Iterator

from .errors import FileError

# Big enough to make file reading cheap, small enough to keep memory bounded.
CHUNK_CHARS = 1 << 20


def _open_error(path: Path, exc: OSError) -> FileError:
    if isinstance(exc, FileNotFoundError):
        return FileError(f"{path}: no such file")
    if isinstance(exc, IsADirectoryError):
        return FileError(f"{path}: is a directory, not a file")
    if isinstance(exc, PermissionError):
        return FileError(f"{path}: permission denied")
    return FileError(f"{path}: cannot read ({exc.strerror or exc})")


def _decode_error(path: Path, offset: int) -> FileError:
    return FileError(f"{path}: not UTF-8 text (invalid byte at offset {offset})")


def _first_invalid_byte(path: Path) -> int:
    """Byte offset of the first invalid UTF-8 sequence in ``path`` (read in chunks)."""
    offset, pending = 0, b""
    with open(path, "rb") as fh:
        while True:
            chunk = fh.read(1 << 20)
            data = pending + chunk
            try:
                data.decode("utf-8")
                offset, pending = offset + len(data), b""
            except UnicodeDecodeError as exc:
                # A sequence cut by the chunk end is not an error yet: carry it over.
                if chunk and exc.reason == "unexpected end of data" and exc.end == len(data):
                    offset, pending = offset + exc.start, data[exc.start:]
                else:
                    return offset + exc.start
            if not chunk:
                return offset


def read_text(path: str | os.PathLike) -> str:
    """The whole file as text.  UTF-8 only (a BOM is kept as text: it is data)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise _open_error(p, exc) from None
    try:
        # newline="" semantics: bytes in, characters out, nothing translated.
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _decode_error(p, exc.start) from None


def iter_text_chunks(path: str | os.PathLike, chunk_chars: int = CHUNK_CHARS) -> Iterator[str]:
    """Stream a UTF-8 file in chunks of about ``chunk_chars`` characters.

    Newlines are not translated, so the chunks joined equal the file's text.
    """
    p = Path(path)
    try:
        fh = open(p, "r", encoding="utf-8", newline="")
    except OSError as exc:
        raise _open_error(p, exc) from None
    with fh:
        while True:
            try:
                chunk = fh.read(chunk_chars)
            except UnicodeDecodeError:
                raise _decode_error(p, _first_invalid_byte(p)) from None
            except OSError as exc:
                raise _open_error(p, exc) from None
            if not chunk:
                return
            yield chunk


def iter_lines(paths: Iterable[str | os.PathLike]) -> Iterator[str]:
    """Lines (with their line endings) of several UTF-8 files, streamed."""
    for path in paths:
        tail = ""
        for chunk in iter_text_chunks(path):
            lines = (tail + chunk).splitlines(keepends=True)
            tail = lines.pop() if lines and not lines[-1].endswith(("\n", "\r")) else ""
            yield from lines
        if tail:
            yield tail


def check_readable_text(paths: Iterable[str | os.PathLike], *, allow_empty: bool = False) -> list[Path]:
    """Fail early, with one line, on a missing, non-UTF-8 or empty corpus file."""
    checked = []
    for path in paths:
        p = Path(path)
        size = 0
        for chunk in iter_text_chunks(p):
            size += len(chunk)
        if size == 0 and not allow_empty:
            raise FileError(f"{p}: file is empty")
        checked.append(p)
    if not checked:
        raise FileError("no input files given")
    return checked


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one.

    The temp file sits in the same folder so that ``os.replace`` is a rename on
    one filesystem, never a copy that could be interrupted half-way.
    """
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    # os.open with mode 0o666 (not mkstemp's 0o600) so the file gets the
    # permissions the user's umask gives any new file.
    for _ in range(100):
        tmp = folder / f".{p.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise FileError(f"{p}: cannot write ({exc.strerror or exc})") from None
    else:
        raise FileError(f"{p}: cannot create a temporary file in {folder}")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise FileError(f"{p}: cannot write ({exc.strerror or exc})") from None
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))
