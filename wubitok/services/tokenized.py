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
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, compress
from typing import Callable, Iterable, TypeVar

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


def np_ints(values) -> array:
    """A numpy vector of ints as :func:`ints` makes them: 32-bit where they fit."""
    import numpy as np

    big = len(values) and (values.max() > 2**31 - 1 or values.min() < -(2**31))
    out = array("q" if big else "i")
    out.frombytes(values.astype(np.int64 if big else np.int32).tobytes())
    return out


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
    """Strings, in one buffer of fixed-width code units: UTF-16 where every character is one
    unit (no astral character, no lone surrogate), else UTF-32.  Pickled as bytes, so
    unpickling is a copy: as one str, the 17 million characters of a 10 MB text's tokens were
    decoded from UTF-8 in one call holding the GIL (71 ms), and an edit's splice of them was
    str concatenation (58 ms)."""

    __slots__ = ("width",)

    def __init__(self, flat: bytes | bytearray, ends: array, width: int = 2):
        super().__init__(flat, ends)
        self.width = width

    @classmethod
    def of(cls, strings: Sequence[str]) -> "Joined":
        flat, width = _code_units("".join(strings))
        return cls(flat, _ends(map(len, strings)), width)

    def item(self, i: int) -> str:
        w = self.width
        return self.flat[w * (self.ends[i - 1] if i else 0) : w * self.ends[i]].decode(_CODECS[w], "surrogatepass")

    def widened(self, width: int) -> "Joined":
        """The same strings in ``width``-byte units, never fewer than they are in (numpy: no str
        of them made; every UTF-16 unit here is a whole character, so it is its UTF-32 unit too)."""
        if width == self.width:
            return self
        import numpy as np

        return Joined(np.frombuffer(self.flat, "<u2").astype("<u4").tobytes(), self.ends, width)

    def units(self, start: int, stop: int) -> memoryview:
        """The code units of characters ``[start, stop)`` of the strings run together, in place."""
        return memoryview(self.flat)[self.width * start : self.width * stop]

    def __reduce__(self):
        return Joined, (self.flat, self.ends, self.width)


_CODECS = {2: "utf-16-le", 4: "utf-32-le"}


