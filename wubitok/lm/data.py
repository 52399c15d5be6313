"""Text as a language model reads it: ids with the characters each id covers.

A tokenizer's :class:`~wubitok.engines.base.Encoding` gives every token the
span of characters (code points) it covers: a token of several characters
spans them all; a piece of one character (a byte-level piece, a Wubi code
piece) gets that character's span, as does every other piece of it.  Those
spans are how a token's negative log-likelihood (NLL) is handed to the
characters (:func:`char_bits`):

* a token's NLL is shared equally by the characters of its span (a
  two-character token gives half to each);
* the pieces of one character all land on that character, so the character
  carries the sum of its pieces' NLL (a character spelled in two tokens costs
  both);
* a token with an empty span (a special token) is given to the character at
  its position.

So the characters' shares add up to the text's total NLL, however the text
was split: bits per character over any set of characters (all, the rare
ones) is comparable between tokenizers.
"""
from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..engines.base import Encoding
from ..engines.corpus import safe_blocks
from ..errors import InputError
from ..progress import ProgressCallback, check_cancel

BLOCK_CHARS = 1 << 16  # text encoded per call: cut at safe places, so the ids are those of the whole text
COMMON_CHARS = 3500  # characters outside this many most frequent of the training text are "rare"


class TokenSource(Protocol):
    """What the evaluation needs of a tokenizer: every wubitok tokenizer and external one has it."""

    @property
    def vocab_size(self) -> int: ...

    def encode(self, text: str, *, add_special_tokens: bool = False) -> Encoding: ...


@dataclass(frozen=True)
class Tokenized:
    ids: np.ndarray  # int64, one per token
    starts: np.ndarray  # int64: the first character each token covers
    ends: np.ndarray  # int64: one past its last
    n_chars: int

    @property
    def tokens_per_char(self) -> float:
        return len(self.ids) / self.n_chars if self.n_chars else 0.0


def encode_text(tokenizer: TokenSource, text: str, *, progress: ProgressCallback | None = None,
                stage: str = "encoding", cancel: threading.Event | None = None) -> Tokenized:
    """``text`` in ``tokenizer``'s ids, with each id's character span in ``text``."""
    ids: list[int] = []
    spans: list[tuple[int, int]] = []
    base = 0
    for block in safe_blocks([text], BLOCK_CHARS, cancel=cancel):
        enc = tokenizer.encode(block)
        ids.extend(enc.ids)
        spans.extend((base + s, base + e) for s, e in enc.offsets)
        base += len(block)
        if progress is not None:
            progress(stage, base, len(text))
    check_cancel(cancel)
    array = np.array(spans, dtype=np.int64).reshape(-1, 2)
    return Tokenized(np.array(ids, dtype=np.int64), array[:, 0].copy(), array[:, 1].copy(), len(text))


def char_bits(text: Tokenized, token_bits: np.ndarray) -> np.ndarray:
    """Each character's share of the tokens' NLL (bits), by the rule of the module doc."""
    out = np.zeros(text.n_chars, dtype=np.float64)
    if not text.n_chars:
        return out
    starts = np.minimum(text.starts, text.n_chars - 1)
    widths = np.maximum(text.ends - starts, 1)
    shares = np.repeat(token_bits / widths, widths)
    positions = np.repeat(starts, widths) + (np.arange(widths.sum()) - np.repeat(np.cumsum(widths) - widths, widths))
    np.add.at(out, positions, shares)
    return out


def frequent_chars(text: str, top: int = COMMON_CHARS) -> frozenset[str]:
    """The ``top`` most frequent characters of ``text`` (ties by code point, so the set is fixed)."""
    counts = Counter(text)
    return frozenset(sorted(counts, key=lambda c: (-counts[c], c))[:top])


def rare_mask(text: str, frequent: frozenset[str]) -> np.ndarray:
    """True for each character of ``text`` that is not in ``frequent``."""
    return np.fromiter((c not in frequent for c in text), dtype=bool, count=len(text))


def vocab_of(tokenizer: TokenSource, *texts: Tokenized) -> int:
    """Ids the model needs: the tokenizer's vocabulary, or more if it gives ids past it (added tokens)."""
    top = max((int(t.ids.max()) + 1 for t in texts if len(t.ids)), default=0)
    vocab = max(int(tokenizer.vocab_size), top)
    if vocab < 1:
        raise InputError("the tokenizer has an empty vocabulary")
    return vocab
