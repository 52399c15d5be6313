"""Wubi-BPE's pre-tokens: Han clauses, words, digit groups, whitespace.

Merges are learned and applied within a pre-token, never across one, so this
cut decides what a Wubi-BPE token can span.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterator, Sequence

from ...segment import segment_texts
from .special import SpecialSplitter


def pretokens(text: str) -> Iterator[str]:
    """The pre-tokens of ``text``; joined they are ``text``.

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


def pretokenize(text: str, offset: int = 0) -> Iterator[tuple[str, int]]:
    """``(piece, start)`` for the pre-tokens of ``text`` (``start`` + ``offset``)."""
    pos = offset
    for piece in pretokens(text):
        yield piece, pos
        pos += len(piece)


def count_wubi_pretokens(text: str, special_tokens: Sequence[str] = ()) -> Counter[str]:
    """Wubi-BPE's counting step: pre-token -> count in ``text``; special tokens
    written in it are left out (they are never merged).  Pure: counts of
    parts of a corpus add up to the counts of the whole (when cut as
    ``engines.corpus`` cuts)."""
    counts: Counter[str] = Counter()
    for start, end, special in SpecialSplitter(dict.fromkeys(special_tokens, 0)).split(text):
        if special is None:
            counts.update(pretokens(text[start:end]))
    return counts
