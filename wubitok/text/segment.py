"""Mixed-script segmentation: split any text into runs of one kind.

``segment(text)`` returns the maximal runs of ``han``, ``latin``, ``digit``,
``space``, ``punct``, ``emoji`` and ``other`` text with their offsets (in code
points).  It is lossless for every ``str``: the runs joined give back the
input, lone surrogates included.  The Wubi-BPE trainer segments whole corpora
with it, so the work is done by one compiled regular expression, not by a
loop over characters in Python.

What goes where.  A run's kind is decided by its first character:

- ``emoji``: grapheme clusters (``\\X``) that start with an
  Extended_Pictographic character, an emoji modifier (skin tone) or a regional
  indicator, and keycaps (``#``, ``*`` or a digit, optional U+FE0F, U+20E3).
  Clusters keep ZWJ sequences, flags (indicator pairs), skin tones, tag
  sequences and variation selectors whole.  Extended_Pictographic includes
  text-style symbols such as (c), (R), TM, the double exclamation mark and
  U+3030 WAVY DASH: they count as emoji too, as UAX #29 treats them.
- ``han``: the Unicode Han script (``\\p{Han}``): CJK Unified Ideographs and
  all their extensions, compatibility ideographs, radicals (although they are
  symbols by category), 々 and 〇.
- ``latin``: the Latin script (accented letters, full-width Latin letters,
  Roman numerals).
- ``digit``: decimal digits of any script (``\\p{Nd}``, e.g. full-width ０-９).
- ``space``: White_Space characters, newlines included; ``\\r\\n`` stays in one
  run.  Other control characters are not space.
- ``punct``: punctuation (``\\p{P}``) and symbols (``\\p{S}``: math, currency,
  arrows, box drawing, ...) that are not emoji; ASCII and CJK/full-width alike.
- ``other``: everything else, one run per script: a run of Hiragana, then a
  run of Katakana, then one of Cyrillic.  Membership is by Script_Extensions,
  so the prolonged sound mark ー stays inside the kana word around it.
  Characters of no particular script (controls, format characters such as
  U+200B or the BOM, unassigned and private-use code points, lone surrogates,
  numbers like ① or ²) form runs of their own.

Combining marks and the other grapheme extenders (variation selectors
including ideographic variation selectors, ZWJ, ZWNJ, tag characters, emoji
modifiers) stay in the run of the character before them, whatever its kind:
葛 + U+E0100 is one ``han`` run, é written as e + U+0301 is ``latin``.  A
tokenizer wants the selector next to the character it modifies; the Wubi
codec spells such non-Han characters inside a han run as bytes, so text still
round-trips.  The exception is whitespace: marks after a space (or at the
start of the text) have no base and form an ``other`` run, so that ``space``
runs hold only whitespace.

The functions: ``segment`` (a list of :class:`Run`), ``iter_runs`` (the same,
lazily), ``segment_stream`` (an iterable of chunks, with global offsets;
what the next chunk could still change is held back, so a run, an emoji
sequence or ``\\r\\n`` cut by a chunk boundary comes out whole),
``segment_file`` (a UTF-8 file, streamed), ``segment_texts`` (texts and
kinds without Run objects, for counting pre-tokens fast) and ``is_han``.
"""
from __future__ import annotations

import functools
import itertools
import operator
import os
from dataclasses import dataclass
from typing import Iterable, Iterator, cast

import regex

from ..fileio import iter_text_chunks

KINDS = ("han", "latin", "digit", "space", "punct", "emoji", "other")

# A run longer than this is yielded by segment_stream in pieces, so that
# memory stays bounded on pathological input (megabytes without a break).
MAX_RUN_CHARS = 1 << 20
# iter_runs works through a str in windows of (at least) this many characters.
_WINDOW = 1 << 16

# Grapheme extenders: they never start a cluster, so they never start a run.
_EXT = r"\p{M}\p{Grapheme_Cluster_Break=Extend}\p{Grapheme_Cluster_Break=ZWJ}"
_KEYCAP = r"[#*0-9]\uFE0F?\u20E3"
_EMOJI_START = r"\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}"
_CLAIMED = rf"\p{{Han}}\p{{Latin}}\p{{Nd}}\p{{White_Space}}\p{{P}}\p{{S}}{_EMOJI_START}"

