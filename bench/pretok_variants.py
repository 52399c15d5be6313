"""Pre-token variants for ``bench_quality.py``: where punctuation and spaces go.

Wubi-BPE's own pre-tokens (``pre_tokenizers.wubi``) never join a Han run with
anything else.  The GPT-4 (cl100k) split and sentencepiece let a leading
punctuation mark or space sit with the word after it, a punctuation mark with
the line break after it, and (GPT-4) Latin and Han share a letter run.  These
variants move Wubi-BPE's cut towards them; each is lossless (the pieces
joined are the text), which ``check`` asserts on the corpus.

``lead``   a single space, or the last mark of a punctuation run, joins the
           Han run after it ("，问君何所之"); a punctuation run keeps the line
           breaks right after it ("。\\n"), as in the GPT-4 split;
``trail``  a Han run keeps the punctuation run after it (up to two marks)
           and the line breaks after that ("问君何所之。\\n"); a single space
           before a Han run joins it;
``gpt4``   the GPT-4 split regex itself (letters of any script in one run);
``joined`` the GPT-4 split, but a letter run keeps up to two punctuation
           marks right after it and the line breaks after them (as ``trail``):
           the engine's ``pre_tokens="joined"`` (``pre_tokenizers.wubi``);
``nl``     ``joined``, and a letter run also keeps the line breaks right
           after it when no mark follows it ("选项\n", "option\n");
``nlhan``  ``nl`` for a run that ends in a Han character only ("选项\n" but
           "option", "\n"): issue #38's 32,000 search, bench only.
"""
from __future__ import annotations

from typing import Callable, Iterator

import regex

from wubitok.engines.pre_tokenizers.gpt4 import GPT4_PATTERN
from wubitok.engines.pre_tokenizers.wubi import JOINED_PATTERN, joined_pretokens, pretokens
from wubitok.text.segment import segment_texts

PreTokens = Callable[[str], Iterator[str]]


def _runs(text: str) -> list[tuple[str, str]]:
    """Segment runs with line breaks cut off the front of each space run
    (so a punctuation run can take them)."""
    out: list[tuple[str, str]] = []
    for piece, kind in zip(*segment_texts(text)):
        if kind == "space":
            i = 0
            while i < len(piece) and piece[i] in "\r\n":
                i += 1
            if i:
                out.append((piece[:i], "newline"))
            if i < len(piece):
                out.append((piece[i:], "space"))
        else:
            out.append((piece, kind))
    return out


class _Out:
    """Pre-tokens being built: plain text is buffered and cut by Wubi-BPE's
    own pre-tokenizer; joined pieces go out as they are."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.buf = ""

    def plain(self, text: str) -> None:
        self.buf += text

    def whole(self, piece: str) -> None:
        if self.buf:
            self.pieces.extend(pretokens(self.buf))
            self.buf = ""
        self.pieces.append(piece)

    def done(self) -> Iterator[str]:
        self.whole("")
        return iter(p for p in self.pieces if p)


def lead_pretokens(text: str) -> Iterator[str]:
    runs = _runs(text)
    out = _Out()
    i = 0
    while i < len(runs):
        piece, kind = runs[i]
        nxt = runs[i + 1] if i + 1 < len(runs) else ("", "")
        if kind == "punct" and nxt[1] == "newline":
            out.whole(piece + nxt[0])
            i += 2
            continue
        if nxt[1] == "han" and (kind == "punct" or piece.endswith(" ") and kind == "space"):
            out.plain(piece[:-1])
            out.whole(piece[-1] + nxt[0])
            i += 2
            continue
        if kind == "han":
            out.whole(piece)
        else:
            out.plain(piece)
        i += 1
    return out.done()


def trail_pretokens(text: str) -> Iterator[str]:
    runs = _runs(text)
    out = _Out()
    i = 0
    while i < len(runs):
        piece, kind = runs[i]
        nxt = runs[i + 1] if i + 1 < len(runs) else ("", "")
        if kind == "space" and piece.endswith(" ") and nxt[1] == "han":
            out.plain(piece[:-1])
            runs[i + 1] = (" " + nxt[0], "han")
            i += 1
            continue
        if kind == "han":
            if nxt[1] == "punct" and len(nxt[0]) <= 2:
                piece += nxt[0]
                i += 1
                if i + 1 < len(runs) and runs[i + 1][1] == "newline":
                    piece += runs[i + 1][0]
                    i += 1
            out.whole(piece)
        else:
            out.plain(piece)
        i += 1
    return out.done()


_GPT4 = regex.compile(GPT4_PATTERN)


def gpt4_pretokens(text: str) -> Iterator[str]:
    return iter(_GPT4.findall(text))


_JOINED_TAIL = r"\p{L}+(?:[^\s\p{L}\p{N}]{1,2}[\r\n]*)?|"
assert _JOINED_TAIL in JOINED_PATTERN
_NL = regex.compile(JOINED_PATTERN.replace(_JOINED_TAIL, r"\p{L}+(?:[^\s\p{L}\p{N}]{1,2}[\r\n]*|[\r\n]+)?|", 1))
_NL_HAN = regex.compile(JOINED_PATTERN.replace(
    _JOINED_TAIL, r"\p{L}+(?:[^\s\p{L}\p{N}]{1,2}[\r\n]*|(?<=\p{Han})[\r\n]+)?|", 1))


def nl_pretokens(text: str) -> Iterator[str]:
    return iter(_NL.findall(text))


def nlhan_pretokens(text: str) -> Iterator[str]:
    return iter(_NL_HAN.findall(text))


VARIANTS: dict[str, PreTokens] = {"": pretokens, "lead": lead_pretokens, "trail": trail_pretokens,
                                  "gpt4": gpt4_pretokens, "joined": joined_pretokens, "nl": nl_pretokens,
                                  "nlhan": nlhan_pretokens}


def check(name: str, text: str) -> None:
    joined = "".join(VARIANTS[name](text))
    assert joined == text, f"pre-tokens {name!r} lose text"
