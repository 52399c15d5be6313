"""A tokenized text packed for the app: the encoding and the segments its views draw.

The app shows a text's tokens as coloured spans over the text and as a table
(``gui.widgets.token_view``, ``gui.widgets.token_table``).  What those read is
made here, in the encode worker process that has the encoding
(``encode_pool``), and crosses to the app's process as a few flat buffers that
the app reads in place: no list of a hundred thousand tuples is ever built
there.  Building the segments in the app's process was 0.2-0.4 s of Python per
model on 200 KB of text, in job threads that shared the GIL with the GUI
thread, which then waited 30-40 ms at a time for it (``bench/bench_gui_stalls.py``,
``compare_keystroke``; seen with ``perf`` as the GUI thread asleep in the GIL's
futex while a job thread ran ``build_segments``).

* :class:`PackedEncoding`: an :class:`~wubitok.engines.base.Encoding` that
  reads the same (``ids``, ``tokens``, ``offsets``, ``partial`` by index).
* :class:`Spans`: the text cut into *segments*, maximal runs covered by the
  same set of tokens, in code points and in ``QTextDocument`` positions.
"""
from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, compress
from typing import Iterable, TypeVar

from ..engines.base import Encoding

# Past this many characters a view shows the start of the text and says so;
# counts and ids always cover the whole text.
DISPLAY_LIMIT = 200_000
T = TypeVar("T")


def ints(values: Iterable[int]) -> array:
    """``values`` as an array of 32-bit ints where they fit, else of 64-bit ones: half
    the bytes to pickle, and to unpickle in the app's process in one call holding the GIL."""
    values = values if isinstance(values, list) else list(values)
    try:
        return array("i", values)
    except OverflowError:
        return array("q", values)


def _ends(lengths: Iterable[int]) -> array:
    return ints(accumulate(lengths))


