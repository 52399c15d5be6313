"""Documents of a corpus, and the line-aligned byte ranges that split it for workers.

A corpus is a list of text files, each in its encoding (UTF-8, GB18030/GBK,
Big5, UTF-16: given, brought by a ``fileio.TextPath``, or detected as every
command detects it); ``docs`` says what one document is:

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
file.  A ``\\n`` is found as its code unit: the byte 0x0A in UTF-8, GB18030
and Big5 (never inside one of their multi-byte characters), the aligned
unit ``0A 00`` / ``00 0A`` in UTF-16 (where a lone 0x0A byte is often half of
a character such as 上, ``0A 4E``).  So every range decodes on its own, and
the documents of the ranges in order are the documents of the corpus whatever
the range size, which is what makes the output independent of how the work
is split.
"""
from __future__ import annotations

import codecs
import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator, Sequence

from ..errors import FileError, InputError
from ..fileio import file_encoding, normalize_encoding
from ..fileio.reading import _decode_error, _open_error

DOC_MODES = ("lines", "paragraphs", "files")
# Work per task: big enough that a task's overhead is small, small enough
# that workers stay busy to the end and memory stays a few MB per worker.
RANGE_BYTES = 1 << 20
_BLANK = " \t\r\n\f\v"


@dataclass(frozen=True)
class ByteRange:
    """``[start, end)`` bytes of ``path``, text in ``encoding``; ``index`` is its place in the corpus."""

    index: int
    path: str
    start: int
    end: int
    encoding: str = "utf-8"

    @property
    def size(self) -> int:
        return self.end - self.start


def check_doc_mode(docs: str) -> str:
    if docs not in DOC_MODES and docs != "blocks":
        raise InputError(f"unknown document kind {docs!r} (known: {', '.join(DOC_MODES)})")
    return docs


@dataclass(frozen=True)
class TextLayout:
    """How a file's bytes hold its text, as far as cutting it needs."""

    codec: str  # what each range is decoded with
    unit: int  # bytes per code unit: cuts fall on multiples of it
    newline: bytes  # "\\n" in this encoding
    start: int  # where the text starts: after a byte-order mark the codec itself drops


def text_layout(path: str | os.PathLike, encoding: str | None = None) -> TextLayout:
    """The layout of ``path``: ``encoding`` if given, else a TextPath's, else the detected one."""
    codec = codecs.lookup(file_encoding(path, encoding)).name
    unit = {"utf-16": 2, "utf-16-le": 2, "utf-16-be": 2, "utf-32": 4, "utf-32-le": 4, "utf-32-be": 4}.get(codec, 1)
    start = 0
    if codec in ("utf-16", "utf-32"):
        # The generic codecs read a BOM at the start only; ranges are decoded
        # with the byte order it names (little-endian without one, as Python).
        with open(path, "rb") as fh:
            head = fh.read(4)
        big = head.startswith((codecs.BOM_UTF32_BE if unit == 4 else codecs.BOM_UTF16_BE))
        bom = (codecs.BOM_UTF32_BE, codecs.BOM_UTF32_LE) if unit == 4 else (codecs.BOM_UTF16_BE, codecs.BOM_UTF16_LE)
        start = unit if head.startswith(bom) else 0
        codec += "-be" if big else "-le"
    return TextLayout(codec, unit, "\n".encode(codec), start)


def _readline(fh: BinaryIO, layout: TextLayout) -> bytes:
    """The bytes up to and including the next newline unit (or to the end of the file)."""
    if layout.unit == 1:
        return fh.readline()
    out = bytearray()
    while True:
        block = fh.read(4096 * layout.unit)  # positions stay multiples of the unit
        if not block:
            return bytes(out)
        j = block.find(layout.newline)
        while j >= 0 and j % layout.unit:
            j = block.find(layout.newline, j + 1)
        if j >= 0:
            end = j + layout.unit
            fh.seek(end - len(block), os.SEEK_CUR)
            return bytes(out + block[:end])
        out += block


def _first_char(line: bytes, layout: TextLayout) -> str:
    return line[: 4 * max(layout.unit, 2)].decode(layout.codec, "ignore")[:1]


def _next_cut(fh: BinaryIO, pos: int, size: int, docs: str, layout: TextLayout) -> int:
    """The first document boundary at or after ``pos`` (the file size if none)."""
    pos += -pos % layout.unit
    if pos >= size:
        return size
    fh.seek(pos - layout.unit)
    if fh.read(layout.unit) != layout.newline:  # pos is inside a line: skip to its end
        _readline(fh, layout)
    while docs == "paragraphs":
        line = _readline(fh, layout)
        if not line or not line.decode(layout.codec, "ignore").strip(_BLANK):
            break
    while docs == "blocks":
        # Counting: a line start whose first character is not whitespace ends
        # every engine's pre-token (engines.corpus.last_safe_cut), so counts
        # of the ranges add up to the counts of the whole text.
        start = fh.tell()
        line = _readline(fh, layout)
        if not line or not _first_char(line, layout).isspace():
            fh.seek(start)
            break
    return min(fh.tell(), size)


def byte_ranges(paths: Sequence[str | os.PathLike], docs: str = "lines", range_bytes: int = RANGE_BYTES,
                encoding: str | None = None) -> list[ByteRange]:
    """Cut the files into ranges of about ``range_bytes`` at document boundaries.

    ``encoding`` None: each file's own (a TextPath's, else detected); a name
    (``gbk``, ``utf-16``...): every file in it."""
    check_doc_mode(docs)
    given = normalize_encoding(encoding)
    out: list[ByteRange] = []
    for path in _checked(paths):
        layout = text_layout(path, given)
        size = Path(path).stat().st_size
        if docs == "files" or size - layout.start <= range_bytes:
            out.append(ByteRange(len(out), os.fspath(path), layout.start, size, layout.codec))
            continue
        with open(path, "rb") as fh:
            start = layout.start
            while start < size:
                end = _next_cut(fh, min(start + range_bytes, size), size, docs, layout)
                out.append(ByteRange(len(out), os.fspath(path), start, end, layout.codec))
                start = end
    return out


def _checked(paths: Sequence[str | os.PathLike]) -> list[str | os.PathLike]:
    # Open each file now, so a missing one fails before any work starts; the
    # encoding check happens range by range as the text is read.
    out: list[str | os.PathLike] = []
    for path in paths:
        p = Path(path)
        try:
            with open(p, "rb"):
                pass
        except OSError as exc:
            raise _open_error(p, exc) from None
        if p.is_dir():
            raise FileError(f"{p}: is a directory, not a file")
        out.append(path)  # a TextPath keeps its encoding
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
        return data.decode(rng.encoding)
    except UnicodeDecodeError as exc:
        raise _decode_error(Path(rng.path), rng.encoding, rng.start + exc.start) from None


def split_documents(text: str, docs: str) -> list[str]:
    """The documents in ``text``, the text of one whole range."""
    if docs == "files":
        return [text]
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the text ended with a line break: no empty line after it
    if docs == "lines":
        if "\r" not in text:
            return lines
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


def iter_documents(paths: Sequence[str | os.PathLike] | str | os.PathLike, docs: str = "lines",
                   encoding: str | None = None) -> Iterator[str]:
    """Every document of the corpus in order, streamed a range at a time."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    for rng in byte_ranges(paths, docs, encoding=encoding):
        yield from split_documents(read_range(rng), docs)

