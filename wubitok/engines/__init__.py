"""Tokenizer engines: Wubi-BPE and the classic ones it is compared with.

Each module in ``ENGINE_MODULES`` registers its class with
``base.register`` so that ``load_tokenizer`` can find it.
"""
from .base import Encoding, Tokenizer, load_tokenizer, tokenizer_from_dict

# Module names (inside this package) whose import registers an engine.
ENGINE_MODULES: list[str] = [
    "wubi_bpe",
    "bpe",
    "wordpiece",
    "unigram",
]

__all__ = ["Encoding", "Tokenizer", "load_tokenizer", "tokenizer_from_dict", "ENGINE_MODULES"]