class _Indexed(Sequence[T]):
    """Integer indexing (negative too) over ``__len__`` and ``item``; a slice gives a list."""

    __slots__ = ()

    def __len__(self) -> int:
        raise NotImplementedError

    def item(self, i: int) -> T:
        raise NotImplementedError

    def __getitem__(self, i):  # int -> T, slice -> list[T]
        if isinstance(i, slice):
            return [self.item(j) for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self.item(i)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


class _RunTogether(_Indexed[T]):
    """Items run together in ``flat``, with where each ends in it: two objects to pickle, not thousands."""

    __slots__ = ("flat", "ends")

    def __init__(self, flat, ends: array):
        self.flat = flat
        self.ends = ends

    def __len__(self) -> int:
        return len(self.ends)

    def _piece(self, i: int):
        return self.flat[self.ends[i - 1] if i else 0 : self.ends[i]]

    def __reduce__(self):
        return type(self), (self.flat, self.ends)


class Joined(_RunTogether[str]):
    """Strings, in one string."""

    __slots__ = ()

    @classmethod
    def of(cls, strings: Sequence[str]) -> "Joined":
        return cls("".join(strings), _ends(map(len, strings)))

    def item(self, i: int) -> str:
        return self._piece(i)


class Pairs(_Indexed[tuple[int, int]]):
    """``(start, end)`` pairs kept flat: start, end, start, end, ..."""

    __slots__ = ("flat",)

    def __init__(self, flat: array):
        self.flat = flat

    @classmethod
    def of(cls, pairs: Iterable[tuple[int, int]]) -> "Pairs":
        return cls(ints(chain.from_iterable(pairs)))

    def __len__(self) -> int:
        return len(self.flat) // 2

    def item(self, i: int) -> tuple[int, int]:
        return self.flat[2 * i], self.flat[2 * i + 1]

    def __reduce__(self):
        return Pairs, (self.flat,)


class Ragged(_RunTogether[tuple[int, ...]]):
    """Tuples of ints of any length, in one array."""

    __slots__ = ()

    @classmethod
    def of(cls, rows: Sequence[Sequence[int]]) -> "Ragged":
        return cls(ints(chain.from_iterable(rows)), _ends(map(len, rows)))

    def item(self, i: int) -> tuple[int, ...]:
        return tuple(self._piece(i))


@dataclass(frozen=True)
class PackedEncoding:
    """An :class:`Encoding` as a few flat buffers, cheap to pickle, read in place."""

    ids: array
    tokens: Joined
    offsets: Pairs
    partial: bytes  # empty where the engine flags nothing, as ``Encoding.partial``

    @classmethod
    def pack(cls, enc: Encoding) -> "PackedEncoding":
        return cls(ints(enc.ids), Joined.of(enc.tokens), Pairs.of(enc.offsets), bytes(enc.partial))

    def __len__(self) -> int:
        return len(self.ids)

    def partial_at(self, i: int) -> bool:
        return i < len(self.partial) and bool(self.partial[i])


@dataclass(frozen=True)
class Spans:
    """The first ``shown_chars`` characters of a text cut at every token boundary.

    Segment ``i`` is ``[seg_start[i], seg_end[i])`` in code points and
    ``[doc_start[i], doc_end[i])`` in ``QTextDocument`` positions; the segments
    tile the shown text exactly.  ``seg_tokens[i]`` are the indices of the
    tokens covering it; ``seg_partial[i]`` is set where more than one token
    covers it or one that stands for part of a character.

    One array for both units where they are the same (no astral character, no
    CRLF), pickled once: see :func:`ints`.
    """

    shown_chars: int
    seg_start: array
    seg_end: array
    seg_tokens: Ragged
    seg_partial: bytes
    doc_start: array
    doc_end: array

    @classmethod
    def of(cls, text: str, enc: Encoding, limit: int = DISPLAY_LIMIT) -> "Spans":
        shown = min(len(text), limit)
        starts, ends, covering, flags = build_segments(shown, enc.offsets, enc.partial)
        seg_start, seg_end = ints(starts), ints(ends)
        pos = document_positions(text[:shown])
        if pos is None:
            doc_start, doc_end = seg_start, seg_end
        else:
            doc_start, doc_end = ints([pos[s] for s in starts]), ints([pos[e] for e in ends])
        return cls(shown, seg_start, seg_end, Ragged.of(covering), bytes(flags), doc_start, doc_end)


def build_segments(
    n_chars: int, offsets: Sequence[tuple[int, int]], partial: Sequence[bool]
) -> tuple[list[int], list[int], list[tuple[int, ...]], list[bool]]:
    """Cut ``[0, n_chars)`` at every token boundary.

    Returns parallel lists (start, end, covering token indices, partial).
    Spans reaching past ``n_chars`` are cut there.  Tokens with an empty span
    (an added special token) cover nothing and appear in no segment.
    """
    # Tokens are in text order (the engine contract): those past the shown text are not looked at,
    # which on a text of a megabyte is most of them.
    shown = bisect_left(offsets, n_chars, key=lambda o: o[0])
    spans = sorted((s, min(e, n_chars), i) for i, (s, e) in enumerate(offsets[:shown]) if 0 <= s < e)
    # The boundaries in order without a sort: marked in a bytearray, read back.
    marks = bytearray(n_chars + 1)
    marks[0] = marks[n_chars] = 1
    for s, e, _ in spans:
        marks[s] = marks[e] = 1
    bounds = list(compress(range(n_chars + 1), marks))
    starts: list[int] = []
    ends: list[int] = []
    covering: list[tuple[int, ...]] = []
    flags: list[bool] = []
    active: list[tuple[int, int]] = []  # (end, token index)
    j = 0
    for a, b in zip(bounds, bounds[1:]):
        while j < len(spans) and spans[j][0] <= a:
            active.append((spans[j][1], spans[j][2]))
            j += 1
        # Every active span starts at or before a and ends after it; as b is
        # the next boundary, each one covers all of [a, b).
        if active:
            active = [t for t in active if t[0] > a]
        toks = tuple(i for _, i in active)
        starts.append(a)
        ends.append(b)
        covering.append(toks)
        flags.append(len(toks) > 1 or any(i < len(partial) and partial[i] for i in toks))
    return starts, ends, covering, flags


def document_positions(text: str) -> list[int] | None:
    """``pos[i]``: the QTextDocument position of code point ``i`` (None if equal).

    A document counts UTF-16 units (astral characters take two) and stores
    ``\\r\\n`` as one paragraph break.
    """
    if "\r\n" not in text and len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text):
        return None

    def width(i_c: tuple[int, str]) -> int:
        i, c = i_c
        if c == "\n" and i and text[i - 1] == "\r":
            return 0
        return 2 if c >= "\U00010000" else 1

    return list(accumulate(map(width, enumerate(text)), initial=0))
