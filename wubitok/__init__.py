"""wubitok: Wubi-86 dictionary, typing and Wubi-BPE tokenizers, offline.

The public API is re-exported here lazily, so ``import wubitok`` stays cheap
and never imports Qt.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # What the lazy __getattr__ below gives, spelled out for type checkers and IDEs
    # (``X as X``: an explicit re-export).  tests/test_packaging.py keeps it in step with _EXPORTS.
    from .compare import CompareResult as CompareResult
    from .compare import compare_tokenizers as compare_tokenizers
    from .compare import load_external as load_external
    from .compare import sample_spans as sample_spans
    from .compare import train_and_compare as train_and_compare
    from .engines.base import Encoding as Encoding
    from .engines.base import Tokenizer as Tokenizer
    from .engines.base import load_tokenizer as load_tokenizer
    from .engines.bpe.byte_level import ByteLevelBPE as ByteLevelBPE
    from .engines.bpe.wubi import WubiBPE as WubiBPE
    from .engines.stream import DecodeStream as DecodeStream
    from .engines.unigram.model import Unigram as Unigram
    from .engines.wordpiece.model import WordPiece as WordPiece
    from .errors import Cancelled as Cancelled
    from .errors import DictionaryError as DictionaryError
    from .errors import FileError as FileError
    from .errors import InputError as InputError
    from .errors import MissingExtraError as MissingExtraError
    from .errors import ModelError as ModelError
    from .errors import UnknownCodeError as UnknownCodeError
    from .errors import WubitokError as WubitokError
    from .exports import export as export
    from .ime import ImeCandidate as ImeCandidate
    from .ime import ImeEngine as ImeEngine
    from .ime import ImeOptions as ImeOptions
    from .ime import ImeState as ImeState
    from .ime import KeyResult as KeyResult
    from .ime import UserFrequencies as UserFrequencies
    from .scale import count_pretokens as count_pretokens
    from .scale import encode_files as encode_files
    from .scale import iter_documents as iter_documents
    from .scale import merge_counts as merge_counts
    from .scale import train_from_counts as train_from_counts
    from .text.segment import Run as Run
    from .text.segment import segment_stream as segment_stream
    from .wubi.codec import CodecOptions as CodecOptions
    from .wubi.codec import WubiCodec as WubiCodec
    from .wubi.dictionary import WubiDictionary as WubiDictionary
    from .wubi.dictionary import default_dictionary as default_dictionary

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
    "WubiDictionary": "wubi.dictionary",
    "default_dictionary": "wubi.dictionary",
    "Encoding": "engines.base",
    "Tokenizer": "engines.base",
    "load_tokenizer": "engines.base",
    "DecodeStream": "engines.stream",
    "segment_stream": "text.segment",
    "Run": "text.segment",
    "WubiBPE": "engines.bpe.wubi",
    "WubiCodec": "wubi.codec",
    "CodecOptions": "wubi.codec",
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
