"""BERT's basic pre-tokenization, with offsets into the original text.

The steps of Google BERT's ``BasicTokenizer`` (and of Hugging Face's
``BertNormalizer`` + ``BertPreTokenizer``):

1. clean: drop NUL, U+FFFD and control characters (Unicode category C*,
   except tab, newline and carriage return, which are whitespace);
2. put every CJK character on its own;
3. optionally lower-case and strip accents (NFD, then drop category Mn);
4. split on whitespace, and put every punctuation character on its own
   (ASCII punctuation, which BERT counts although ``$ + < = > ^ ` | ~`` are
   symbols in Unicode, plus every category P* character).

Choices where the two references differ, made explicit here:

* CJK ranges are Google BERT's ``_is_chinese_char``: the CJK Unified
  Ideographs block, Extensions A-E (Extension E from U+2B820; HF's copy
  starts it at U+2B920) and the two Compatibility Ideographs blocks.  Hangul,
  kana and CJK punctuation are not "Chinese characters" to BERT; they are
  split like any other script.
* Whitespace is BERT's (space, tab, newline, carriage return and category Zs)
  plus U+2028/U+2029 (line and paragraph separators), as HF does.
* Lower-casing maps each character on its own (``"Σ"`` is always ``"σ"``, no
  final-sigma rule), as HF does; it keeps every character traceable to the
  input.  Punctuation is split *after* normalization, so a character whose
  accent-stripped form is punctuation (``"≠"`` -> ``"="``) is split too.

Offsets: every normalized character remembers the input character it came
from, so a word (and a sub-word of it) maps back to a span of the input even
when normalization dropped, expanded or changed characters.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache
from typing import Union

from ..caches import remember

# Google BERT's _is_chinese_char, as code point ranges.
CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
# Category Zs (Unicode 14), plus tab/newline/return and the line and
# paragraph separators.  tests check the Zs part against unicodedata.
WHITESPACE = frozenset(
    "\t\n\r \xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)

_CJK_CLASS = "".join(f"{chr(a)}-{chr(b)}" for a, b in CJK_RANGES)
_WS_CLASS = "".join(sorted(WHITESPACE)).replace("\\", "\\\\")
# A raw segment is one CJK character or a run of anything else but
# whitespace; normalization and punctuation splitting work on segments.
_RAW = re.compile(f"[{_CJK_CLASS}]|[^{_WS_CLASS}{_CJK_CLASS}]+")
_ASCII_PUNCT_SPLIT = re.compile(r"[!-/:-@\[-`{-~]|[^!-/:-@\[-`{-~]+")
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# What a normalized character does to the word around it.
_JOIN, _ALONE, _BREAK = 0, 1, 2

# origins: the input offset of the word's first character when the word maps
# one to one onto the input, else each character's input offset.
Origins = Union[int, tuple[int, ...]]


def is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return any(a <= cp <= b for a, b in CJK_RANGES)


def is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_removed(ch: str) -> bool:
    cp = ord(ch)
    return cp == 0 or cp == 0xFFFD or (unicodedata.category(ch).startswith("C") and ch not in "\t\n\r")


def _kind(ch: str) -> int:
    if ch in WHITESPACE:
        return _BREAK
    if is_cjk(ch) or is_punctuation(ch):
        return _ALONE
    return _JOIN


def token_span(origins: Origins, start: int, end: int) -> tuple[int, int]:
    """Input offsets of the normalized characters ``start:end`` of a word."""
    if isinstance(origins, int):
        return origins + start, origins + end
    return origins[start], origins[end - 1] + 1


class BertPreTokenizer:
    """Split text into BERT words: ``words(text)`` with offsets, ``count_words`` for training."""

    def __init__(self, lowercase: bool = False, strip_accents: bool = False, cache_size: int = 50_000):
        self.lowercase = lowercase
        self.strip_accents = strip_accents
        self._chars: dict[str, tuple[tuple[str, int], ...]] = {}
        # raw segment -> ((word, origins relative to the segment), ...)
        self._segments: dict[str, tuple[tuple[str, Origins], ...]] = {}
        self._cache_size = cache_size

    def _normalize_char(self, ch: str) -> tuple[tuple[str, int], ...]:
        out = self._chars.get(ch)
        if out is None:
            if _is_removed(ch):
                s = ""
            else:
                s = ch.lower() if self.lowercase else ch
                if self.strip_accents:
                    s = "".join(x for x in unicodedata.normalize("NFD", s) if unicodedata.category(x) != "Mn")
            out = self._chars[ch] = tuple((x, _kind(x)) for x in s)
        return out

    def _split_segment(self, seg: str) -> tuple[tuple[str, Origins], ...]:
        hit = self._segments.get(seg)
        if hit is not None:
            return hit
        out: tuple[tuple[str, Origins], ...]
        if seg.isascii() and not _ASCII_CONTROL.search(seg):
            # ASCII without controls: lower() is one to one, nothing to strip.
            text = seg.lower() if self.lowercase else seg
            out = tuple((m.group(), m.start()) for m in _ASCII_PUNCT_SPLIT.finditer(text))
        else:
            words: list[tuple[str, tuple[int, ...]]] = []
            cur: list[str] = []
            cur_orig: list[int] = []
            for i, ch in enumerate(seg):
                for x, kind in self._normalize_char(ch):
                    if kind == _JOIN:
                        cur.append(x)
                        cur_orig.append(i)
                        continue
                    if cur:
                        words.append(("".join(cur), tuple(cur_orig)))
                        cur, cur_orig = [], []
                    if kind == _ALONE:
                        words.append((x, (i,)))
            if cur:
                words.append(("".join(cur), tuple(cur_orig)))
            out = tuple(_compact(w, o) for w, o in words)
        remember(self._segments, {seg: out}, self._cache_size)
        return out

    def words(self, text: str, start: int = 0, end: int | None = None) -> list[tuple[str, Origins]]:
        """The words of ``text[start:end]`` with their origins (input offsets)."""
        out: list[tuple[str, Origins]] = []
        split = self._split_segment
        for m in _RAW.finditer(text, start, len(text) if end is None else end):
            base = m.start()
            for word, orig in split(m.group()):
                if isinstance(orig, int):
                    out.append((word, base + orig))
                else:
                    out.append((word, tuple(base + o for o in orig)))
        return out

    def count_words(self, text: str) -> Counter[str]:
        """Word -> count in ``text``.  Its raw segments are counted first, so
        a segment is normalized once per text, not once per occurrence."""
        words: Counter[str] = Counter()
        split = self._split_segment
        for seg, c in Counter(_RAW.findall(text)).items():
            for word, _ in split(seg):
                words[word] += c
        return words


@lru_cache(maxsize=4)
def _pre_tokenizer(lowercase: bool, strip_accents: bool) -> BertPreTokenizer:
    return BertPreTokenizer(lowercase, strip_accents)


def count_bert_words(text: str, lowercase: bool = False, strip_accents: bool = False) -> Counter[str]:
    """WordPiece's counting step: BERT word -> count in ``text``.  Pure: counts
    of parts of a corpus add up to the counts of the whole (when cut as
    ``engines.corpus`` cuts)."""
    return _pre_tokenizer(lowercase, strip_accents).count_words(text)


def _compact(word: str, origins: tuple[int, ...]) -> tuple[str, Origins]:
    first = origins[0]
    if origins == tuple(range(first, first + len(origins))):
        return word, first
    return word, origins
