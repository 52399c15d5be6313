"""Wubi-BPE's pre-tokens: Han clauses, words, digit groups, whitespace.

Merges are learned and applied within a pre-token, never across one, so this
cut decides what a Wubi-BPE token can span.  Two cuts, chosen at training
time and stored in the model (``pre_tokens``):

``clause``  a Han run alone, never joined with anything else (``pretokens``);
``joined``  the GPT-4 (cl100k) split, where a run of letters of any script
            (Han and Latin alike) takes one leading mark or space, and also
            keeps up to two punctuation marks right after it with the line
            breaks after those: "问君何所之。\n", " Unix类型的" (``JOINED_PATTERN``).
"""
from __future__ import annotations

from collections import Counter
from typing import Callable, Iterable, Iterator, Sequence

import regex

from ...errors import InputError
from ...text.segment import segment_texts
from .gpt4 import GPT4_PATTERN
from .special import SpecialSplitter

PRE_TOKEN_MODES = ("clause", "joined")
# The cut of new models: "joined" gives 3.6-10% more characters per token
# than "clause" at 8,000 on every genre of bench/bench_quality.py (docs/benchmarks.md).
DEFAULT_MODE = "joined"
# GPT-4's letter alternative with the trailing marks: its alternatives still
# match every character, so the matches tile the text.
JOINED_PATTERN = GPT4_PATTERN.replace(r"\p{L}+|", r"\p{L}+(?:[^\s\p{L}\p{N}]{1,2}[\r\n]*)?|", 1)
_JOINED = regex.compile(JOINED_PATTERN)


def joined_pretokens(text: str) -> Iterator[str]:
    """The ``joined`` pre-tokens of ``text``; joined they are ``text``."""
    return iter(_JOINED.findall(text))


def pretokens_for(mode: str) -> Callable[[str], Iterable[str]]:
    """The pre-tokenizer of a ``pre_tokens`` mode."""
    if mode == "clause":
        return pretokens
    if mode == "joined":
        return _JOINED.findall  # the list straight from C: no Python frame per text
    raise InputError(f"unknown pre_tokens {mode!r} (choose from {', '.join(PRE_TOKEN_MODES)})")


def pretokens(text: str) -> Iterator[str]:
    """The ``clause`` pre-tokens of ``text``; joined they are ``text``.

    Built on the segmenter's runs: a Han run is one pre-token (a clause, up
    to the next non-Han character), so merges may join characters but never
    join Han with anything else.  Digits go in groups of up to three.  A
    single space before a non-Han pre-token belongs to it (" word", " 42",
    " (") as in GPT-2; the other whitespace stands alone.
    """
    held = False  # a space waiting to join the next pre-token
    for piece, kind in zip(*segment_texts(text)):
        if kind == "space":  # runs are maximal: no space is held here
            if piece[-1] == " ":
                if len(piece) > 1:
                    yield piece[:-1]
                held = True
            else:
                yield piece
            continue
        prefix = ""
        if held:
            if kind == "han":
                yield " "
            else:
                prefix = " "
            held = False
        if kind == "digit" and len(piece) > 3:
            yield prefix + piece[:3]
            for i in range(3, len(piece), 3):
                yield piece[i : i + 3]
        else:
            yield prefix + piece
    if held:
        yield " "


def pretokenize(text: str, offset: int = 0, mode: str = DEFAULT_MODE) -> Iterator[tuple[str, int]]:
    """``(piece, start)`` for the pre-tokens of ``text`` (``start`` + ``offset``)."""
    pos = offset
    for piece in pretokens_for(mode)(text):
        yield piece, pos
        pos += len(piece)


def count_wubi_pretokens(text: str, special_tokens: Sequence[str] = (), mode: str = DEFAULT_MODE) -> Counter[str]:
    """Wubi-BPE's counting step: pre-token -> count in ``text``; special tokens
    written in it are left out (they are never merged).  Pure: counts of
    parts of a corpus add up to the counts of the whole (when cut as
    ``engines.corpus`` cuts)."""
    cut = pretokens_for(mode)
    counts: Counter[str] = Counter()
    for start, end, special in SpecialSplitter(dict.fromkeys(special_tokens, 0)).split(text):
        if special is None:
            counts.update(cut(text[start:end]))
    return counts
