"""wubitok: Wubi-86 dictionary, typing and Wubi-BPE tokenizers, offline.

The public API is re-exported here lazily, so ``import wubitok`` stays cheap
and never imports Qt.
"""
from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# name -> module that defines it (relative to this package)
_EXPORTS = {
    "WubitokError": "errors",
    "InputError": "errors",
    "FileError": "errors",
    "UnknownCodeError": "errors",
    "DictionaryError": "errors",
    "ModelError": "errors",
    "MissingExtraError": "errors",
    "Cancelled": "errors",
    "WubiDictionary": "dictionary",
    "default_dictionary": "dictionary",
    "Encoding": "engines.base",
    "Tokenizer": "engines.base",
    "load_tokenizer": "engines.base",
    "segment_stream": "segment",
    "Run": "segment",
    "WubiBPE": "engines.bpe.wubi",
    "WubiCodec": "codec",
    "CodecOptions": "codec",
    "ImeEngine": "ime",
    "ImeOptions": "ime",
    "ImeState": "ime",
    "ImeCandidate": "ime",
    "KeyResult": "ime",
    "UserFrequencies": "ime",
    "ByteLevelBPE": "engines.bpe.byte_level",
    "WordPiece": "engines.wordpiece.model",
    "Unigram": "engines.unigram.model",
    "encode_files": "scale",
    "iter_documents": "scale",
    "count_pretokens": "scale",
    "merge_counts": "scale",
    "train_from_counts": "scale",
    "export": "exports",
    "compare_tokenizers": "compare",
    "CompareResult": "compare",
    "load_external": "compare",
    "sample_spans": "compare",
    "train_and_compare": "compare",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'wubitok' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
