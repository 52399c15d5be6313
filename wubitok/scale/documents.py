"""Documents of a corpus, and the line-aligned byte ranges that split it for workers.

A corpus is a list of UTF-8 files; ``docs`` says what one document is:

* ``lines``: each line, without its ``\\n`` (or ``\\r\\n``); an empty line is
  an empty document, so output document i is input line i;
* ``paragraphs``: each run of non-blank lines (a blank line holds only
  spaces, tabs or line breaks), with its inner line breaks, without the last;
* ``files``: each file's whole text, as it is.

(For counting pre-tokens there is one more kind of cut, ``blocks``: before a
line whose first character is not whitespace, where no pre-token of any
engine can go on.)

A range never cuts a document: in ``lines`` mode it ends after a ``\\n``, in
``paragraphs`` mode after a blank line, in ``files`` mode at the end of the
file.  Since a ``\\n`` byte is never inside a UTF-8 sequence, every range
decodes on its own, and the documents of the ranges in order are the
documents of the corpus whatever the range size, which is what makes the
output independent of how the work is split.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from ..errors import FileError, InputError
from ..fileio import _open_error

DOC_MODES = ("lines", "paragraphs", "files")
# Work per task: big enough that a task's overhead is small, small enough
# that workers stay busy to the end and memory stays a few MB per worker.
RANGE_BYTES = 1 << 20
_BLANK = " \t\r\n\f\v"


@dataclass(frozen=True)
class ByteRange:
    """``[start, end)`` bytes of ``path``; ``index`` is its place in the corpus."""

    index: int
    path: str
    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start


def check_doc_mode(docs: str) -> str:
    if docs not in DOC_MODES and docs != "blocks":
        raise InputError(f"unknown document kind {docs!r} (known: {', '.join(DOC_MODES)})")
    return docs


def _next_cut(fh, pos: int, size: int, docs: str) -> int:
    """The first document boundary at or after ``pos`` (the file size if none)."""
    fh.seek(pos)
    if pos > 0:
        fh.seek(pos - 1)
        if fh.read(1) != b"\n":  # pos is inside a line: skip to its end
            fh.readline()
    while docs == "paragraphs":
        line = fh.readline()
        if not line or line.strip(_BLANK.encode()) == b"":
            break
    while docs == "blocks":
        # Counting: a line start whose first character is not whitespace ends
        # every engine's pre-token (engines.corpus.last_safe_cut), so counts
        # of the ranges add up to the counts of the whole text.
        start = fh.tell()
        line = fh.readline()
        if not line or not line[:4].decode("utf-8", "ignore")[:1].isspace():
            fh.seek(start)
            break
    return min(fh.tell(), size)


def byte_ranges(paths: Sequence[str | os.PathLike], docs: str = "lines",
                range_bytes: int = RANGE_BYTES) -> list[ByteRange]:
    """Cut the files into ranges of about ``range_bytes`` at document boundaries."""
    check_doc_mode(docs)
    out: list[ByteRange] = []
    for path in _checked(paths):
        size = path.stat().st_size
        if docs == "files" or size <= range_bytes:
            out.append(ByteRange(len(out), str(path), 0, size))
            continue
        with open(path, "rb") as fh:
            start = 0
            while start < size:
                end = _next_cut(fh, min(start + range_bytes, size), size, docs)
                out.append(ByteRange(len(out), str(path), start, end))
                start = end
    return out


def _checked(paths: Sequence[str | os.PathLike]) -> list[Path]:
    # Open each file now, so a missing one fails before any work starts; the
    # UTF-8 check happens range by range as the text is read.
    out = []
    for path in paths:
        p = Path(path)
        try:
            with open(p, "rb"):
                pass
        except OSError as exc:
            raise _open_error(p, exc) from None
        if p.is_dir():
            raise FileError(f"{p}: is a directory, not a file")
        out.append(p)
    if not out:
        raise InputError("no input files given")
    return out


def read_range(rng: ByteRange) -> str:
    try:
        with open(rng.path, "rb") as fh:
            fh.seek(rng.start)
            data = fh.read(rng.size)
    except OSError as exc:
        raise FileError(f"{rng.path}: cannot read ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileError(f"{rng.path}: not UTF-8 text (invalid byte at offset {rng.start + exc.start})") from None


def split_documents(text: str, docs: str) -> list[str]:
    """The documents in ``text``, the text of one whole range."""
    if docs == "files":
        return [text]
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the text ended with a line break: no empty line after it
    if docs == "lines":
        return [line[:-1] if line.endswith("\r") else line for line in lines]
    out: list[str] = []
    para: list[str] = []
    for line in lines:
        if line.strip(_BLANK):
            para.append(line)
        elif para:
            out.append("\n".join(para).removesuffix("\r"))
            para = []
    if para:
        out.append("\n".join(para).removesuffix("\r"))
    return out


def iter_documents(paths: Sequence[str | os.PathLike] | str | os.PathLike, docs: str = "lines") -> Iterator[str]:
    """Every document of the corpus in order, streamed a range at a time."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    for rng in byte_ranges(paths, docs):
        yield from split_documents(read_range(rng), docs)

