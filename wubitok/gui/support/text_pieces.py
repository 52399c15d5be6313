"""A long text cut into pieces for a document, one piece per step.

Qt lays out and reports each piece on its own (a turn of the event loop each, or the GIL let go
between them), so no single step takes long.  A cut never falls between a CR and its LF, which a
document reads as one line break, and falls after a line break where the window has one.
"""
from __future__ import annotations

import re
from typing import Sequence, overload

# Pieces of about this many characters (each about 1 ms of the GIL to insert; 10-15 ms with
# the layout of a shown editor).
DOCUMENT_PIECE_CHARS = 16_000


def document_pieces(text: str | Sequence[str], size: int = DOCUMENT_PIECE_CHARS) -> Sequence[str]:
    """``text`` (a ``str``, or its parts: :func:`~wubitok.text.builder.text_parts`) cut into pieces
    of about ``size`` characters, each copied out only when it is asked for: copying all of Convert's
    10 MB result (19 million characters) out at once was one turn of 103 ms, most of it the first
    touch of 38 MB of new memory.  Parts are cut on their own (a part never ends between a CR and
    its LF)."""
    return _TextPieces([text] if isinstance(text, str) else text, size)


class _Pieces(Sequence[str]):
    """A text as pieces, each made on demand: ``_piece(i)`` for ``0 <= i < len(self)``."""

    def _piece(self, i: int) -> str:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...

    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        return self._piece(i % len(self))


class _TextPieces(_Pieces):
    def __init__(self, parts: Sequence[str], size: int):
        self._parts = parts
        self._spans: list[tuple[int, int, int]] = []  # each piece's part, and its start and end in it
        for index, text in enumerate(parts):
            start = 0
            while start < len(text):
                end = min(start + size, len(text))
                if end < len(text):
                    newline = text.rfind("\n", start, end)
                    if newline >= 0:
                        end = newline + 1
                    elif text[end - 1] == "\r" and text[end] == "\n":
                        end = end - 1 if end - 1 > start else end + 1  # the pair goes to one piece
                self._spans.append((index, start, end))
                start = end

    def __len__(self) -> int:
        return len(self._spans)

    def _piece(self, i: int) -> str:
        part, start, end = self._spans[i]
        return self._parts[part][start:end]


_NEWLINE = re.compile(rb"\n")  # searches a memoryview in place, where bytes.rfind needs a copy


def _continues(raw: memoryview, i: int) -> bool:
    return i < len(raw) and raw[i] & 0xC0 == 0x80  # a UTF-8 continuation byte


class Utf8Pieces(_Pieces):
    """UTF-8 bytes as pieces of text, each decoded only when it is asked for.

    A long paste reads the clipboard as bytes: ``QMimeData.text`` on 10 MB took 50-60 ms in one
    call (Qt's string, then its copy into a Python one), ``data`` 27 ms; the bytes are read in
    place through a ``memoryview`` (copying 30 MB out of the ``QByteArray`` was 2-26 ms more), and
    decoded a piece per turn.  The cuts fall after the first line break in a piece's last quarter
    if it has one, else in front of a byte that starts a character (or is not UTF-8 at all), never
    inside a sequence, so the pieces decode to what the whole does, U+FFFD for each bad sequence
    as :meth:`bytes.decode` gives it with ``"replace"``.
    """

    def __init__(self, raw: bytes | memoryview, size: int = 2 * DOCUMENT_PIECE_CHARS):
        # ``size`` in bytes: 32,000 is ~10,700 Han characters, or 32,000 ASCII ones.
        self._raw = raw = memoryview(raw).cast("B")
        self._cuts = [0]
        start = 0
        while start < len(raw):
            end = min(start + size, len(raw))
            if end < len(raw):
                newline = _NEWLINE.search(raw, start + 3 * (end - start) // 4, end)
                if newline is not None:
                    end = newline.end()
                else:
                    while end > start and _continues(raw, end):
                        end -= 1
                    if end == start:  # nothing but continuation bytes: cut after them
                        end = min(start + size, len(raw))
                        while _continues(raw, end):
                            end += 1
                    elif raw[end - 1] == 0x0D and raw[end] == 0x0A:
                        end = end - 1 if end - 1 > start else end + 1
            self._cuts.append(end)
            start = end

    def __len__(self) -> int:
        return len(self._cuts) - 1

    def _piece(self, i: int) -> str:
        return str(self._raw[self._cuts[i]:self._cuts[i + 1]], "utf-8", "replace")
