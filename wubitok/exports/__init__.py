"""Exports of our models to the formats training stacks load.

``export(model, fmt, path)`` writes one format; ``EXPORTS`` lists which model
type goes to which format.  Each writer's docstring names the inputs on which
the target library cannot give our ids.
"""
from __future__ import annotations

import os
from typing import Sequence

from ..engines.base import Tokenizer
from ..errors import InputError
from ..fileio import atomic_write_bytes
from ..registry import resolve

# (model type, format) -> "module:function" (``wubitok.registry``) of a writer
# returning the file's bytes (or, for a folder format, writing the folder itself).
EXPORTS: dict[tuple[str, str], str] = {
    ("bpe", "tokenizer.json"): "wubitok.exports.hf_json:bpe_tokenizer_json",
    ("bpe", "tiktoken"): "wubitok.exports.ranks:tiktoken_ranks",
    ("wordpiece", "tokenizer.json"): "wubitok.exports.hf_json:wordpiece_tokenizer_json",
    ("wordpiece", "vocab.txt"): "wubitok.exports.ranks:bert_vocab_txt",
    ("unigram", "tokenizer.json"): "wubitok.exports.hf_json:unigram_tokenizer_json",
    ("unigram", "sentencepiece"): "wubitok.exports.sentencepiece_model:sentencepiece_model_bytes",
    ("wubi-bpe", "transformers"): "wubitok.integrations.transformers:save_tokenizer_folder",
    ("wubi-bpe", "tokenizer.json"): "wubitok.exports.wubi_json:wubi_bpe_tokenizer_json",
    ("wubi-bpe", "transformers-fast"): "wubitok.exports.hf_folder:fast_tokenizer_folder",
    ("bpe", "transformers"): "wubitok.exports.hf_folder:fast_tokenizer_folder",
    ("wordpiece", "transformers"): "wubitok.exports.hf_folder:fast_tokenizer_folder",
    ("unigram", "transformers"): "wubitok.exports.hf_folder:fast_tokenizer_folder",
}
FORMATS = sorted({fmt for _, fmt in EXPORTS})
FOLDER_FORMATS = {"transformers", "transformers-fast"}


def export(model: Tokenizer, fmt: str, path: str | os.PathLike, inputs: Sequence[str | os.PathLike] = ()) -> None:
    """Write ``model`` as ``fmt`` to ``path`` (a folder for ``transformers``), atomically; no file
    written may be one of ``inputs`` (a folder's files are checked one by one)."""
    target = EXPORTS.get((model.model_type, fmt))
    if target is None:
        able = [f for (kind, f) in EXPORTS if kind == model.model_type]
        raise InputError(f"a {model.model_type} model cannot be exported as {fmt!r} "
                         f"(it can be as: {', '.join(able) or 'nothing'})")
    parent = os.path.dirname(os.path.abspath(os.fspath(path)))
    if not os.path.isdir(parent):
        raise InputError(f"{parent}: no such folder")
    writer = resolve(target)
    if fmt in FOLDER_FORMATS:
        writer(model, path, inputs)
        return
    data = writer(model)
    atomic_write_bytes(path, data.encode("utf-8") if isinstance(data, str) else data)
