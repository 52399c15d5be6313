"""Which encoding a text file is in, told from its bytes.

A byte-order mark decides; else valid UTF-8 is UTF-8.  Otherwise each reading
of the bytes (GB18030, Big5, and UTF-8 with a flaw) is scored by how surprising
its characters are in Chinese text, from the frequency lists in
``resources/frequency`` (Rime's essay: simplified for GB18030, traditional for
Big5): the right reading is made of frequent characters, the wrong one of rare
characters, kana, symbols and private-use code points.  Frequency, not just
"decodes without error", matters most on short texts, where both readings
decode: ``bench/bench_encoding_detection.py`` measures it beside
charset-normalizer, which on short Chinese texts mostly names a Korean or
Japanese code page.

A reading with a flaw (a few bytes that are not that encoding: a file cut
inside its last character, or a character pasted in from another encoding) is
still chosen when it is by far the most plausible: reading the file in that
encoding then fails with a one-line error at the flaw, instead of reading it as
mojibake in an encoding that merely decodes every byte.  And when even the likeliest
reading is made of rare characters (Shift-JIS Japanese in GB18030), the file is no
text we read, which is said, rather than read as mojibake.

The constants below were set on the bench's dev split; docs/benchmarks.md reports
the held-out test split.
"""
from __future__ import annotations

import codecs
import math
from dataclasses import dataclass
from functools import lru_cache

from ..paths import resources_dir

# How much of a file the encoding is guessed from.
DETECT_BYTES = 1 << 16
# Legacy encodings a file without a BOM may be in.  GB18030 is a superset of GBK and GB2312,
# so it reads all three.
LEGACY_CHINESE = ("gb18030", "big5")
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
# Control characters never seen in text files: a decoding that yields them is wrong.
_BINARY_CONTROLS = frozenset(chr(c) for c in range(32) if chr(c) not in "\t\n\v\f\r\x1b")

# Surprise (negative log-probability, in nats) of a character in Chinese text.  A listed
# character of rank r costs log(r + 2) (Zipf's law); the rest by kind.
_FREQUENCY_LISTS = {"gb18030": "simplified.txt", "big5": "traditional.txt"}
_PUNCTUATION = frozenset("，。、；：？！「」『』（）《》〈〉“”‘’…—·●■□◆○★【】～　"
                         "─│┌┐└┘├┤┬┴┼") | frozenset(map(chr, range(0xFF01, 0xFF5F)))  # + full-width ASCII
_PUNCTUATION_COST = math.log(30)
# No-break spaces, Latin-1 signs, general punctuation, arrows, circled numbers, shapes: web and
# office text has them among Chinese (four-byte sequences in GB18030, never mojibake of two-byte ones).
_SYMBOL_RANGES = (("\u00a0", "\u00bf"), ("\u2000", "\u206f"), ("\u2190", "\u21ff"), ("\u2460", "\u24ff"),
                  ("\u25a0", "\u25ff"))
_SYMBOL_COST = math.log(300)
_RARE_HAN_COST = math.log(18_000)  # a Han character or symbol beyond the lists: 3 x the lists' length
_FOREIGN_COST = math.log(180_000)  # kana, Greek, Cyrillic, Hangul, private use... in a Chinese text
# A flaw (bytes the encoding cannot read) costs as much as three foreign characters.
_FLAW_COST = 3 * _FOREIGN_COST
# GB18030 is the more common of the two legacy encodings: it wins a tie, and near-ties.
_PRIOR_COST = {"gb18030": 0.0, "big5": 1.0, "utf-8": 0.0}
# A flawed reading is evidence only with enough characters around its flaws: at least this
# many non-ASCII characters, and no more than one flaw per _CHARS_PER_FLAW of them.
_MIN_CHARS_FOR_FLAWS = 4
_CHARS_PER_FLAW = 8
# Invalid bytes within this many bytes of where a flaw starts belong to it (one foreign 4-byte
# character is one flaw; a longer run of invalid bytes is several).
_FLAW_SPAN = 4
# More flaws than this in the bytes detection looks at: not a file with a flaw, but no such text.
_MAX_FLAWS = 8
# A reading whose characters average this surprise is no Chinese text, but text in an encoding
# we do not read (Shift-JIS Japanese reads as rare Han characters in GB18030): refused, once
# there are enough characters to tell.  Chinese text averages 4-7.
_IMPLAUSIBLE_COST = 9.0
_MIN_CHARS_TO_REFUSE = 16


@lru_cache(maxsize=None)
def _costs(encoding: str) -> dict[str, float]:
    """The surprise of the listed characters and the punctuation, in text in ``encoding``."""
    if encoding == "utf-8":  # UTF-8 holds either script: each character as its likelier one
        simplified, traditional = _costs("gb18030"), _costs("big5")
        return {c: min(simplified.get(c, math.inf), traditional.get(c, math.inf)) for c in {*simplified, *traditional}}
    name = _FREQUENCY_LISTS[encoding]
    listed = (resources_dir() / "frequency" / name).read_text(encoding="utf-8").strip()
    costs = dict.fromkeys(_PUNCTUATION, _PUNCTUATION_COST)
    costs.update((char, math.log(rank + 2)) for rank, char in enumerate(listed))
    return costs


