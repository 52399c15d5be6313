"""Which encoding a text file is in, told from its bytes.

A byte-order mark decides; else valid UTF-8 is UTF-8.  Otherwise each reading
of the bytes (GB18030; Big5 as Windows writes it, CP950, and as Hong Kong does,
Big5-HKSCS; UTF-8 with a flaw) is scored by how surprising its characters are in
Chinese text, from the frequency lists in ``resources/frequency`` (Rime's essay:
simplified for GB18030, traditional for Big5): the right reading is made of
frequent characters, the wrong one of rare characters, kana, Greek and
private-use code points.  Frequency, not just "decodes without error", matters
most on short texts, where several readings decode:
``bench/bench_encoding_detection.py`` measures it beside charset-normalizer,
which on short Chinese texts mostly names a Korean or Japanese code page.

A reading with a flaw (a few bytes that are not that encoding: a file cut
inside its last character, a character pasted in from another encoding, a
stray control byte) is still chosen when it is by far the most plausible:
reading the file in that encoding then fails with a one-line error at the flaw,
instead of reading it as mojibake in an encoding that merely decodes every byte.
When even the likeliest reading is made of rare characters (Shift-JIS Japanese
in GB18030), the file is no text we read, which is said (:func:`refusal_reason`),
rather than read as mojibake.

Detection looks at :data:`DETECT_BYTES` of a file from its first byte that is not
ASCII (``fileio.reading``), the same bytes whether the file is read whole or streamed.

The constants below were set on the bench's dev split; docs/benchmarks.md reports
the held-out test split.
"""
from __future__ import annotations

import codecs
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from ..paths import resources_dir
from .encoding import encoding_label

# How much of a file the encoding is guessed from.
DETECT_BYTES = 1 << 16
# Legacy encodings a file without a BOM may be in.  GB18030 is a superset of GBK and GB2312,
# so it reads all three; CP950 of Big5 (Windows' Big5 adds 裏, 恒, €, ...: OpenCC writes 裏
# for every 里), Big5-HKSCS of Big5 with Hong Kong characters (a reading only of files CP950
# cannot read: it reads some CP950 codes, の among them, as other characters; see _readings).
LEGACY_CHINESE = ("gb18030", "cp950", "big5hkscs")
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
# Control characters rare in text files: each one in a reading counts as a flaw, and a
# reading with many of them is binary.  (A DOS end-of-file 0x1A or a BEL is still a text file.)
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f]")
_NOT_ASCII = re.compile(rb"[\x80-\xff]")
# Pinyin and bopomofo letters are cheap only inside a word of letters ("xué", "ǎi", "ㄋㄧˇ"):
# one right after a Han character is a Big5 character read as GB18030 (參見 as 傲ǎ).  × and ÷
# are signs, not letters.
_PHONETIC = "\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u3100-\u312f\u31a0-\u31bf"
_PHONETIC_LETTER = re.compile(f"[{_PHONETIC}]")
_LETTER = re.compile(f"[A-Za-z{_PHONETIC}]")

# Surprise (negative log-probability, in nats) of a character in Chinese text.  A listed
# character of rank r costs log(r + 2) (Zipf's law); the rest by kind.
_FREQUENCY_LISTS = {"gb18030": "simplified.txt", "cp950": "traditional.txt", "big5hkscs": "traditional.txt"}
# ... and full-width ASCII but for its rare signs (＂ ＇ ＼ ＾ ｀: Chinese text uses “ ’ instead;
# ＇ is what a Big5-HKSCS reading of GBK's 认 makes)
_PUNCTUATION = (frozenset("，。、；：？！「」『』（）《》〈〉“”‘’…—·●■□◆○★【】～　─│┌┐└┘├┤┬┴┼")
                | frozenset(map(chr, range(0xFF01, 0xFF5F))) - frozenset("＂＇＼＾｀"))
