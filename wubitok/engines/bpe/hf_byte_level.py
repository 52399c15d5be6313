"""Byte-level BPE's ids from Hugging Face ``tokenizers`` (the "fast" encoder).

The same tokenizer as our ``tokenizer.json`` export (GPT-4 regex split,
ByteLevel bytes-to-characters, BPE by merge rank), built in memory with our
ids as its vocabulary and without added tokens.  It gives our ids except
where the export documents otherwise, and those cases never reach it:

* a merge that re-creates a token string made before (HF keeps one id per
  string): such a model is ``Unsupported`` and encodes in Python;
* another pre-tokenizer pattern than GPT-4's (the two regex engines could
  read a pattern differently): ``Unsupported``;
* text with a lone surrogate (a Rust string cannot hold one) or, where the
  model reads special tokens, with one written in it: ``ByteLevelBPE``
  encodes those texts in Python.

Only ids: ``encode`` (with offsets) stays ours.
"""
from __future__ import annotations

from typing import Sequence


class Unsupported(Exception):
    """This model's ids cannot be had from HF's BPE exactly."""


class HFByteLevelIds:
    """The model as plain data (not the model, which imports this module): its pre-tokenizer
    ``pattern``, the token strings of ids ``first_id`` on (the 256 bytes, then one per merge) and
    its merges, whose ids count from the first byte (0) as ``ByteLevelBPE.merges`` does."""

    def __init__(self, pattern: str, pieces: Sequence[str], merges: Sequence[tuple[int, int]], first_id: int):
        from tokenizers import Regex, Tokenizer, models, pre_tokenizers

        from ..pre_tokenizers.gpt4 import GPT4_PATTERN

        if pattern != GPT4_PATTERN:
            raise Unsupported("a pre-tokenizer pattern other than GPT-4's")
        if len(set(pieces)) != len(pieces):
            raise Unsupported("a merge re-creates a token string")
        vocab = {t: i + first_id for i, t in enumerate(pieces)}
        pairs = [(pieces[a], pieces[b]) for a, b in merges]
        tok = Tokenizer(models.BPE(vocab=vocab, merges=pairs, fuse_unk=False, byte_fallback=False))
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(GPT4_PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ])
        self._tok = tok

    def ids(self, texts: Sequence[str]) -> list[list[int]]:
        return [e.ids for e in self._tok.encode_batch(list(texts), add_special_tokens=False)]
