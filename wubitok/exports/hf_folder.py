"""A transformers tokenizer folder: ``AutoTokenizer.from_pretrained(folder)``.

For byte-level BPE, WordPiece and Unigram the folder is our ``tokenizer.json``
export (``hf_json``, which names the inputs where its ids differ from ours),
``tokenizer_config.json`` with ``PreTrainedTokenizerFast`` and the special
tokens' roles, and ``special_tokens_map.json``: transformers loads it with
no code of ours and pads and truncates.  A model without a pad token (our
Unigram) pads with its end token, as models trained without one do; the
attention mask hides it.  Wubi-BPE's ``transformers`` folder runs our engine
instead (``integrations.transformers``); its ``transformers-fast`` folder is
this one over ``wubi_json``'s file.  All are written by ``fileio.write_folder``.
"""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Sequence

from ..engines.base import Tokenizer
from ..errors import InputError
from ..fileio import write_folder
from . import hf_json, wubi_json

_TOKENIZER_JSON: dict[str, Callable[[Any], str]] = {
    "bpe": hf_json.bpe_tokenizer_json, "wordpiece": hf_json.wordpiece_tokenizer_json,
    "unigram": hf_json.unigram_tokenizer_json, "wubi-bpe": wubi_json.wubi_bpe_tokenizer_json}


def tokenizer_config(model: Tokenizer) -> dict[str, object]:
    """``tokenizer_config.json``: the class and the special tokens' roles."""
    roles: dict[str, object] = dict(model.special_roles())
    roles["pad_token"] = hf_json.pad_token(model)
    return {"tokenizer_class": "PreTrainedTokenizerFast", **roles, "clean_up_tokenization_spaces": False,
            "model_input_names": ["input_ids", "attention_mask"]}


def fast_tokenizer_folder(model: Tokenizer, path: str | os.PathLike, inputs: Sequence[str | os.PathLike] = ()) -> None:
    """``wubitok export --to transformers`` for byte-level BPE, WordPiece and Unigram."""
    make_json = _TOKENIZER_JSON.get(model.model_type)
    if make_json is None:
        raise InputError(f"no tokenizer.json export for {model.model_type} models")
    config = tokenizer_config(model)
    specials = {k: v for k, v in config.items() if k.endswith("_token") and v is not None}

    def fill(folder: str) -> None:
        files = {"tokenizer.json": make_json(model),
                 "tokenizer_config.json": json.dumps(config, ensure_ascii=False, indent=1) + "\n",
                 "special_tokens_map.json": json.dumps(specials, ensure_ascii=False, indent=1) + "\n"}
        for name, text in files.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as fh:
                fh.write(text)

    write_folder(path, fill, inputs)