_PUNCTUATION_COST = math.log(30)
# Symbols and letters that text in these encodings has among Chinese: no-break spaces and
# Latin-1 signs; pinyin with its tone marks (ǎ ǜ ɑ ɡ, GBK's row A8: a vocabulary list has one per
# syllable); bopomofo and its tones (ㄅ ㄆ ˇ ˊ, in Big5); general punctuation, arrows, circled
# numbers, shapes.
_SYMBOL_RANGES = (("\u00a0", "\u024f"), ("\u0250", "\u02ff"), ("\u2000", "\u206f"), ("\u2190", "\u21ff"),
                  ("\u2460", "\u24ff"), ("\u25a0", "\u25ff"), ("\u3100", "\u312f"), ("\u31a0", "\u31bf"))
_SYMBOL_COST = math.log(300)
_RARE_HAN_COST = math.log(18_000)  # a Han character or symbol beyond the lists: 3 x the lists' length
_FOREIGN_COST = math.log(180_000)  # kana, Greek, Cyrillic, Hangul, private use... in a Chinese text
# A flaw (bytes the encoding cannot read, or a control byte) costs as much as three foreign characters.
_FLAW_COST = 3 * _FOREIGN_COST
# GB18030 is the most common of the legacy encodings: it wins a tie and near-ties; CP950 then
# wins over Big5-HKSCS, which reads the same bytes the same but for Hong Kong's characters.
_PRIOR_COST = {"gb18030": 0.0, "cp950": 1.0, "big5hkscs": 2.0, "utf-8": 0.0}
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
def _listed_costs(name: str) -> dict[str, float]:
    listed = (resources_dir() / "frequency" / name).read_text(encoding="utf-8").strip()
    costs = dict.fromkeys(_PUNCTUATION, _PUNCTUATION_COST)
    costs.update((char, math.log(rank + 2)) for rank, char in enumerate(listed))
    return costs


@lru_cache(maxsize=None)
def _costs(encoding: str) -> dict[str, float]:
    """The surprise of the listed characters and the punctuation, in text in ``encoding``."""
    if encoding == "utf-8":  # UTF-8 holds either script: each character as its likelier one
        simplified, traditional = _costs("gb18030"), _costs("cp950")
        return {c: min(simplified.get(c, math.inf), traditional.get(c, math.inf)) for c in {*simplified, *traditional}}
    return _listed_costs(_FREQUENCY_LISTS[encoding])


@lru_cache(maxsize=4096)
def _unlisted_cost(char: str) -> float:
    if any(low <= char <= high for low, high in _SYMBOL_RANGES):
        return _SYMBOL_COST
    if ("\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf" or "\u3000" <= char <= "\u303f"
            or "\uff00" <= char <= "\uffef" or "\U00020000" <= char <= "\U0003134f"):
        return _RARE_HAN_COST
    return _FOREIGN_COST


def _surprise(text: str, costs: dict[str, float]) -> tuple[float, int]:
    """The surprise of the non-ASCII characters of ``text``, and how many there are
    (each distinct character priced once: 64 KB of one repeated character is one lookup)."""
    total, chars = 0.0, 0
    for char, n in Counter(text).items():
        if char >= "\x80":
            cost = costs.get(char)
            total += n * (_unlisted_cost(char) if cost is None else cost)
            chars += n
    return total, chars


def _stray_letters(text: str) -> int:
    """Pinyin and bopomofo letters of ``text`` that are not in a word: neither after a letter,
    nor at the start of one (after ASCII or nothing, before a letter)."""
    stray = 0
    for found in _PHONETIC_LETTER.finditer(text):
        at = found.start()
        before = text[at - 1] if at else " "
        after = text[at + 1] if at + 1 < len(text) else " "
        if not (_LETTER.match(before) or (before < "\x80" and _LETTER.match(after))):
            stray += 1
    return stray


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
    flaws += len(_CONTROLS.findall(text))
    if flaws > _MAX_FLAWS:
        return None  # a binary file
    cost, wide = _surprise(text, _costs(encoding))
    cost += _stray_letters(text) * (_FOREIGN_COST - _SYMBOL_COST)
    if flaws and (wide < _MIN_CHARS_FOR_FLAWS or flaws * _CHARS_PER_FLAW > wide):
        return None
    return _Reading(encoding, cost + flaws * _FLAW_COST + _PRIOR_COST[encoding], flaws, wide)


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