# The first characters of the kinds are disjoint sets (han is matched before
# punct because radicals are symbols), so the order is free otherwise: the
# most frequent kinds come first, which is faster.  Only "#", "*" and 0-9
# can start a keycap, so only they pay for the lookahead.
_NOT_KEYCAP = r"(?!\uFE0F?\u20E3)"
_KIND_PATTERNS = [
    ("han", rf"\p{{Han}}[\p{{Han}}{_EXT}]*"),
    ("space", r"\p{White_Space}+"),
    ("latin", rf"\p{{Latin}}[\p{{Latin}}{_EXT}]*"),
    ("punct", rf"(?:(?:[[\p{{P}}\p{{S}}]--[{_EMOJI_START}#*]]|[#*]{_NOT_KEYCAP})[{_EXT}]*)+"),
    ("digit", rf"(?:(?:[\p{{Nd}}--[0-9]]|[0-9]{_NOT_KEYCAP})[{_EXT}]*)+"),
    ("emoji", rf"(?:(?=[{_EMOJI_START}]|{_KEYCAP})\X)+"),
    # Everything else, split by script afterwards (see _script_runs).  Marks
    # with no base (at the start, or after whitespace) land here too.
    ("other", rf"[[^{_CLAIMED}]{_EXT}]+"),
]
# findall on a pattern without groups returns plain strings, which is much
# cheaper than a match object per run; the named twin tells a piece's kind.
_PIECES = regex.compile("|".join(f"(?:{p})" for _, p in _KIND_PATTERNS), regex.V1)
_NAMED = regex.compile("|".join(f"(?P<{k}>{p})" for k, p in _KIND_PATTERNS), regex.V1)
_KEYCAP_PREFIX = regex.compile(r"[#*0-9]\uFE0F?")
_HAN = regex.compile(r"\p{Han}")
_CLUSTER = regex.compile(r"\X")

# ISO 15924 codes of the scripts that get runs of their own within "other".
# Han and Latin have their own kinds; Common, Inherited and Unknown are not
# scripts a run can be "in".  Codes the installed regex does not know (a
# script newer than its Unicode tables) are dropped: their characters then
# group with the characters of no script.
_OTHER_SCRIPTS = """
GREK COPT CYRL ARMN HEBR ARAB SYRC THAA NKOO SAMR MAND DEVA BENG GURU GUJR ORYA
TAML TELU KNDA MLYM SINH THAI LAOO TIBT MYMR GEOR HANG ETHI CHER CANS OGAM RUNR
TGLG HANO BUHD TAGB KHMR MONG LIMB TALE TALU BUGI LANA BALI SUND BATK LEPC OLCK
BRAI GLAG TFNG HIRA KANA BOPO YIII LISU VAII BAMU SYLO PHAG SAUR KALI RJNG JAVA
CHAM TAVT MTEI LINB LYCI CARI ITAL GOTH PERM UGAR XPEO DSRT SHAW OSMA OSGE ELBA
AGHB VITH TODR LINA CPRT ARMI PALM NBAT HATR PHNX LYDI SIDT MERO MERC KHAR SARB
NARB MANI AVST PRTI PHLI PHLP ORKH HUNG ROHG GARA YEZI SOGO SOGD OUGR CHRS ELYM
BRAH KTHI SORA CAKM MAHJ SHRD KHOJ MULT SIND GRAN TUTG NEWA TIRH SIDD MODI TAKR
AHOM DOGR WARA DIAK NAND ZANB SOYO PAUC SUNU BHKS MARC GONM GONG TOLS MAKA KAWI
XSUX PCUN CPMN EGYP HLUW GUKH MROO TNSA BASS HMNG KRAI MEDF BERF MIAO TANG NSHU
KITS JURC DUPL SGNW HMNP TOTO WCHO NAGM ONAO TAYO MEND ADLM SEAL
""".split()


def _known_script(code: str) -> bool:
    try:
        regex.compile(rf"\p{{scx={code}}}")
    except regex.error:
        return False
    return True


@functools.lru_cache(maxsize=None)
def _script_runs() -> regex.Pattern:
    # Compiled on first need (it takes a noticeable fraction of a second):
    # much Chinese text has no "other" characters at all.
    scripts = [c for c in _OTHER_SCRIPTS if _known_script(c)]
    any_script = "".join(rf"\p{{scx={c}}}" for c in scripts)
    runs = [rf"\p{{scx={c}}}(?:\p{{scx={c}}}|[{_EXT}])*" for c in scripts]
    runs.append(rf"(?:[^{any_script}]|[{_EXT}])+")
    return regex.compile("|".join(runs), regex.V1)


@dataclass(frozen=True)
class Run:
    """A maximal stretch of one kind: ``text == source[start:end]``."""

    text: str
    kind: str
    start: int
    end: int


# Cached: callers test text character by character, and the cache lookup is
# several times cheaper than the regex.
@functools.lru_cache(maxsize=1 << 16)
def is_han(ch: str) -> bool:
    """True if ``ch`` is one character of the Unicode Han script."""
    return _HAN.fullmatch(ch) is not None


# The kind of a piece by its first character, for the characters that decide
# it alone: not for "other" pieces (they are split by script) and not for a
# keycap emoji, which starts with a digit, "#" or "*".  Filled as met.
_KIND_BY_FIRST: dict[str, str] = {}
_KEYCAP_BASES = frozenset("#*0123456789")
_first = operator.itemgetter(0)


def _close_look(piece: str) -> list[tuple[str, str]]:
    kind = _NAMED.match(piece).lastgroup
    if kind == "other":
        return [(t, "other") for t in _script_runs().findall(piece)]
    if not (kind == "emoji" and piece[0] in _KEYCAP_BASES):
        _KIND_BY_FIRST[piece[0]] = kind
    return [(piece, kind)]


