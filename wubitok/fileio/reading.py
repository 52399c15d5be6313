"""Reading user files with one-line errors.

Bytes in, characters out: line endings and a byte-order mark are kept as text,
so that a file read and written back is the same file.
"""
from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

from ..errors import FileError
from .detection import DETECT_BYTES, detect_encoding, first_not_ascii, is_cut, refusal_reason
from .encoding import encoding_label, normalize_encoding

# Far beyond any real tokenizer file (the largest public tokenizer.json files
# are tens of MB): a model file bigger than this is refused before it is read.
MAX_MODEL_BYTES = 512 << 20
# What a command reads whole (ids, user data, phrase tables, settings): more is refused after
# reading this much, so that /dev/zero or a wrong huge file is one line, not a MemoryError.
MAX_WHOLE_FILE_BYTES = 256 << 20
# Big enough to make file reading cheap, small enough to keep memory bounded.
CHUNK_CHARS = 1 << 20
# NUL characters in a row that no text file has: a sparse file (a 2 GB one reads as 2 GB of NULs),
# a disk image or another binary file.  Refused as soon as they are read, so such a file is one
# line within a second, not minutes of work (issue #37, 6).  UTF-16's NUL bytes are no NUL characters.
NUL_RUN = 1024
_NULS = "\0" * NUL_RUN
_NUL_BYTES = _NULS.encode("ascii")


@dataclass(frozen=True)
class TextFile:
    """A decoded file and the encoding it was read with (a Python codec name)."""

    text: str
    encoding: str


@dataclass(frozen=True)
class SaveFormat:
    """What a plain-text editor drops from a file and saving puts back: the
    byte-order mark and the line ending (an editor shows every line break as ``\\n``)."""

    newline: str = "\n"
    bom: bool = False
    encoding: str = "utf-8"  # the file's, a Python codec name

    @classmethod
    def of(cls, file: TextFile) -> SaveFormat:
        """How a file as read is saved: its first line ending, whether it starts with a BOM, its encoding."""
        match = re.search(r"\r\n|\r|\n", file.text)
        return cls(match.group() if match else "\n", file.text.startswith("\ufeff"), file.encoding)

    def apply(self, edited: str, encoding: str) -> str:
        """``edited`` (an editor's text: ``\\n`` line ends, no BOM) as the file's text
        again, to be saved in ``encoding``.  The BOM is kept in UTF-8 and UTF-16, and
        added when converting to UTF-16, which is not recognised without one."""
        text = edited.replace("\n", self.newline) if self.newline != "\n" else edited
        target = codecs.lookup(encoding).name
        if target.startswith("utf-16") and not codecs.lookup(self.encoding).name.startswith("utf-16"):
            bom = True
        else:
            bom = self.bom and target in ("utf-8", "utf-16-le", "utf-16-be")
        return "\ufeff" + text if bom and not text.startswith("\ufeff") else text


class TextPath(os.PathLike):
    """A path with the encoding to read it with; what :func:`check_readable_text`
    returns, so that a file is detected once and read the same way after."""

    def __init__(self, path: str | os.PathLike, encoding: str) -> None:
        self.path = Path(path)
        self.encoding = encoding

    def __fspath__(self) -> str:
        return os.fspath(self.path)

    @property
    def name(self) -> str:
        return self.path.name

    def stat(self) -> os.stat_result:
        return self.path.stat()

    def __str__(self) -> str:
        return str(self.path)

    def __repr__(self) -> str:
        return f"TextPath({str(self.path)!r}, {self.encoding!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TextPath) and (self.path, self.encoding) == (other.path, other.encoding)

    def __hash__(self) -> int:
        return hash((self.path, self.encoding))



def _open_error(path: Path, exc: OSError) -> FileError:
    if isinstance(exc, FileNotFoundError):
        return FileError(f"{path}: no such file", code="file.missing", path=str(path))
    if isinstance(exc, IsADirectoryError):
        return FileError(f"{path}: is a directory, not a file", code="file.directory", path=str(path))
    if isinstance(exc, PermissionError):
        return FileError(f"{path}: permission denied", code="file.permission", path=str(path))
    reason = str(exc.strerror or exc)
    return FileError(f"{path}: cannot read ({reason})", code="file.unreadable", path=str(path), reason=reason)


