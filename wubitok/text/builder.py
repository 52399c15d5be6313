"""A long text kept in parts, never one ``str``: made of millions of short strings, or read as slices.

A thread of the app that builds a book's conversion shares the GIL with the GUI thread, which must
get it back every few milliseconds.  One ``"".join`` of 20 million short strings held it 218 ms;
joined a few thousand at a time, the last join, one copy of the whole text, still held it 94-126 ms
in a run of six: the first touch of 20-40 MB of new memory, a page fault every 4 KB.  A text in
parts of ~64,000 characters is copied into memory that was touched before, a part at a time, and
the GUI puts it into a document a piece at a time anyway.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Sequence

PART_CHARS = 1 << 16  # characters per part, about
# A text as slices (string, start, end) of strings, read in order: an editor's text between edits
# (the app's DocumentText), which copying whole for one key held the GUI thread up to 122 ms at 10 MB.
Slices = Sequence[tuple[str, int, int]]


def text_parts(strings: Iterable[str], size: int = PART_CHARS) -> list[str]:
    """The concatenation of ``strings`` in parts of about ``size`` characters (a part ends with
    the string that takes it to ``size`` or past it).  No part but the last ends with a CR, so a
    CR LF pair, which a document reads as one line break, is never cut."""
    parts: list[str] = []
    part: list[str] = []
    length = 0
    for s in strings:
        if not s:
            continue
        part.append(s)
        length += len(s)
        if length >= size and not s.endswith("\r"):
            parts.append("".join(part))
            part.clear()
            length = 0
    if part:
        parts.append("".join(part))
    return parts


def text_blocks(text: str | Slices, size: int = PART_CHARS) -> Iterator[str]:
    """``text`` (a string, or its slices) in blocks of ``size`` characters, the last one shorter
    (none empty).  Short slices are read together: a long paste is slices of 16,000 characters, and
    a reader that carries an unfinished token to the next block would read it again per slice."""
    pending: list[str] = []
    length = 0
    for whole, start, end in [(text, 0, len(text))] if isinstance(text, str) else text:
        at = start
        while at < end:
            take = min(end - at, size - length)
            pending.append(whole[at:at + take])
            length += take
            at += take
            if length == size:
                yield "".join(pending)
                pending.clear()
                length = 0
    if pending:
        yield "".join(pending)


def same_text(text: str | Slices, parts: Sequence[str]) -> bool:
    """``text == "".join(parts)`` (``text`` a string or its slices), nothing joined."""
    left, right = text_blocks(text), (part for part in parts if part)
    a = b = ""
    while True:
        a = a or next(left, "")
        b = b or next(right, "")
        if not a or not b:
            return not a and not b
        n = min(len(a), len(b))
        if a[:n] != b[:n]:
            return False
        a, b = a[n:], b[n:]