def _resolve(pieces: list[str], keycaps: bool) -> tuple[list[str], list[str]]:
    """The texts and kinds of the runs, from the pieces ``_PIECES`` found.

    ``keycaps``: whether the text may hold U+20E3 (then keycaps get a close look).
    """
    kinds = list(map(_KIND_BY_FIRST.get, map(_first, pieces)))
    if keycaps:
        for i, piece in enumerate(pieces):
            if piece[0] in _KEYCAP_BASES and "\u20e3" in piece[1:3]:
                kinds[i] = ""  # needs a close look, whatever its first character
    if all(kinds):
        return pieces, cast("list[str]", kinds)  # every kind is known
    texts, resolved = [], []
    for piece, kind in zip(pieces, kinds):
        if kind is None:  # the close look at an earlier piece may have told
            kind = _KIND_BY_FIRST.get(piece[0])
        if not kind:
            for t, k in _close_look(piece):
                texts.append(t)
                resolved.append(k)
        else:
            texts.append(piece)
            resolved.append(kind)
    return texts, resolved


def _make_runs(texts: list[str], kinds: list[str], start: int) -> list[Run]:
    # map() keeps the per-run work in C except for Run.__init__ itself.
    bounds = list(itertools.accumulate(map(len, texts), initial=start))
    return list(map(Run, texts, kinds, bounds, itertools.islice(bounds, 1, None)))


def segment(text: str) -> list[Run]:
    """The runs of ``text``; ``"".join(r.text for r in segment(t)) == t``."""
    return _make_runs(*_resolve(_PIECES.findall(text), "\u20e3" in text), 0)


def segment_texts(text: str) -> tuple[list[str], list[str]]:
    """``(texts, kinds)`` of the runs of ``text``, as two parallel lists.

    ``segment`` without the Run objects and offsets, several times faster on
    text with many short runs: for counting pre-tokens over a corpus.
    """
    return _resolve(_PIECES.findall(text), "\u20e3" in text)


def _held_back(pieces: list[str]) -> int:
    """How many pieces at the end of a chunk more text could still change.

    The last one, which more text may extend; and the one before it if the
    last is the start of a keycap ("1" or "1" + U+FE0F), whose completion
    would join the emoji run before it.
    """
    if len(pieces) > 1 and _KEYCAP_PREFIX.fullmatch(pieces[-1]):
        return 2
    return 1


def _cut_point(text: str, limit: int) -> int:
    """The last grapheme-cluster boundary at or before ``limit`` (>= one cluster)."""
    cut = 0
    for m in _CLUSTER.finditer(text):
        if m.end() > limit and cut:
            break
        cut = m.end()
    return cut


def segment_stream(chunks: Iterable[str], *, max_run_chars: int = MAX_RUN_CHARS) -> Iterator[Run]:
    """The runs of ``"".join(chunks)``, with offsets into the whole, streamed.

    What more text could still change is held back and segmented again with
    the next chunk, so runs come out exactly as ``segment`` gives them.
    Memory stays bounded by the chunk size plus ``max_run_chars``: a run
    longer than that (only pathological input has one) comes out as adjacent
    pieces of the same kind, cut at grapheme-cluster boundaries.
    """
    carry, offset = "", 0
    for chunk in chunks:
        if not chunk:
            continue
        buf = carry + chunk
        pieces = _PIECES.findall(buf)
        held = _held_back(pieces)
        done = len(buf) - sum(map(len, pieces[-held:]))
        if done:
            yield from _make_runs(*_resolve(pieces[:-held], "\u20e3" in buf), offset)
        carry, offset = buf[done:], offset + done
        held_len = len(pieces[-held])
        while held_len > max_run_chars:
            cut = _cut_point(carry[:held_len], max_run_chars)
            if cut == held_len:
                break
            head = carry[:cut]
            yield from _make_runs(*_resolve([head], "\u20e3" in head), offset)
            carry, offset, held_len = carry[cut:], offset + cut, held_len - cut
    if carry:
        yield from _make_runs(*_resolve(_PIECES.findall(carry), "\u20e3" in carry), offset)


def iter_runs(text: str) -> Iterator[Run]:
    """The runs of ``text``, lazily: the same as ``segment(text)``."""
    pos, window = 0, _WINDOW
    while pos < len(text):
        end = min(len(text), pos + window)
        pieces = _PIECES.findall(text, pos, end)
        if end < len(text):
            del pieces[-_held_back(pieces):]
            if not pieces:
                window *= 2  # one long run: look further, never rescan forever
                continue
        yield from _make_runs(*_resolve(pieces, text.find("\u20e3", pos, end) >= 0), pos)
        pos += sum(map(len, pieces))
        window = _WINDOW


def segment_file(path: str | os.PathLike) -> Iterator[Run]:
    """The runs of a UTF-8 file, streamed (see ``segment_stream``)."""
    return segment_stream(iter_text_chunks(path))
