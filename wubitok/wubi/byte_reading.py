"""Reading the ``shared-bytes`` codec layout, whose Wubi symbols are byte values.

A key is a UTF-8 continuation byte, a final key another one, a shared code's
index the byte of its value (``wubi.codec``'s module doc).  What a byte is
depends on what came before it, so everything that reads such symbols -
decoding, display, the fast encoder's offsets, the app's token table - reads
them with :func:`read_bytes` from a state.  Kept apart from the codec, with
the byte forms they show in, so that reading a token where it stands
(:class:`ByteReading`, ``engines.base``) imports no codec tables or regex.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar, NamedTuple, Sequence, Union

from .dictionary import WUBI_KEYS

# ``shared-bytes``: where the Wubi symbols sit among the byte values (module doc)
ON_BYTES_KEY, ON_BYTES_FINAL, ON_BYTES_END = 0x80, 0x80 + len(WUBI_KEYS), 0x80 + 2 * len(WUBI_KEYS)
BOUNDARY_TOKEN = "\u2581"


def _gpt2_byte_chars() -> list[str]:
    # GPT-2's map: printable Latin-1 bytes stand for themselves, the rest are
    # shifted to U+0100 and up, so that no byte shows as whitespace or control.
    keep = list(range(0x21, 0x7F)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    chars = {}
    extra = 0
    for b in range(256):
        if b in keep:
            chars[b] = chr(b)
        else:
            chars[b] = chr(0x100 + extra)
            extra += 1
    return [chars[b] for b in range(256)]


BYTE_TOKENS = _gpt2_byte_chars()

#: Where ``shared-bytes`` reading stands between two symbols: None at a character's start, an int
#: for the UTF-8 continuation bytes still to come, a str for the keys of a Wubi spelling read so
#: far, ``"#"`` where a shared code's index comes next.
ByteState = Union[int, str, None]


class ByteUnit(NamedTuple):
    """One character (or run of ASCII) of ``shared-bytes`` symbols as ``read_bytes`` read it:
    ``data[start:end]``.  ``wubi``: a Wubi spelling, whose ``keys`` are those read here (after the
    keys of a state it began in); else UTF-8 or ASCII bytes.  ``idx``: a shared code's index, or
    -1 none, -2 not something the encoder writes, -3 cut off by the end inside the keys or UTF-8, -4
    cut off before its index (the state says where)."""

    start: int
    end: int
    wubi: bool
    keys: str
    idx: int

    def shown(self, data: Sequence[int], final_key: bool, index_forms: Sequence[str]) -> str:
        """The token form with keys in ASCII (``WubiCodec.display``): ``wqiY``, ``W②``."""
        if not self.wubi:
            return "".join(BYTE_TOKENS[b] for b in data[self.start : self.end])
        keys = self.keys
        if self.idx not in (-2, -3) and keys:
            keys = keys[:-1] + keys[-1].upper() if final_key else keys + BOUNDARY_TOKEN
        return keys + (index_forms[self.idx] if self.idx >= 0 else "")


def read_bytes(data: Sequence[int], state: ByteState, is_shared: Callable[[str], bool],
               final_key: bool = True) -> tuple[list[ByteUnit], ByteState]:
    """``shared-bytes`` byte values read left to right from ``state``, and the state after them.

    At a character's start a byte below 0x80 is ASCII, a lead byte starts a character of UTF-8
    with as many continuation bytes as it announces, and a continuation byte - which UTF-8 never
    puts there - starts a Wubi spelling: keys, a final key (or the separator) and, when
    ``is_shared(code)``, the index byte.  The one reading for decoding, display and offsets; it
    needs of the table only which codes are shared."""
    units: list[ByteUnit] = []
    n, i = len(data), 0
    if not n:
        return units, state
    keys = ""
    if isinstance(state, int):  # the rest of a UTF-8 character
        while i < n and i < state and 0x80 <= data[i] < 0xC0:
            i += 1
        cut = i == n and i < state
        units.append(ByteUnit(0, i, False, "", -3 if cut else -1))
        if cut:
            return units, state - i
    elif state == "#":  # a shared code's index
        units.append(ByteUnit(0, 1, True, "", data[0]))
        i = 1
    elif isinstance(state, str):
        keys = state
    while i < n:
        start, b = i, data[i]
        if not keys:
            if b < 0x80:
                while i < n and data[i] < 0x80:
                    i += 1
                units.append(ByteUnit(start, i, False, "", -1))
                continue
            if b >= 0xC0:
                last = start + (2 if b < 0xE0 else 3 if b < 0xF0 else 4 if b < 0xF8 else 1)
                i += 1
                while i < min(n, last) and 0x80 <= data[i] < 0xC0:
                    i += 1
                if i == n < last:
                    units.append(ByteUnit(start, i, False, "", -3))
                    return units, last - i
                units.append(ByteUnit(start, i, False, "", -1))
                continue
        here = ""
        while i < n and ON_BYTES_KEY <= data[i] < ON_BYTES_FINAL:
            here += WUBI_KEYS[data[i] - ON_BYTES_KEY]
            i += 1
        if i == n and (here or keys):  # cut inside the keys
            units.append(ByteUnit(start, i, True, here, -3))
            return units, keys + here
        b = data[i]
        if final_key and ON_BYTES_FINAL <= b < ON_BYTES_END or not final_key and b == ON_BYTES_FINAL and keys + here:
            here += WUBI_KEYS[b - ON_BYTES_FINAL] if final_key else ""
            i += 1
            if not is_shared(keys + here):
                units.append(ByteUnit(start, i, True, here, -1))
            elif i == n:
                units.append(ByteUnit(start, i, True, here, -4))
                return units, "#"
            else:
                units.append(ByteUnit(start, i + 1, True, here, data[i]))
                i += 1
        else:  # keys that no final key ended, or a continuation byte no spelling starts with
            if i == start and not keys:
                i += 1
            units.append(ByteUnit(start, i, i > start and data[start] < ON_BYTES_END or bool(keys), here, -2))
        keys = ""
    return units, None


def begins_inside(offsets: Sequence[tuple[int, int]], i: int) -> bool:
    """Whether token ``i`` of an encoding begins inside a character: the token before it ends in
    the character it starts in."""
    return i > 0 and offsets[i - 1][1] > offsets[i][0]


@dataclass(frozen=True)
class ByteReading:
    """Reads ``shared-bytes`` tokens where they stand in an encoding (``WubiCodec.byte_reading``):
    a token alone does not say whether it begins inside a character, or inside which part of
    one.  Small and plain, so the app's process has it without the codec's tables."""

    shared: frozenset[str]
    final_key: bool
    index_forms: tuple[str, ...]

    #: tokens looked back at most for where a character starts (a piece spans few)
    LOOK_BACK: ClassVar[int] = 64

    def units_at(self, token_data: Callable[[int], Sequence[int]], ids: Sequence[int],
                 offsets: Sequence[tuple[int, int]], i: int) -> tuple[Sequence[int], list[ByteUnit]]:
        """Token ``i``'s byte values (``token_data(id)``) and its units, read on from the tokens
        before it back to where a character starts; from a character's start if that is
        further back than ``LOOK_BACK`` tokens."""
        first = i
        while begins_inside(offsets, first) and i - first < self.LOOK_BACK:
            first -= 1
        state: ByteState = None
        for k in range(first, i) if not begins_inside(offsets, first) else ():
            state = read_bytes(token_data(ids[k]), state, self.shared.__contains__, self.final_key)[1]
        data = token_data(ids[i])
        return data, read_bytes(data, state, self.shared.__contains__, self.final_key)[0]

    def spelling_at(self, token_data: Callable[[int], Sequence[int]], ids: Sequence[int],
                    offsets: Sequence[tuple[int, int]], i: int) -> str:
        """``keys_display`` of token ``i`` where it stands: a piece after a character's first
        shows the keys and index it holds of that character (``hab#34``)."""
        return byte_keys_display(*self.units_at(token_data, ids, offsets, i))

    def display_at(self, token_data: Callable[[int], Sequence[int]], ids: Sequence[int],
                   offsets: Sequence[tuple[int, int]], i: int) -> str:
        """``display`` of token ``i`` where it stands (a piece: its keys, no character)."""
        data, units = self.units_at(token_data, ids, offsets, i)
        return "".join(unit.shown(data, self.final_key, self.index_forms) for unit in units)


def byte_keys_display(data: Sequence[int], units: Sequence[ByteUnit]) -> str:
    """``keys_display`` of units ``read_bytes`` read: a Wubi unit's keys and ``#`` index, bytes in
    GPT-2 form (a run of them as one group), ``·`` between groups."""
    groups: list[str] = []
    bytes_run = False  # the last group is a run of bytes
    for unit in units:
        if unit.wubi:
            groups.append(unit.keys + (f"#{unit.idx}" if unit.idx >= 0 else ""))
            bytes_run = False
            continue
        shown = "".join(BYTE_TOKENS[b] for b in data[unit.start : unit.end])
        if bytes_run:
            groups[-1] += shown
        else:
            groups.append(shown)
        bytes_run = True
    return "·".join(groups)