def _decode_error(path: Path, encoding: str, offset: int, tail: bytes | None = None) -> FileError:
    """``tail``: the bytes from ``offset`` to the end (read from ``path`` when not given)."""
    label = encoding_label(encoding)
    if tail is None:
        try:
            with open(path, "rb") as fh:
                fh.seek(offset)
                tail = fh.read(8)
        except OSError:
            tail = None
    if tail is not None and is_cut(tail, encoding):
        return FileError(f"{path}: ends in the middle of a {label} character (offset {offset}): was the file cut off?"
                         f" Repair its end, or give --encoding to read it as something else",
                         code="file.cut", path=str(path), encoding=label, offset=offset)
    # (UTF-16's unit is two bytes: a lone surrogate is no one byte to name)
    byte = f" 0x{tail[0]:02X}" if tail and not encoding.startswith("utf-16") else ""
    return FileError(f"{path}: not {label} text (invalid byte{byte} at offset {offset}); "
                     f"give --encoding if the file is in another encoding",
                     code="file.not_encoding", path=str(path), encoding=label, offset=offset)


def _nul_error(path: str | os.PathLike) -> FileError:
    return FileError(f"{path}: not text: {NUL_RUN:,} or more NUL characters in a row (a sparse or binary file?)",
                     code="file.nul_run", path=str(path))


def _not_text_error(path: Path, utf8_offset: int, reason: str) -> FileError:
    # The UTF-8 offset is the one a user can check in a hex viewer; the other
    # encodings failed somewhere too, or read as no Chinese text: ``reason`` says which.
    hint = "" if "--encoding" in reason else "; give --encoding if you know its encoding"
    return FileError(f"{path}: not UTF-8 text (invalid byte at offset {utf8_offset}), nor GB18030, Big5 or UTF-16: "
                     f"{reason}{hint}", code="file.not_text", path=str(path), offset=utf8_offset)


