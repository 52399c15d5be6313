"""wubitok: Wubi-86 dictionary, typing and Wubi-BPE tokenizers, offline.

The public API is re-exported here lazily, so ``import wubitok`` stays cheap
and never imports Qt.
"""
from __future__ import annotations

import os as _os
import signal as _signal
import sys as _sys


def _interrupted_at_start(signum: int, frame: object) -> None:
    # Ctrl-C while the command's modules load, before wubitok.cli.main() answers it itself.
    _os.write(2, b"wubitok: interrupted\n")
    _os._exit(130)


# Run as the wubitok command (its script, python -m wubitok), not imported by another program nor
# in a worker process: a Ctrl-C in its first second, while modules import, was a traceback
# (issue #37, 10).  The interpreter's own command line says which (sys.argv is "-m" at this point
# under python -m, and a worker is given its parent's).
_cmd = getattr(_sys, "orig_argv", [])
if (len(_cmd) > 1 and _os.path.basename(_cmd[1]) in ("wubitok", "wubitok.exe")
        or any(a == "-m" and b == "wubitok" for a, b in zip(_cmd, _cmd[1:]))) and \
        _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _interrupted_at_start)

from typing import TYPE_CHECKING, Any  # noqa: E402

from .engines import ENGINES  # noqa: E402
from .registry import attribute_table, resolve  # noqa: E402

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

# The public API: name -> "module:attribute" (``wubitok.registry``), every engine of
# ``engines.ENGINES`` included.
_EXPORTS: dict[str, str] = attribute_table([
    *(f"wubitok.errors:{name}" for name in ("WubitokError", "InputError", "FileError", "UnknownCodeError",
                                            "DictionaryError", "ModelError", "MissingExtraError", "Cancelled")),
    "wubitok.wubi.dictionary:WubiDictionary",
    "wubitok.wubi.dictionary:default_dictionary",
    "wubitok.wubi.codec:WubiCodec",
    "wubitok.wubi.codec:CodecOptions",
    "wubitok.text.segment:segment_stream",
    "wubitok.text.segment:Run",
    "wubitok.engines.base:Encoding",
    "wubitok.engines.base:Tokenizer",
    "wubitok.engines.base:load_tokenizer",
    "wubitok.engines.stream:DecodeStream",
    *ENGINES.values(),
    *(f"wubitok.ime:{name}" for name in ("ImeEngine", "ImeOptions", "ImeState", "ImeCandidate", "KeyResult",
                                         "UserFrequencies")),
    *(f"wubitok.scale:{name}" for name in ("encode_files", "iter_documents", "count_pretokens", "merge_counts",
                                           "train_from_counts")),
    "wubitok.exports:export",
    *(f"wubitok.compare:{name}" for name in ("compare_tokenizers", "CompareResult", "load_external",
                                             "sample_spans", "train_and_compare")),
])

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'wubitok' has no attribute {name!r}")
    value = resolve(target)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