def first_not_ascii(data: bytes) -> int | None:
    """The offset of the first byte of ``data`` that is not ASCII, or None."""
    found = _NOT_ASCII.search(data)
    return found.start() if found else None


def _readings(head: bytes, complete: bool) -> list[_Reading]:
    readings = [_reading(head, e, complete) for e in ("gb18030", "cp950", "utf-8")]
    # Big5-HKSCS reads 43 of CP950's kana (の, か) as other characters (攴, ⑸): it is a reading
    # only of what CP950 cannot read, and only when it reads all of it (so it is decoded only then).
    cp950 = readings[1]
    if cp950 is None or cp950.flaws:
        hkscs = _reading(head, "big5hkscs", complete)
        readings.append(hkscs if hkscs is not None and not hkscs.flaws else None)
    return [r for r in readings if r]


def detect_encoding(head: bytes, *, complete: bool = True, at_start: bool = True) -> str | None:
    """The encoding of a text file starting with ``head`` (the whole file when
    ``complete``), or None when it is not text in any encoding we detect.
    ``at_start`` False: ``head`` is from further in the file, where a byte-order mark is
    no byte-order mark (``ok \xff\xfe`` is no UTF-16).

    The encoding returned may not read every byte: then its reading was by far the
    most plausible one and the bytes it cannot read are a flaw that reading reports.
    """
    for bom, encoding in _BOMS if at_start else ():
        if head.startswith(bom):
            return encoding
    if _decode_head(head, "utf-8", complete) is not None:
        return "utf-8"  # valid UTF-8 is read as it always was, controls and all
    cut = _decode_head(head, "utf-8", False) if complete else None
    if cut is not None and (not cut.isascii() or len(head) - len(cut) >= 2):
        # UTF-8 characters, then one cut at the very end (a truncated file or download), or a
        # cut character of two bytes or three that UTF-8 would continue: still UTF-8, which
        # reading then reports; never the legacy encoding that happens to decode it.  (One
        # stray high byte after plain ASCII, like Latin-1 "café", is no evidence of UTF-8.)
        return "utf-8"
    readings = _readings(head, complete)
    if not readings:
        return None
    best = min(readings, key=lambda r: r.cost)
    return None if best.implausible else best.encoding


def refusal_reason(head: bytes, *, complete: bool = True, start: int = 0) -> str:
    """Why :func:`detect_encoding` found no encoding for ``head`` (the file's bytes from offset
    ``start``), for the user: the likeliest reading and what was wrong with it."""
    readings = _readings(head, complete)
    if readings:
        label = encoding_label(min(readings, key=lambda r: r.cost).encoding)
        return (f"read as {label} it is mostly rare characters, as Japanese or Korean text would be; "
                f"if it is {label}, give --encoding {label.lower()}")
    if complete:
        for encoding in LEGACY_CHINESE:
            if _decode_head(head, encoding, True) is None and _decode_head(head, encoding, False) is not None:
                return f"it may be {encoding_label(encoding)} cut inside its last character"
    control = _CONTROLS.search(head.decode("latin-1"))  # one character per byte: offsets match
    if control is not None:
        return (f"it has control bytes (0x{head[control.start()]:02X} at offset {start + control.start()}): "
                "a binary file?")
    # The legacy reading that gets furthest before its first invalid byte.
    furthest, encoding = max((_first_error(head, e, complete), e) for e in LEGACY_CHINESE)
    return f"as {encoding_label(encoding)} its bytes are invalid from offset {start + furthest} on"


def _first_error(head: bytes, encoding: str, complete: bool) -> int:
    try:
        codecs.getincrementaldecoder(encoding)("strict").decode(head, final=complete)
    except UnicodeDecodeError as exc:
        return exc.start
    return len(head)