def _first_invalid_byte(path: Path, encoding: str) -> int:
    """Byte offset of the first byte ``encoding`` cannot decode in ``path`` (read in chunks)."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    offset = 0
    with open(path, "rb") as fh:
        while True:
            chunk = fh.read(1 << 20)
            # The decoder buffers an incomplete sequence at a chunk's end; what
            # it holds back is counted with the chunk that completes it.
            pending = len(decoder.getstate()[0])
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                return offset - pending + exc.start
            offset += len(chunk)
            if not chunk:
                return offset


def _read_window(path: Path) -> tuple[bytes, bool, int]:
    """The bytes of a file that detection looks at (see :func:`_detection_window`), whether they
    run to its end, and where they start; read without reading the whole file."""
    try:
        with open(path, "rb") as fh:
            start = 0
            while True:  # plain ASCII tells no encoding: on to the first other byte
                chunk = fh.read(1 << 20)
                if _NUL_BYTES in chunk:  # the ASCII before the first other byte, as read
                    raise _nul_error(path)
                found = first_not_ascii(chunk)
                if found is not None or not chunk:
                    start = start + found if found is not None else 0
                    break
                start += len(chunk)
            fh.seek(start)
            head = fh.read(DETECT_BYTES + 1)
    except OSError as exc:
        raise _open_error(path, exc) from None
    return head[:DETECT_BYTES], len(head) <= DETECT_BYTES, start


def _detection_window(data: bytes) -> tuple[bytes, bool, int]:
    """What detection looks at in a file's ``data``, whether it runs to the end, and where it
    starts: ``DETECT_BYTES`` from the first byte that is not ASCII (the English before the
    Chinese tells nothing, however long).  Whole or streamed, a file is judged by the same
    bytes, so every command gives it the same answer."""
    start = first_not_ascii(data) or 0
    return data[start:start + DETECT_BYTES], start + DETECT_BYTES >= len(data), start


def file_encoding(path: str | os.PathLike, encoding: str | None = None) -> str:
    """The encoding to read ``path`` with: the given one (or a :class:`TextPath`'s),
    else the one detected from its first 64 KB; a file that is not text is a FileError."""
    given = normalize_encoding(encoding) if encoding is not None else getattr(path, "encoding", None)
    if given is not None:
        return given
    head, complete, start = _read_window(Path(path))
    detected = detect_encoding(head, complete=complete, at_start=start == 0)
    if detected is None:
        raise _not_text_error(Path(path), _first_invalid_byte(Path(path), "utf-8"),
                              refusal_reason(head, complete=complete, start=start))
    return detected


def read_stream(fh: BinaryIO, max_bytes: int = MAX_WHOLE_FILE_BYTES, *, name: str = "<stdin>") -> bytes:
    """All of a stream (standard input), refused beyond ``max_bytes``."""
    data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise _too_big(name, max_bytes)
    return data


def _too_big(name: str, max_bytes: int) -> FileError:
    return FileError(f"{name}: too big (more than {max_bytes >> 20} MB)", code="file.too_big", path=name,
                     limit_mb=max_bytes >> 20)


def _read_bytes(p: Path, max_bytes: int | None, *, text: bool = False) -> bytes:
    """``text``: a run of NULs in the first megabyte is refused at once (see NUL_RUN)."""
    try:
        with open(p, "rb") as fh:
            if max_bytes is None:
                return fh.read()
            # Checked on what is read, not on the size the file claims: a
            # device or a growing file has no honest size.  A sparse file is refused on its
            # first megabyte, not after max_bytes of NULs.
            data = fh.read(min(max_bytes + 1, 1 << 20))
            if text and _NUL_BYTES in data:
                raise _nul_error(p)
            if len(data) == 1 << 20:
                data += fh.read(max_bytes + 1 - len(data))
    except OSError as exc:
        raise _open_error(p, exc) from None
    if len(data) > max_bytes:
        raise _too_big(str(p), max_bytes)
    return data


def decode_text(data: bytes, encoding: str | None = None, *, path: str | os.PathLike = "-") -> TextFile:
    """``data`` (a file's bytes) as text, in ``encoding`` or the detected one."""
    p = Path(path)
    chosen = normalize_encoding(encoding) if encoding is not None else getattr(path, "encoding", None)
    if chosen is None:
        head, complete, start = _detection_window(data)
        chosen = detect_encoding(head, complete=complete, at_start=start == 0)
        if chosen is None:
            offset = 0
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                offset = exc.start
            raise _not_text_error(p, offset, refusal_reason(head, complete=complete, start=start))
    try:
        text = data.decode(chosen)
    except UnicodeDecodeError as exc:
        raise _decode_error(p, chosen, exc.start, data[exc.start:]) from None
    if _NULS in text:
        raise _nul_error(path)
    return TextFile(text, chosen)


def read_text_file(path: str | os.PathLike, encoding: str | None = None, *,
                   max_bytes: int | None = MAX_WHOLE_FILE_BYTES) -> TextFile:
    """The whole file as text, with the encoding it was read in.

    ``encoding`` None (or "auto") detects it; a :class:`TextPath` brings its own.
    A file of more than ``max_bytes`` is refused (after reading no more than that).
    """
    return decode_text(_read_bytes(Path(path), max_bytes, text=True), encoding, path=path)


def read_text(path: str | os.PathLike, encoding: str | None = None, *,
              max_bytes: int | None = MAX_WHOLE_FILE_BYTES) -> str:
    """The whole file as text (see :func:`read_text_file`)."""
    return read_text_file(path, encoding, max_bytes=max_bytes).text


def read_model_bytes(path: str | os.PathLike) -> bytes:
    """A tokenizer file's bytes; one far beyond any real model's size is refused before it is read."""
    return _read_bytes(Path(path), MAX_MODEL_BYTES)


def read_model_text(path: str | os.PathLike) -> str:
    """A tokenizer file's text (see :func:`read_model_bytes`: its size is checked first)."""
    return decode_text(read_model_bytes(path), path=path).text



def iter_text_chunks(path: str | os.PathLike, chunk_chars: int = CHUNK_CHARS,
                     encoding: str | None = None) -> Iterator[str]:
    """Stream a text file in chunks of about ``chunk_chars`` characters.

    The encoding is detected from the file's start unless given.  Newlines are
    not translated, so the chunks joined equal the file's text.
    """
    p = Path(path)
    chosen = file_encoding(path, encoding)
    try:
        fh = open(p, "r", encoding=chosen, newline="")
    except OSError as exc:
        raise _open_error(p, exc) from None
    with fh:
        while True:
            try:
                chunk = fh.read(chunk_chars)
            except UnicodeDecodeError:
                raise _decode_error(p, chosen, _first_invalid_byte(p, chosen)) from None
            except OSError as exc:
                raise _open_error(p, exc) from None
            if not chunk:
                return
            if _NULS in chunk:
                raise _nul_error(p)
            yield chunk


def iter_lines(paths: Iterable[str | os.PathLike], encoding: str | None = None) -> Iterator[str]:
    """Lines (with their line endings) of several text files, streamed."""
    for path in paths:
        tail = ""
        for chunk in iter_text_chunks(path, encoding=encoding):
            lines = (tail + chunk).splitlines(keepends=True)
            tail = lines.pop() if lines and not lines[-1].endswith(("\n", "\r")) else ""
            yield from lines
        if tail:
            yield tail


def check_readable_text(paths: Iterable[str | os.PathLike], *, allow_empty: bool = False,
                        encoding: str | None = None) -> list[TextPath]:
    """Fail early, with one line, on a missing, non-text or empty corpus file.

    Returns each file with the encoding it is read in (detected once, here).
    """
    checked = []
    for path in paths:
        p = TextPath(path, file_encoding(path, encoding))
        size = 0
        for chunk in iter_text_chunks(p):
            size += len(chunk)
        if size == 0 and not allow_empty:
            raise FileError(f"{p}: file is empty", code="file.empty", path=str(p))
        checked.append(p)
    if not checked:
        raise FileError("no input files given", code="file.none_given")
    return checked
