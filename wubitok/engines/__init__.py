"""Tokenizer engines: Wubi-BPE and the classic ones it is compared with.

Layout: ``base`` (the contract and the model-file envelope), ``corpus`` (the
training text in blocks), ``backends`` (built-in trainer or the reference
library), ``pre_tokenizers/`` (how each engine cuts text before its model),
then one subpackage per model family: ``bpe/`` (the shared BPE trainer and
encoder, byte-level BPE, Wubi-BPE), ``wordpiece/``, ``unigram/``.

Each module in ``ENGINE_MODULES`` registers its class with
``base.register`` so that ``load_tokenizer`` can find it.
"""
from .base import Encoding, Tokenizer, load_tokenizer, tokenizer_from_dict

# Module names (inside this package) whose import registers an engine.
ENGINE_MODULES: list[str] = [
    "bpe.wubi",
    "bpe.byte_level",
    "wordpiece.model",
    "unigram.model",
]

__all__ = ["Encoding", "Tokenizer", "load_tokenizer", "tokenizer_from_dict", "ENGINE_MODULES"]
