"""Which encoding a text file is in: detection, the names users see, and encoding text back.

Text files come in UTF-8, UTF-16 (with a byte-order mark), GB18030 (and its
subsets GBK and GB2312) or Big5; the encoding is detected (or given), reported
back, and used again when the file is saved.
"""
from __future__ import annotations

import codecs
import os
from functools import lru_cache
from typing import Iterable

from ..errors import FileError, InputError, excerpt

# How much of a file the encoding is guessed from.
DETECT_BYTES = 1 << 16
# Encodings tried in this order when a file is not UTF-8 (and has no BOM).
# GB18030 is a superset of GBK and GB2312, so it reads all three.
LEGACY_CHINESE = ("gb18030", "big5")
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_LABELS = {"utf-8": "UTF-8", "utf-16-le": "UTF-16LE", "utf-16-be": "UTF-16BE", "gb18030": "GB18030", "big5": "Big5",
           "big5hkscs": "Big5-HKSCS"}
# What the app offers to read or save a text in: everything detected, and
# Big5-HKSCS (Big5 plus Hong Kong characters, which detection reads as Big5).
TEXT_ENCODINGS = ("utf-8", "gb18030", "big5", "big5hkscs", "utf-16-le", "utf-16-be")
# Control characters never seen in text files: a decoding that yields them is wrong.
_BINARY_CONTROLS = frozenset(chr(c) for c in range(32) if chr(c) not in "\t\n\v\f\r\x1b")


def encoding_label(encoding: str) -> str:
    """How an encoding is shown to users: ``gb18030`` -> ``GB18030``."""
    if encoding in _LABELS:
        # Already a codec's own name: no lookup, which imports the codec's module
        # (the CJK ones took 10-15 ms of the GUI thread when a pane was built).
        return _LABELS[encoding]
    name = codecs.lookup(encoding).name
    return _LABELS.get(name, name.upper())


def normalize_encoding(encoding: str | None) -> str | None:
    """A user's encoding choice as a codec name; ``None`` or ``"auto"`` -> ``None`` (detect).

    GBK and GB2312 are read as GB18030, their superset (same bytes, same text).
    """
    if encoding is None or encoding.strip().lower() in ("", "auto"):
        return None
    try:
        name = codecs.lookup(encoding.strip()).name
    except LookupError:
        raise InputError(f"unknown encoding {excerpt(encoding)}", code="encoding.unknown", encoding=encoding) from None
    if name in ("gbk", "gb2312"):
        return "gb18030"
    if name == "utf-8-sig":
        return "utf-8"  # the BOM is kept as text (see the module docstring)
    return name


def _double_byte_table(leads: range, trails: Iterable[int], encoding: str) -> frozenset[str]:
    out = set()
    trail_list = list(trails)
    for lead in leads:
        for trail in trail_list:
            try:
                out.add(bytes((lead, trail)).decode(encoding))
            except UnicodeDecodeError:
                pass
    return frozenset(out)


@lru_cache(maxsize=None)
def _expected_characters(encoding: str) -> frozenset[str]:
    """Characters that text in ``encoding`` is mostly made of: the frequent
    level of its character set (GB2312 level 1, 3,755 characters; Big5 level 1,
    5,401) and CJK punctuation.  Text decoded with the wrong one of the two
    turns into kana, symbols, private-use and rare characters instead."""
    big5_trails = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    punctuation = _double_byte_table(range(0xA1, 0xA2), range(0xA1, 0xFF), "gb2312")
    punctuation |= _double_byte_table(range(0xA1, 0xA4), big5_trails, "big5")
    punctuation |= frozenset(map(chr, range(0xFF01, 0xFF5F)))  # full-width ASCII
    punctuation |= frozenset(map(chr, range(0x2500, 0x2580)))  # box drawing (tables in plain text)
    if encoding == "gb18030":
        return punctuation | _double_byte_table(range(0xB0, 0xD8), range(0xA1, 0xFF), "gb2312")
    return punctuation | _double_byte_table(range(0xA4, 0xC7), big5_trails, "big5")


def _plausibility(text: str, encoding: str) -> float:
    """Share of the non-ASCII characters that text in ``encoding`` usually has."""
    expected = _expected_characters(encoding)
    wide = [c for c in text if c >= "\x80"]
    return sum(c in expected for c in wide) / len(wide) if wide else 1.0


def _looks_binary(text: str) -> bool:
    return not _BINARY_CONTROLS.isdisjoint(text)


def _decode_head(head: bytes, encoding: str, complete: bool) -> str | None:
    """``head`` decoded, or None when it is not ``encoding``; a multi-byte
    character cut at the end of an incomplete head is not an error."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    try:
        return decoder.decode(head, final=complete)
    except UnicodeDecodeError:
        return None


def is_cut_utf8(tail: bytes) -> bool:
    """Whether ``tail`` (a file's last bytes from where decoding failed) is the start of a UTF-8
    character and nothing more: the file was cut inside a character."""
    return 0 < len(tail) < 4 and _decode_head(tail, "utf-8", False) == ""


def detect_encoding(head: bytes, *, complete: bool = True) -> str | None:
    """The encoding of a text file starting with ``head`` (the whole file when
    ``complete``), or None when it is not text in any encoding we detect.

    A byte-order mark decides; else UTF-8 if the bytes are valid UTF-8; else
    whichever of GB18030 and Big5 decodes them into characters that text in it
    usually has (GB18030 on a tie).  Chosen over a general detector
    (charset-normalizer) because on short Chinese texts that one mostly picks
    Big5 or a Korean code page for GBK (bench/bench_encoding_detection.py).
    """
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    text = _decode_head(head, "utf-8", complete)
    if text is not None:
        return "utf-8"  # valid UTF-8 is read as it always was, controls and all
    cut = _decode_head(head, "utf-8", False) if complete else None
    if cut is not None and not cut.isascii():
        # UTF-8 characters, then one cut at the very end (a truncated file or download): still
        # UTF-8, which reading then reports; never the legacy encoding that happens to decode it.
        # (One stray high byte after plain ASCII, like Latin-1 "café", is no evidence of UTF-8.)
        return "utf-8"
    best, best_score = None, -1.0
    for encoding in LEGACY_CHINESE:
        text = _decode_head(head, encoding, complete)
        if text is None or _looks_binary(text):
            continue
        score = _plausibility(text, encoding)
        if score > best_score:
            best, best_score = encoding, score
    return best



def encode_text(text: str, encoding: str = "utf-8", *, path: str | os.PathLike = "") -> bytes:
    """``text`` in ``encoding``; a character it cannot hold is a clear error."""
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        label, char = encoding_label(encoding), text[exc.start]
        where = f"{path}: " if str(path) else ""
        raise FileError(f"{where}cannot save as {label}: it has no {char!r} (U+{ord(char):04X}, character {exc.start})",
                        code="file.unencodable", path=str(path), encoding=label, char=char,
                        position=exc.start) from None
