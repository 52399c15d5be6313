"""Per-sample token spans: what the compare panes draw over the text.

Every token is listed with the characters it covers in the original text.
Byte-level pieces of one character are listed too, each with that
character's span and ``partial=True``, so a display can show "1/3 of 中"
rather than hide them.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from typing import Any

from ..engines.base import Tokenizer
from .metrics import unknown_token_id
from .run import NamedTokenizers, named


@dataclass(frozen=True)
class TokenSpan:
    index: int     # position in the token sequence
    id: int
    start: int     # span in the original text, in code points
    end: int
    text: str      # text[start:end]: the whole character(s) even for a partial token
    display: str   # the tokenizer's human-readable form of the token
    partial: bool  # covers only part of the character(s) in its span
    unknown: bool  # the tokenizer's unknown token (the text was lost)

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "id": self.id, "start": self.start, "end": self.end, "text": self.text,
                "display": self.display, "partial": self.partial, "unknown": self.unknown}


def token_spans(tokenizer: Tokenizer, text: str) -> list[TokenSpan]:
    enc = tokenizer.encode(text)
    unk = unknown_token_id(tokenizer)
    partial = enc.partial or repeat(False)
    return [
        TokenSpan(i, tid, start, end, text[start:end], tokenizer.display_at(enc, i), bool(part), tid == unk)
        for i, (tid, (start, end), part) in enumerate(zip(enc.ids, enc.offsets, partial))
    ]


def sample_spans(tokenizers: NamedTokenizers, text: str) -> dict[str, list[TokenSpan]]:
    """Spans of ``text`` under each tokenizer, by name (in the given order)."""
    return {name: token_spans(tok, text) for name, tok in named(tokenizers)}