def _unlisted_cost(char: str) -> float:
    if any(low <= char <= high for low, high in _SYMBOL_RANGES):
        return _SYMBOL_COST
    if ("\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf" or "\u3000" <= char <= "\u303f"
            or "\uff00" <= char <= "\uffef" or "\U00020000" <= char <= "\U0003134f"):
        return _RARE_HAN_COST
    return _FOREIGN_COST


def _surprise(text: str, costs: dict[str, float]) -> float:
    """The surprise of the non-ASCII characters of ``text``."""
    total = 0.0
    for char in text:
        if char >= "\x80":
            cost = costs.get(char)
            total += _unlisted_cost(char) if cost is None else cost
    return total


@dataclass(frozen=True)
class _Reading:
    encoding: str
    cost: float  # surprise of the non-ASCII characters, plus the flaws and the prior
    flaws: int
    chars: int  # non-ASCII characters

    @property
    def implausible(self) -> bool:
        return self.chars >= _MIN_CHARS_TO_REFUSE and self.cost > _IMPLAUSIBLE_COST * self.chars


def _decode_with_flaws(data: bytes, encoding: str, final: bool) -> tuple[str, int] | None:
    """``data`` decoded, skipping what ``encoding`` cannot read, and the number of flaws
    skipped; None past ``_MAX_FLAWS``."""
    parts, flaws, errors, pos, flaw_start = [], 0, 0, 0, -_FLAW_SPAN
    while True:
        decoder = codecs.getincrementaldecoder(encoding)("strict")
        try:
            parts.append(decoder.decode(data[pos:], final=final))
            return "".join(parts), flaws
        except UnicodeDecodeError as exc:
            # Decoding goes on from the next byte, not from where the codec resumes: a codec
            # that swallowed a lead byte and the next would read the rest out of step.
            start = pos + exc.start
            parts.append(data[pos:start].decode(encoding))
            errors += 1
            if start >= flaw_start + _FLAW_SPAN:
                flaws, flaw_start = flaws + 1, start
            if flaws > _MAX_FLAWS or errors > _FLAW_SPAN * _MAX_FLAWS:
                return None
            pos = start + 1


def _reading(data: bytes, encoding: str, final: bool) -> _Reading | None:
    decoded = _decode_with_flaws(data, encoding, final)
    if decoded is None:
        return None
    text, flaws = decoded
    if not _BINARY_CONTROLS.isdisjoint(text):
        return None
    wide = len(text) - len(text.encode("ascii", "ignore"))
    if flaws and (wide < _MIN_CHARS_FOR_FLAWS or flaws * _CHARS_PER_FLAW > wide):
        return None
    cost = _surprise(text, _costs(encoding)) + flaws * _FLAW_COST + _PRIOR_COST[encoding]
    return _Reading(encoding, cost, flaws, wide)


def _decode_head(head: bytes, encoding: str, complete: bool) -> str | None:
    """``head`` decoded, or None when it is not ``encoding``; a multi-byte
    character cut at the end of an incomplete head is not an error."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    try:
        return decoder.decode(head, final=complete)
    except UnicodeDecodeError:
        return None


def is_cut(tail: bytes, encoding: str) -> bool:
    """Whether ``tail`` (a file's last bytes from where decoding failed) is the start of a
    character in ``encoding`` and nothing more: the file was cut inside a character."""
    return 0 < len(tail) < 4 and _decode_head(tail, encoding, False) == ""


def detect_encoding(head: bytes, *, complete: bool = True) -> str | None:
    """The encoding of a text file starting with ``head`` (the whole file when
    ``complete``), or None when it is not text in any encoding we detect.

    The encoding returned may not read every byte: then its reading was by far the
    most plausible one and the bytes it cannot read are a flaw that reading reports.
    """
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    if _decode_head(head, "utf-8", complete) is not None:
        return "utf-8"  # valid UTF-8 is read as it always was, controls and all
    cut = _decode_head(head, "utf-8", False) if complete else None
    if cut is not None and not cut.isascii():
        # UTF-8 characters, then one cut at the very end (a truncated file or download): still
        # UTF-8, which reading then reports; never the legacy encoding that happens to decode it.
        # (One stray high byte after plain ASCII, like Latin-1 "café", is no evidence of UTF-8.)
        return "utf-8"
    readings = [r for r in (_reading(head, e, complete) for e in (*LEGACY_CHINESE, "utf-8")) if r]
    if not readings:
        return None
    best = min(readings, key=lambda r: r.cost)
    return None if best.implausible else best.encoding