def _code_units(text: str) -> tuple[bytes, int]:
    """``text`` as UTF-16 code units where each character is one, else as UTF-32; the width."""
    try:
        units = text.encode("utf-16-le")
    except UnicodeEncodeError:  # a lone surrogate: as UTF-16 it could pair with its neighbour
        units = b""
    if len(units) == 2 * len(text):
        return units, 2
    return text.encode("utf-32-le", "surrogatepass"), 4


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

    def tokens_before(self, position: int) -> int:
        """How many tokens start before ``position`` (a binary search: tokens are in text order).
        Not numpy's searchsorted on :meth:`starts`: a strided view, copied whole at each call."""
        flat = self.offsets.flat
        return bisect_left(range(len(self)), position, key=lambda i: flat[2 * i])

    def head(self, n: int) -> "PackedEncoding":
        """The first ``n`` tokens (the starts of the buffers, copied)."""
        return self if n >= len(self) else self.part(0, n)

    def part(self, start: int, stop: int) -> "PackedEncoding":
        """Tokens ``[start, stop)``, copied; :meth:`concatenated` puts parts back together."""
        ends = self.tokens.ends
        first, last = (ends[start - 1] if start else 0), (ends[stop - 1] if stop > start else 0)
        tokens = Joined(bytes(self.tokens.units(first, max(first, last))), _moved(ends[start:stop], -first),
                        self.tokens.width)
        return PackedEncoding(self.ids[start:stop], tokens, Pairs(self.offsets.flat[2 * start : 2 * stop]),
                              self.partial[start:stop])

    @classmethod
    def concatenated(cls, parts: Sequence["PackedEncoding"]) -> "PackedEncoding":
        """``parts`` end to end, copied a piece at a time (:func:`_extend`)."""
        width = max(p.tokens.width for p in parts)
        units = bytearray()
        chars = 0
        ends = []
        for p in parts:
            _extend(units, p.tokens.widened(width).flat)
            ends.append(_moved(p.tokens.ends, chars))
            chars += p.tokens.ends[-1] if len(p) else 0
        partial = b"".join(p.partial.ljust(len(p), b"\0") for p in parts) if any(p.partial for p in parts) else b""
        return cls(_joined(*(p.ids for p in parts)), Joined(units, _joined(*ends), width),
                   Pairs(_joined(*(p.offsets.flat for p in parts))), partial)

    def shown_part(self, shown_chars: int) -> "PackedEncoding":
        """The tokens a view of the first ``shown_chars`` characters can point at, with the same
        indices: those that start before it, and those that start before one of them ends (the
        other pieces of a character, which a token's readable form counts).  Compare sends only
        these from its workers: at 10 MB the whole encoding was 100-150 MB per model, unpickled in
        the app in one call holding the GIL (the GUI thread asleep 130-290 ms at a time)."""
        k = self.tokens_before(shown_chars)
        if k >= len(self):
            return self
        reach = max(self.offsets.flat[1 : 2 * k : 2], default=0)
        return self.head(max(k, self.tokens_before(reach)))

    def starts(self):
        """Every token's start offset (a numpy view of ``offsets``, read in place)."""
        import numpy as np

        return np.frombuffer(self.offsets.flat, dtype=self.offsets.flat.typecode)[0::2]

    def spliced(self, first: int, stop: int, middle: "PackedEncoding", shift: int) -> "PackedEncoding":
        """Tokens ``[first, stop)`` replaced by ``middle`` (its offsets already in the new text's
        terms), the tokens after them moved by ``shift`` characters: the encoding after an edit.
        Copies of flat buffers (slices of arrays, numpy where numbers move), never a Python
        object per token."""
        ends = self.tokens.ends
        before_chars = ends[first - 1] if first else 0
        through_chars = ends[stop - 1] if stop else 0
        mid_ends = middle.tokens.ends
        mid_chars = mid_ends[-1] if len(mid_ends) else 0
        width = max(self.tokens.width, middle.tokens.width)
        old, mid = self.tokens.widened(width), middle.tokens.widened(width)
        units = bytearray()
        for piece in (old.units(0, before_chars), mid.flat, old.units(through_chars, len(old.flat) // width)):
            _extend(units, piece)
        tokens = Joined(units, _joined(_view(ends, 0, first), _moved(mid_ends, before_chars), _view(ends, stop),
                                       by=before_chars + mid_chars - through_chars), width)
        offsets = self.offsets.flat
        new_offsets = _joined(_view(offsets, 0, 2 * first), middle.offsets.flat, _view(offsets, 2 * stop), by=shift)
        if self.partial or middle.partial:
            partial = (self.partial.ljust(len(self), b"\0")[:first] + middle.partial.ljust(len(middle), b"\0")
                       + self.partial.ljust(len(self), b"\0")[stop:])
        else:
            partial = b""
        return PackedEncoding(_joined(_view(self.ids, 0, first), middle.ids, _view(self.ids, stop)), tokens,
                              Pairs(new_offsets), partial)


# A copy of more than this many bytes is made in pieces.  One C call holds the GIL from start to
# end, and the app's GUI thread waits for it: on the shared 2-core machine copying 34 MB (the token
# strings of a 10 MB text) took 22-45 ms, and an edit's splice copies every buffer of the encoding.
COPY_PIECE = 2 << 20  # a multiple of 8: of every item size


def _extend(out: array | bytearray, data) -> None:
    """``data`` (a buffer) appended to ``out`` a piece of :data:`COPY_PIECE` bytes at a time,
    so that another thread can take the GIL between two pieces."""
    raw = memoryview(data).cast("B")
    for at in range(0, len(raw), COPY_PIECE):
        if isinstance(out, array):
            out.frombytes(raw[at : at + COPY_PIECE])
        else:
            out += raw[at : at + COPY_PIECE]


def _view(values: array, start: int, stop: int | None = None) -> memoryview:
    """``values[start:stop]`` without a copy (a slice of an array is one)."""
    return memoryview(values)[start:stop]


def _code(values: array | memoryview) -> str:
    return values.typecode if isinstance(values, array) else values.format


def _moved(values: array | memoryview, by: int) -> array:
    """``values`` plus ``by`` each, in one numpy pass (64-bit ints where 32 no longer hold them)."""
    if not by or not len(values):
        return values if isinstance(values, array) else array(_code(values), values)
    import numpy as np

    moved = np.frombuffer(values, dtype=_code(values)).astype(np.int64) + by
    return np_ints(moved)


def _joined(*parts: array | memoryview, by: int = 0) -> array:
    """Arrays of ints end to end (memory copies, a piece at a time), in the widest type among
    them; ``by`` added to each of the last one's, in place (numpy, which lets go of the GIL)."""
    last = parts[-1]
    # Offsets and ends grow along the text: the first and last are the extremes.
    if by and len(last) and _code(last) == "i" and not -(2**31) <= int(max(last[0], last[-1])) + by < 2**31 - 1:
        parts = (*parts[:-1], _moved(last, by))  # past 32 bits: the checked way
        by = 0
    code = "q" if any(_code(p) == "q" for p in parts) else "i"
    out = array(code)
    for p in parts:
        if _code(p) != code:
            out.extend(array(code, p.tolist()))
        else:
            _extend(out, p)
    if by and len(last):
        import numpy as np

        view = np.frombuffer(out, dtype=np.int32 if code == "i" else np.int64)
        view[len(view) - len(last):] += by
    return out


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
    def of(cls, text: str, enc: Encoding | PackedEncoding, limit: int = DISPLAY_LIMIT) -> "Spans":
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
    n_chars: int, offsets: Sequence[tuple[int, int]], partial: Sequence[bool] | bytes
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
    return _sweep(bounds, spans, lambda i: i < len(partial) and bool(partial[i]))


def _sweep(bounds: list[int], spans: list[tuple[int, int, int]], partial: Callable[[int], bool]
           ) -> tuple[list[int], list[int], list[tuple[int, ...]], list[bool]]:
    """The segments between consecutive ``bounds``, each with the sorted ``spans`` (start, end,
    token index) that cover it, and whether it is partial (two tokens, or one ``partial``)."""
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
        flags.append(len(toks) > 1 or any(partial(i) for i in toks))
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


def _segments_between(
    lo: int, hi: int, n_chars: int, enc: PackedEncoding, tokens: Iterable[int]
) -> tuple[list[int], list[int], list[tuple[int, ...]], list[bool]]:
    """:func:`build_segments` of ``[lo, hi)`` only, both bounds of the whole cut (0, ``n_chars``
    or a token's start or end), from the ``tokens`` (indices) that may overlap it: the same
    segments, in the same order, with the same covering tokens in the same order."""
    spans = []
    for i in tokens:
        s, e = enc.offsets.item(i)
        if 0 <= s < e and s < n_chars:
            e = min(e, n_chars)
            if s < hi and e > lo:
                spans.append((s, e, i))
    spans.sort()
    bounds = sorted({lo, hi} | {x for s, e, _ in spans for x in (s, e) if lo < x < hi})
    return _sweep(bounds, spans, enc.partial_at)


def document_position(text: str, i: int) -> int:
    """The QTextDocument position of code point ``i`` of ``text`` (see :func:`document_positions`)."""
    return len(text[:i].encode("utf-16-le", "surrogatepass")) // 2 - text.count("\r\n", 0, i)


def _document_positions_of(text: str, points: Sequence[int]) -> list[int]:
    """:func:`document_position` of each of ``points`` (ascending), counted from the first."""
    if not points:
        return []
    out = [document_position(text, points[0])]
    for a, b in zip(points, points[1:]):
        piece = text[a:b]
        width = len(piece.encode("utf-16-le", "surrogatepass")) // 2 - piece.count("\r\n")
        if piece.startswith("\n") and a and text[a - 1] == "\r":
            width -= 1
        out.append(out[-1] + width)
    return out


def spans_after_edit(old: Spans, text: str, enc: PackedEncoding, edit: "EncodedRange",
                     limit: int = DISPLAY_LIMIT) -> Spans:
    """``Spans.of(text, enc, limit)`` made from ``old``, the spans of the text before ``edit``
    (which encoded a piece of it again: :class:`EncodedRange`).  Only the segments of the
    edited piece are made again (and those at the end of the text shown, where it is cut);
    the segments after it are moved, in flat buffers (numpy)."""
    import numpy as np

    def view(a: array):
        return np.frombuffer(a, dtype=a.typecode).astype(np.int64, copy=False)

    shown = min(len(text), limit)
    chars, tokens = edit.char_shift, edit.token_shift
    old_len = len(text) - chars
    if edit.start >= old.shown_chars and edit.start >= shown:
        return Spans(shown, old.seg_start, old.seg_end, old.seg_tokens, old.seg_partial, old.doc_start, old.doc_end)
    seg_start, seg_end = view(old.seg_start), view(old.seg_end)
    n_old = len(seg_start)
    k0 = max(0, bisect_right(old.seg_start, edit.start) - 1)
    lo = int(seg_start[k0]) if n_old else 0
    k1 = max(k0, bisect_left(old.seg_start, edit.old_end))
    # The segments after the edit, moved: all of them where both texts are shown whole, else
    # those that end before the old cut and still end within the new one.
    k2 = n_old
    if not (old.shown_chars == old_len and shown == len(text)):
        keep = (seg_end[k1:] < old.shown_chars) & (seg_end[k1:] + chars <= shown)
        k2 = k1 + (int(np.argmin(keep)) if not keep.all() else len(keep))

    def rebuilt(a: int, b: int, old_k: int):
        if a >= b:
            return [], [], [], []
        # Tokens that start before a and cover it cover the old segment there too.
        earlier = [i + (tokens if i >= edit.stop else 0) for i in (old.seg_tokens[old_k] if old_k < n_old else ())]
        t0 = min([enc.tokens_before(a), *earlier])
        return _segments_between(a, b, shown, enc, range(t0, enc.tokens_before(b)))

    mid_end = min(int(seg_start[k1]) + chars, shown) if k1 < k2 else shown
    mid = rebuilt(lo, mid_end, k0)
    tail = rebuilt(int(seg_end[k2 - 1]) + chars, shown, k2) if k1 < k2 else ([], [], [], [])
    # Flat buffers of the segments: before, the edited piece, moved, the new tail.
    starts = np.concatenate([seg_start[:k0], mid[0], seg_start[k1:k2] + chars, tail[0]]).astype(np.int64)
    ends = np.concatenate([seg_end[:k0], mid[1], seg_end[k1:k2] + chars, tail[1]]).astype(np.int64)
    tok_flat, tok_ends = view(old.seg_tokens.flat), view(old.seg_tokens.ends)
    cut = [int(tok_ends[k - 1]) if k else 0 for k in (k0, k1, k2)]
    mid_rows, tail_rows = Ragged.of(mid[2]), Ragged.of(tail[2])
    flat = np.concatenate([tok_flat[:cut[0]], view(mid_rows.flat), tok_flat[cut[1]:cut[2]] + tokens,
                           view(tail_rows.flat)])
    lengths = np.concatenate([np.diff(tok_ends[:k0], prepend=0), np.diff(view(mid_rows.ends), prepend=0),
                              np.diff(tok_ends[k1:k2], prepend=cut[1]), np.diff(view(tail_rows.ends), prepend=0)])
    partial = old.seg_partial[:k0] + bytes(mid[3]) + old.seg_partial[k1:k2] + bytes(tail[3])
    seg_s, seg_e = np_ints(starts), np_ints(ends)
    if "\r\n" not in text[:shown] and len(text[:shown].encode("utf-16-le", "surrogatepass")) == 2 * shown:
        doc_s, doc_e = seg_s, seg_e
    else:
        doc_s, doc_e = _document_positions_spliced(old, text, starts, ends, k0, k1, k2, len(mid[0]), chars)
    return Spans(shown, seg_s, seg_e, Ragged(np_ints(flat), np_ints(np.cumsum(lengths))), partial, doc_s, doc_e)


def _document_positions_spliced(old: Spans, text: str, starts, ends, k0: int, k1: int, k2: int, n_mid: int,
                                chars: int) -> tuple[array, array]:
    """The document positions of spliced segments: those before the edit kept, those moved
    moved by as many positions as the text before them grew, the others counted."""
    import numpy as np

    doc_start = np.frombuffer(old.doc_start, dtype=old.doc_start.typecode).astype(np.int64)
    doc_end = np.frombuffer(old.doc_end, dtype=old.doc_end.typecode).astype(np.int64)
    moved = k2 - k1
    if moved:
        # The moved segments' text is the same, after a line start: a position moves as the text before it grew.
        shift = document_position(text, int(starts[k0 + n_mid])) - int(doc_start[k1])
    else:
        shift = 0
    counted = list(range(k0, k0 + n_mid)) + list(range(k0 + n_mid + moved, len(starts)))
    points = sorted({int(starts[k]) for k in counted} | {int(ends[k]) for k in counted})
    at = dict(zip(points, _document_positions_of(text, points)))
    new_start = np.concatenate([doc_start[:k0], [at[int(starts[k])] for k in range(k0, k0 + n_mid)],
                                doc_start[k1:k2] + shift,
                                [at[int(starts[k])] for k in range(k0 + n_mid + moved, len(starts))]])
    new_end = np.concatenate([doc_end[:k0], [at[int(ends[k])] for k in range(k0, k0 + n_mid)],
                              doc_end[k1:k2] + shift,
                              [at[int(ends[k])] for k in range(k0 + n_mid + moved, len(starts))]])
    return np_ints(new_start.astype(np.int64)), np_ints(new_end.astype(np.int64))


@dataclass(frozen=True)
class EncodedRange:
    """Where an encoding changed after an edit: ``[start, old_end)`` of the text before it was
    encoded again as ``[start, new_end)`` of the text after it, its tokens ``[first, stop)``
    replaced by ``added`` tokens."""

    start: int
    old_end: int
    new_end: int
    first: int
    stop: int
    added: int

    @property
    def char_shift(self) -> int:
        return self.new_end - self.old_end

    @property
    def token_shift(self) -> int:
        return self.added - (self.stop - self.first)
