"""What each character of a text costs in symbols: Wubi spelling against UTF-8.

Before any merge, a tokenizer over the Wubi codec sees a character as its
spelling (keys, final key, index digits), a byte-level tokenizer as its
UTF-8 bytes.  BPE then has to buy back the difference with merges, so the
characters that cost more symbols under Wubi than under bytes, weighted by
how often they occur, are where Wubi-BPE starts behind: rare characters
with long indexes under a common prefix, characters the table ranks low
although this text uses them a lot.  ``char_costs`` reports that per
character; ``wubitok codec-cost`` prints it.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .codec import CodecOptions, WubiCodec


@dataclass(frozen=True)
class CharCost:
    char: str
    count: int
    spelling: str  # the Wubi spelling as typed (ASCII keys, final key upper case, index digits)
    wubi: int  # symbols under the Wubi codec
    utf8: int  # UTF-8 bytes

    @property
    def extra(self) -> int:
        """Symbols Wubi spends beyond bytes over all occurrences (negative: saves)."""
        return (self.wubi - self.utf8) * self.count


@dataclass(frozen=True)
class CostReport:
    chars: list[CharCost]  # every distinct character, costliest extra first
    options: CodecOptions

    @property
    def total_chars(self) -> int:
        return sum(c.count for c in self.chars)

    @property
    def wubi_symbols(self) -> int:
        return sum(c.wubi * c.count for c in self.chars)

    @property
    def utf8_bytes(self) -> int:
        return sum(c.utf8 * c.count for c in self.chars)

    def by_script(self) -> dict[str, tuple[int, int, int]]:
        """script -> (characters, Wubi symbols, UTF-8 bytes), for the scripts present."""
        out: dict[str, list[int]] = {}
        for c in self.chars:
            row = out.setdefault(script_of(c.char, c.spelling), [0, 0, 0])
            row[0] += c.count
            row[1] += c.wubi * c.count
            row[2] += c.utf8 * c.count
        return {k: (v[0], v[1], v[2]) for k, v in out.items()}


def script_of(char: str, spelling: str) -> str:
    """A coarse script class: Han in GB2312, other Han the codec spells in
    Wubi, Han it spells as bytes (no code), ASCII, everything else."""
    if char.isascii():
        return "ascii"
    if not spelling:
        return "other"
    try:
        char.encode("gb2312")
        return "han (GB2312)"
    except UnicodeEncodeError:
        return "han (outside GB2312)"


def char_costs(text: str, options: CodecOptions | None = None) -> CostReport:
    codec = WubiCodec(options or CodecOptions())
    rows = []
    for ch, n in Counter(text).items():
        sp = codec.spelling(ch)
        utf8 = len(ch.encode("utf-8", "surrogatepass"))
        in_wubi = codec.spells_in_wubi(ch)
        if not in_wubi and ch.isascii():
            spelling = ""
        else:
            spelling = codec.display(sp) if in_wubi else ""
        rows.append(CharCost(ch, n, spelling, len(sp), utf8))
    rows.sort(key=lambda c: (-c.extra, -c.count, c.char))
    return CostReport(rows, codec.options)
