"""GPT-4 style regex pre-tokenization, and special tokens kept whole.

A pre-token is the unit BPE merges never cross.  ``GPT4_PATTERN`` is the
pattern of OpenAI's cl100k tokenizer: English contractions, a run of letters
with at most one leading non-letter (so " word" keeps its space and "(word"
its bracket), numbers in groups of one to three digits, runs of punctuation
with the line breaks after them, line breaks with the spaces before them, and
the remaining whitespace split so that a single space before a word stays
with the word.  The alternatives together match every character, so the
pieces of a text joined give back the text.

Han text has no spaces, so a whole clause of Chinese (up to the next
punctuation mark) is one pre-token, exactly as in cl100k.

A model file stores its pattern, and an edited one may match nothing, skip
characters (``a``, ``(?<=x)y``) or match empty strings (``""``): whatever
such a pattern leaves between two matches becomes a pre-token of its own, so
the pieces joined always give back the text and no pattern can lose any.

Special tokens are matched in the input (longest first, so "<s>" does not
steal the start of "<s>x</s>"-like tokens that share a prefix) and come out
as single pieces that are never pre-tokenized further.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Iterator, Sequence

import regex

from ...errors import InputError
from .regex_bounds import check_pattern, time_budget, too_slow

GPT4_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)


def compile_pattern(pattern: str) -> "regex.Pattern[str]":
    """A model's pattern, compiled; one that can backtrack catastrophically is refused (regex_bounds)."""
    try:
        compiled = regex.compile(pattern)
    except regex.error as exc:
        raise InputError(f"invalid pre-tokenizer pattern: {exc}") from None
    if pattern != GPT4_PATTERN:
        check_pattern(pattern)
    return compiled


class PreTokenizer:
    """Split text into special tokens and regex pre-tokens, with offsets."""

    def __init__(self, pattern: str = GPT4_PATTERN, special_tokens: Sequence[str] = ()):
        self.pattern = pattern
        self._regex = compile_pattern(pattern)
        # GPT-4's alternatives match every character, so its matches need no
        # gap filling (the faster findall does for counting).
        self._covers = pattern == GPT4_PATTERN
        self.special_tokens = list(special_tokens)
        if any(not t for t in self.special_tokens):
            raise InputError("a special token cannot be empty")
        ordered = sorted(set(self.special_tokens), key=lambda t: (-len(t), t))
        self._special = regex.compile("|".join(regex.escape(t) for t in ordered)) if ordered else None

    def _ordinary(self, text: str, start: int, end: int) -> Iterator[tuple[str, int]]:
        """``(piece, start)`` covering ``text[start:end]``: the pattern's
        non-empty matches and, as pieces of their own, the gaps between them."""
        pos = start
        # A model's own pattern runs under a time bound (GPT-4's is ours and linear).
        timeout = None if self._covers else time_budget(end - start)
        try:
            for m in self._regex.finditer(text, start, end, timeout=timeout):
                a, b = m.span()
                if a == b:
                    continue
                if a > pos:
                    yield text[pos:a], pos
                yield text[a:b], a
                pos = b
        except TimeoutError:
            raise too_slow(self.pattern, end - start) from None
        if pos < end:
            yield text[pos:end], pos

    def pieces(self, text: str) -> Iterator[tuple[str, int, bool]]:
        """``(piece, start, is_special)`` in order; the pieces joined are ``text``."""
        pos = 0
        if self._special is not None:
            for sm in self._special.finditer(text):
                for piece, start in self._ordinary(text, pos, sm.start()):
                    yield piece, start, False
                yield sm.group(), sm.start(), True
                pos = sm.end()
        for piece, start in self._ordinary(text, pos, len(text)):
            yield piece, start, False

    def split(self, text: str) -> list[str]:
        """The ordinary pre-tokens of ``text``; special tokens are left out."""
        if not self._covers:
            return [piece for piece, _, special in self.pieces(text) if not special]
        if self._special is None:
            return self._regex.findall(text)
        out: list[str] = []
        for segment in self._special.split(text):
            if segment:
                out.extend(self._regex.findall(segment))
        return out


@lru_cache(maxsize=16)
def _pre_tokenizer(pattern: str, special_tokens: tuple[str, ...]) -> PreTokenizer:
    return PreTokenizer(pattern, special_tokens)


def count_gpt4_pretokens(text: str, special_tokens: Sequence[str] = (), pattern: str = GPT4_PATTERN) -> Counter[str]:
    """Byte-level BPE's counting step: pre-token -> count in ``text``; special
    tokens written in it are left out.  Pure: counts of parts of a corpus add
    up to the counts of the whole (when cut as ``engines.corpus`` cuts)."""
    return Counter(_pre_tokenizer(pattern, tuple(special_tokens)).split(text))
