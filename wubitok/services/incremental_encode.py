"""Encoding a text again after an edit by encoding only the lines the edit touched.

Every engine cuts its input into pre-tokens before merging (BPE, Wubi-BPE), looking
up words (WordPiece) or solving a lattice (Unigram), and no token spans two pre-tokens.
A *line start* -- a position right after ``"\\n"`` whose character is not whitespace --
is a cut of every engine's pre-tokenizer that depends on nothing further away: the GPT-4
and Wubi "joined" patterns end a match at the last line break of a whitespace run and
never carry one into the next match; Unigram's words and BERT's splits end at any
whitespace.  (No special token spans a line break either.)  So the encoding of a text
is the encodings of the pieces between any line starts, side by side, and after an edit
only the piece from the last line start before it to the first line start after it
changes: the rest of the tokens are kept, those after the edit moved by its length.
``tests/services/test_incremental_encode.py`` checks, for every engine, that the result
is exactly the full run's.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from ..engines.base import Encoding, Tokenizer
from .tokenized import EncodedRange, PackedEncoding


@dataclass(frozen=True)
class Edit:
    """Where two texts differ: ``old[start:old_end]`` became ``new[start:new_end]``."""

    start: int
    old_end: int
    new_end: int


def find_edit(old: str, new: str) -> Edit:
    """The shortest middle part that differs (the common start and end left out)."""
    prefix = _common_length(old, new, 0, min(len(old), len(new)), lambda t, a, b: t[a:b])
    rest = min(len(old), len(new)) - prefix
    suffix = _common_length(old, new, 0, rest, lambda t, a, b: t[len(t) - b: len(t) - a])
    return Edit(prefix, len(old) - suffix, len(new) - suffix)


CHUNK = 1 << 16


def _common_length(old: str, new: str, low: int, high: int, piece) -> int:
    """How far ``piece(text, 0, n)`` is the same in both texts, at most ``high``: chunk by chunk
    (each comparison a memcmp of a copy), then a binary search in the chunk that differs, so
    that the cost follows the length in common, not the texts' (about 1 ms at 1 MB)."""
    while low + CHUNK <= high and piece(old, low, low + CHUNK) == piece(new, low, low + CHUNK):
        low += CHUNK
    high = min(high, low + CHUNK)
    base = low
    while low < high:
        mid = (low + high + 1) // 2
        if piece(old, base, mid) == piece(new, base, mid):
            low = mid
        else:
            high = mid - 1
    return low


def _is_line_start(text: str, i: int) -> bool:
    return 0 < i < len(text) and text[i - 1] == "\n" and not text[i].isspace()


def _line_start_before(text: str, limit: int) -> int:
    """The last line start ``a`` with ``a < limit`` (its character is before ``limit``), else 0."""
    end = limit - 1
    while end > 0:
        newline = text.rfind("\n", 0, end)
        if newline < 0:
            return 0
        if _is_line_start(text, newline + 1):
            return newline + 1
        end = newline
    return 0


def _line_start_after(text: str, limit: int) -> int:
    """The first line start ``b`` whose line break is at or after ``limit``, else ``len(text)``."""
    start = limit
    while True:
        newline = text.find("\n", start)
        if newline < 0:
            return len(text)
        if _is_line_start(text, newline + 1):
            return newline + 1
        start = newline + 1


def _shifted(offsets: list[tuple[int, int]], by: int) -> list[tuple[int, int]]:
    return [(s + by, e + by) for s, e in offsets] if by else offsets


def _partial(enc: Encoding) -> list[bool]:
    return enc.partial if len(enc.partial) == len(enc.ids) else [False] * len(enc.ids)


@dataclass(frozen=True)
class Reencoded:
    """The encoding of the new text, and how much of it was encoded again."""

    encoding: Encoding
    start: int  # new[start:end] was encoded; the tokens outside it were kept
    end: int


def reencode(tokenizer: Tokenizer, old: str, old_encoding: Encoding, new: str) -> Reencoded:
    """``tokenizer.encode(new)``, from ``old_encoding = tokenizer.encode(old)`` and the lines
    of ``new`` that differ from ``old`` (see the module doc)."""
    edit = find_edit(old, new)
    # Both cuts are in the part the texts share, so they are line starts of both texts.
    start = _line_start_before(new, edit.start)
    end = _line_start_after(new, edit.new_end)
    old_end = end + (len(old) - len(new))
    starts = old_encoding.offsets
    first_kept_after = bisect_left(starts, old_end, key=lambda o: o[0]) if end < len(new) else len(starts)
    last_kept_before = bisect_left(starts, start, key=lambda o: o[0]) if start > 0 else 0
    middle = tokenizer.encode(new[start:end])
    before, after = slice(0, last_kept_before), slice(first_kept_after, None)
    partial = (_partial(old_encoding)[before] + _partial(middle) + _partial(old_encoding)[after]
               if old_encoding.partial or middle.partial else [])
    encoding = Encoding(
        old_encoding.ids[before] + middle.ids + old_encoding.ids[after],
        old_encoding.tokens[before] + middle.tokens + old_encoding.tokens[after],
        old_encoding.offsets[before] + _shifted(middle.offsets, start)
        + _shifted(old_encoding.offsets[after], end - old_end),
        partial,
    )
    return Reencoded(encoding, start, end)


def line_pieces(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """``text[start:end]`` (both line starts, or its ends) cut at its line starts: the pieces
    every engine encodes alone (see the module doc)."""
    end = len(text) if end is None else end
    pieces = []
    while start < end:
        cut = min(_line_start_after(text, start), end)
        pieces.append((start, cut))
        start = cut
    return pieces


def reencode_packed(tokenizer: Tokenizer, old: PackedEncoding, new: str, edit: Edit
                    ) -> tuple[PackedEncoding, EncodedRange]:
    """:func:`reencode` on a packed encoding, from an edit the caller knows: the tokens encoded
    again (their offsets in ``new``) and where they go; the new encoding is
    ``old.spliced(where.first, where.stop, tokens, where.char_shift)``."""
    start = _line_start_before(new, edit.start)
    end = _line_start_after(new, edit.new_end)
    old_end = end + (edit.old_end - edit.new_end)
    first = old.tokens_before(start) if start > 0 else 0
    stop = old.tokens_before(old_end) if end < len(new) else len(old)
    middle = tokenizer.encode(new[start:end])
    packed = PackedEncoding.pack(Encoding(middle.ids, middle.tokens, _shifted(middle.offsets, start),
                                          middle.partial))
    where = EncodedRange(start, old_end, end, first, stop, len(middle.ids))
    return packed, where
