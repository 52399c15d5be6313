"""How the Unigram engine cuts text before the lattice: words and script runs.

Words (encoding and training), SentencePiece style with
``add_dummy_prefix=False`` and ``split_by_whitespace=True``:

* a space becomes ``▁`` (U+2581) and starts a word: ``"a  b"`` is
  ``"a"``, ``"▁"``, ``"▁b"``;
* a line or paragraph break or a tab is a word of its own (SentencePiece
  trains line by line and keeps tabs out of pieces), so no piece but a
  single character ever holds one; other spaces (no-break, ideographic) are
  ordinary characters;
* a ``▁`` that is in the input itself is not a space: it is a word of its
  own that always goes to byte-fallback pieces, so decoding can tell the
  two apart.

Nothing else changes (no normalization), so word offsets are input offsets.

With ``whitespace_runs`` (sentencepiece's ``allow_whitespace_only_pieces``)
a run of spaces is one word with what follows it: ``"a   b"`` is ``"a"``,
``"▁▁▁b"``, whose pieces may be whitespace only (``"▁▁"`` then ``"▁b"``, or
``"▁▁▁"`` then ``"b"``), so indentation costs a token or two, not one per space.

Script runs (training only), as SentencePiece's ``split_by_unicode_script``
and ``split_by_number`` constrain pieces: no piece mixes scripts; Hiragana,
Katakana and ``ー`` count as Han; digits are Common, like punctuation;
combining marks (Inherited) take the script before them; the leading ``▁``
belongs to the first run.  Since no piece crosses a run boundary, the
lattice of a word is the lattices of its runs side by side, so the trainer
works on distinct runs with their counts.  Scripts outside the list below
share one class (two of them never meet without a space in practice).
"""
from __future__ import annotations

import re
from collections import Counter

import regex

SPACE_MARK = "\u2581"
# What follows a run at the end of a line (SentencePiece's sentence boundary).
END = "\x00"

# Characters that end a word and stand alone: line breaks and tab.
BREAKS = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x85\u2028\u2029"
# A word: optional space + a run of other characters, or a space, a break
# or a literal U+2581 alone.
WORD_RE = re.compile(f" ?[^ {BREAKS}\u2581]+|[ {BREAKS}\u2581]")
# The same, with the character after the word ("" at the end of the text).
_WORD_NEXT_RE = re.compile(f"( ?[^ {BREAKS}\u2581]+|[ {BREAKS}\u2581])(?=([\\s\\S]?))")
# With whitespace runs: any number of spaces before a run of other characters,
# or a run of spaces alone (before a break, a literal U+2581 or the end).
WS_WORD_RE = re.compile(f" *[^ {BREAKS}\u2581]+| +|[{BREAKS}\u2581]")
_WS_WORD_NEXT_RE = re.compile(f"( *[^ {BREAKS}\u2581]+| +|[{BREAKS}\u2581])(?=([\\s\\S]?))")
_FOLLOWER = {"": END, "\n": END, " ": SPACE_MARK}

_SCRIPTS = ("Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Syriac", "Thaana",
            "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada",
            "Malayalam", "Sinhala", "Thai", "Lao", "Tibetan", "Myanmar", "Georgian", "Hangul",
            "Ethiopic", "Cherokee", "Khmer", "Mongolian", "Bopomofo", "Yi")
_HAN = r"\p{Han}\p{Hiragana}\p{Katakana}\u30fc"
_NAMED = _HAN + r"\p{Common}\p{Inherited}" + "".join(rf"\p{{{s}}}" for s in _SCRIPTS)
_RUNS = [rf"[{_HAN}\p{{Inherited}}]+", rf"[[\p{{Common}}\p{{Inherited}}]--[\u30fc{SPACE_MARK}]]+"]
_RUNS += [rf"[\p{{{s}}}\p{{Inherited}}]+" for s in _SCRIPTS]
_RUNS += [rf"[[^{_NAMED}]\p{{Inherited}}]+"]
SCRIPT_RUN_RE = regex.compile(rf"{SPACE_MARK}?\p{{Inherited}}*(?:{'|'.join(_RUNS)})?", regex.V1)


def split_words(text: str, start: int = 0, end: int | None = None,
                whitespace_runs: bool = False) -> list[tuple[str, int]]:
    """``(word, input offset)`` for each word of ``text[start:end]``; a word
    that is a literal ``▁`` is returned as ``""`` (it has no pieces)."""
    out = []
    for m in (WS_WORD_RE if whitespace_runs else WORD_RE).finditer(text, start, len(text) if end is None else end):
        w = m.group()
        if w == SPACE_MARK:
            out.append(("", m.start()))
        elif w[0] == " ":
            out.append((_marked(w), m.start()))
        else:
            out.append((w, m.start()))
    return out


def _marked(word: str) -> str:
    """A word's leading spaces written as ``▁`` (one for one: offsets stay)."""
    rest = word.lstrip(" ")
    return SPACE_MARK * (len(word) - len(rest)) + rest


def script_runs(word: str) -> list[str]:
    return [r for r in SCRIPT_RUN_RE.findall(word) if r]


def count_runs(text: str, whitespace_runs: bool = False) -> Counter[str]:
    """Unigram's counting step: distinct script runs of ``text`` with counts,
    each run keyed with the symbol that follows it in the text appended: the
    next run's first character, ``▁`` before a space, or ``END`` at the end
    of a line.  (The trainer needs the follower to tell, as SentencePiece's
    suffix array does, whether a substring ending a run is always followed
    by the same thing.)  A line break or tab is followed by ``END`` too
    (SentencePiece's sentences end there), which also makes the counts of
    parts of a corpus, cut after line breaks as ``engines.corpus`` cuts, add
    up to the counts of the whole.  Literal ``▁`` words are left out: they
    are always bytes.

    With ``whitespace_runs`` two or more spaces before a word are a run of
    their own, followed by the word's first character (a single space stays
    with the word): the trainer sees whitespace-only substrings to seed
    from, and no other run holds a ``▁`` past its start."""
    runs: Counter[str] = Counter()
    words = (_WS_WORD_NEXT_RE if whitespace_runs else _WORD_NEXT_RE).findall(text)
    for (w, nxt), c in Counter(words).items():
        if w == SPACE_MARK:
            continue
        if w[0] == " ":
            w = _marked(w)
            spaces = len(w) - len(w.lstrip(SPACE_MARK))
            if spaces == len(w):  # spaces alone: one run
                runs[w + _FOLLOWER.get(nxt, nxt)] += c
                continue
            if spaces > 1:
                runs[w[:spaces + 1]] += c
                w = w[spaces:]
        if len(w) == 1:
            runs[w + (END if w in BREAKS else _FOLLOWER.get(nxt, nxt))] += c
            continue
        parts = script_runs(w)
        follower = _FOLLOWER.get(nxt, nxt)
        for i, r in enumerate(parts):
            runs[r + (parts[i + 1][0] if i + 1 < len(parts) else follower)] += c
    return runs
