"""BPE merges applied by Hugging Face ``tokenizers``' Rust ``models.BPE`` (the "fast" encoder).

The Python encoder (``bpe.encoder``) gives the tokens of applying the merges
by rank, lowest first, leftmost first among equal pairs; HF's BPE model does
exactly that too.  So the merge step can run in Rust: each base symbol ``s``
is written as the one character ``ALPHABET[s]`` (never whitespace, one or two
UTF-8 bytes for the first 1,886 symbols: HF works by the byte, and that was 9%
of its time against private-use characters), a token as the concatenation of its symbols' characters, and
HF gets a vocabulary of those strings *with this model's ids*, so its ids
need no translation.  The caller spells its pre-tokens in that alphabet and
hands them over joined by spaces; HF's ``WhitespaceSplit`` gives back
exactly those pre-tokens, and merges never cross one.

HF keeps one id per string.  A model where a merge re-creates the string
of an earlier token (possible: ``(ab, c)`` and ``(a, bc)`` both make
``abc``) gives that merge its own id here, and later merges build on it, so
HF would apply different merges: ``RustMerges`` refuses such a model
(``Unsupported``) and the engine keeps its Python encoder.
"""
from __future__ import annotations

from typing import Sequence

from .fast import ALPHABET_SIZE, ordered_alphabet

# Base symbol s is the character ALPHABET[s].
ALPHABET = tuple(ordered_alphabet(ALPHABET_SIZE))
SYMBOL_LIMIT = ALPHABET_SIZE
# Pre-tokens go to HF in strings of about this many characters: long enough
# that the per-call cost vanishes, short enough that HF's per-string
# alignment tables stay small.
_FEED_CHARS = 1 << 16


class Unsupported(Exception):
    """This model's merges cannot be applied by HF's BPE with the same ids."""


class RustMerges:
    """Apply ``merges`` (merge ``i`` makes ``first_new_id + i``) with HF's BPE."""

    def __init__(self, merges: Sequence[tuple[int, int]], first_new_id: int, base_symbols: Sequence[int]):
        from tokenizers import Tokenizer, models, pre_tokenizers

        if max(base_symbols, default=0) >= SYMBOL_LIMIT:
            raise Unsupported("more base symbols than the alphabet has characters")
        strings: dict[int, str] = {s: ALPHABET[s] for s in base_symbols}
        vocab = {text: s for s, text in strings.items()}
        pairs = []
        for i, (a, b) in enumerate(merges):
            if a not in strings or b not in strings:
                raise Unsupported(f"merge {i} uses a symbol that is not a base symbol or an earlier token")
            text = strings[first_new_id + i] = strings[a] + strings[b]
            if text in vocab:
                raise Unsupported(f"merge {i} re-creates the token {vocab[text]}")
            vocab[text] = first_new_id + i
            pairs.append((strings[a], strings[b]))
        hf = Tokenizer(models.BPE(vocab, pairs))
        hf.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        self._hf = hf
        # Without offsets where the installed version can (tokenizers >= 0.21):
        # the engine computes its own, in characters of the original text.
        self._encode = getattr(hf, "encode_batch_fast", hf.encode_batch)

    def encode(self, joined: str) -> list[int]:
        """The ids of the pre-tokens in ``joined`` (each written in ``ALPHABET``,
        one space between two), one after the other."""
        ids: list[int] = []
        pos, n = 0, len(joined)
        while pos < n:
            # one string at a time: HF would spread a batch over threads, and
            # the caller's worker processes already use the cores
            cut = joined.find(" ", pos + _FEED_CHARS)
            if cut < 0:
                cut = n
            ids += self._encode([joined[pos:cut]], add_special_tokens=False)[0].ids
            pos = cut + 1
        return ids
