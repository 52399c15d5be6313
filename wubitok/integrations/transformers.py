"""Wubi-BPE as a Hugging Face ``transformers`` tokenizer.

``WubiBPETokenizer`` is a ``PreTrainedTokenizer`` around a wubitok model:
the ids are exactly ``wubitok encode``'s (the text goes to our engine, special
tokens written in the text included), ``decode`` is our exact decode (a
prefix of ids that ends inside a character ends in U+FFFD, never in another
character, so ``TextStreamer`` prints only final text), and
``<pad> <unk> <s> </s>`` are the pad, unk, bos and eos tokens.  Padding,
truncation, attention masks, tensors and ``return_offsets_mapping`` work as
with any transformers tokenizer; ``add_special_tokens`` (transformers' default)
adds ``<s>`` and ``</s>`` as ``encode(text, add_special_tokens=True)`` does, unless
``add_bos_token`` / ``add_eos_token`` say otherwise.

A saved folder holds ``wubitok.json`` (the model), ``tokenizer_config.json``
with an ``auto_map`` and ``tokenization_wubitok.py``, a two-line module that
imports this class, so ``AutoTokenizer.from_pretrained(folder,
trust_remote_code=True)`` loads it wherever wubitok is installed, offline.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Sequence

from ..engines.base import Tokenizer, load_tokenizer
from ..engines.stream import DecodeStream
from ..errors import InputError, MissingExtraError
from ..fileio import write_folder

_ADVICE_OFF = "TRANSFORMERS_NO_ADVISORY_WARNINGS"


def _import_quietly() -> None:
    # transformers advises at its first import, on stderr, that PyTorch was
    # not found: a tokenizer needs no PyTorch, and `wubitok export` prints
    # nothing it did not say.  Only that import, only when it is the first.
    if "transformers" in sys.modules:
        return
    before = os.environ.get(_ADVICE_OFF)
    os.environ[_ADVICE_OFF] = "1"
    try:
        import transformers  # noqa: F401
    finally:
        if before is None:
            del os.environ[_ADVICE_OFF]
        else:
            os.environ[_ADVICE_OFF] = before


try:
    _import_quietly()
    from transformers import PreTrainedTokenizer
    from transformers.tokenization_utils_base import BatchEncoding, PaddingStrategy
except ImportError:
    raise MissingExtraError("the transformers tokenizer needs transformers: pip install 'wubitok[hf]'") from None

MODEL_FILE = "wubitok.json"
CODE_FILE = "tokenization_wubitok.py"
_SHIM = (
    '"""Loads the wubitok tokenizer of this folder (pip install \'wubitok[hf]\')."""\n'
    "from wubitok.integrations.transformers import WubiBPETokenizer\n\n"
    '__all__ = ["WubiBPETokenizer"]\n'
)


class WubiBPETokenizer(PreTrainedTokenizer):
    vocab_files_names = {"model_file": MODEL_FILE}
    model_input_names = ["input_ids", "attention_mask"]

    def __init__(self, model_file: str | None = None, *, model: Tokenizer | None = None,
                 add_bos_token: bool | None = None, add_eos_token: bool | None = None, **kwargs: Any):
        if (model_file is None) == (model is None):
            raise InputError("give a model file or a model (exactly one)")
        self.wubitok_model = model if model is not None else load_tokenizer(model_file)  # type: ignore[arg-type]
        if self.wubitok_model.model_type != "wubi-bpe":
            raise InputError(f"WubiBPETokenizer wraps a wubi-bpe model, not {self.wubitok_model.model_type}")
        # Unless told: the frame of encode(add_special_tokens=True), so both give the same ids.
        first, last = self.wubitok_model.special_frame()
        add_bos_token = bool(first) if add_bos_token is None else add_bos_token
        add_eos_token = bool(last) if add_eos_token is None else add_eos_token
        self.add_bos_token = add_bos_token
        self.add_eos_token = add_eos_token
        for name, tok in (("pad_token", "<pad>"), ("unk_token", "<unk>"), ("bos_token", "<s>"), ("eos_token", "</s>")):
            kwargs.setdefault(name, tok)
        kwargs.setdefault("clean_up_tokenization_spaces", False)
        self._auto_map = {"AutoTokenizer": [f"{CODE_FILE[:-3]}.WubiBPETokenizer", None]}
        super().__init__(add_bos_token=add_bos_token, add_eos_token=add_eos_token, **kwargs)

    # -- vocabulary ---------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        return self.wubitok_model.vocab_size

    def get_vocab(self) -> dict[str, int]:
        vocab: dict[str, int] = {}
        for i in range(self.wubitok_model.vocab_size):
            vocab.setdefault(self.wubitok_model.id_to_token(i) or "", i)  # a repeated string keeps its first id
        return vocab

    def _tokenize(self, text: str, **kwargs: Any) -> list[str]:
        model = self.wubitok_model.ordinary() if kwargs.get("split_special_tokens") else self.wubitok_model
        return model.encode(text).tokens

    def _convert_token_to_id(self, token: str) -> int:
        i = self.wubitok_model.token_to_id(token)
        return self.unk_token_id if i is None else i

    def _convert_id_to_token(self, index: int) -> str:
        return self.wubitok_model.id_to_token(index) or self.unk_token

    def convert_tokens_to_string(self, tokens: list[str]) -> str:
        return self.wubitok_model.decode([self._convert_token_to_id(t) for t in tokens])

    def _decode(self, token_ids: int | list[int], skip_special_tokens: bool = False,
                clean_up_tokenization_spaces: bool | None = None, **kwargs: Any) -> str:
        ids = [token_ids] if isinstance(token_ids, int) else [int(i) for i in token_ids]
        if skip_special_tokens:
            special = set(self.all_special_ids)
            ids = [i for i in ids if i not in special]
        return self.wubitok_model.decode(ids)

    def decode_stream(self, skip_special_tokens: bool = False) -> DecodeStream:
        """Our incremental decoder over this model: ``step(id)`` gives the text that is final.
        (``decode`` of a prefix that ends inside a character ends in U+FFFD,
        which transformers' ``TextStreamer`` holds back, so it prints only final text too.)"""
        return self.wubitok_model.decode_stream(skip_special_tokens=skip_special_tokens)

    def build_inputs_with_special_tokens(self, token_ids_0: list[int],
                                         token_ids_1: list[int] | None = None) -> list[int]:
        bos = [self.bos_token_id] if self.add_bos_token else []
        eos = [self.eos_token_id] if self.add_eos_token else []
        out = bos + token_ids_0 + eos
        return out if token_ids_1 is None else out + bos + token_ids_1 + eos

    def num_special_tokens_to_add(self, pair: bool = False) -> int:
        return (int(self.add_bos_token) + int(self.add_eos_token)) * (2 if pair else 1)

    # -- encoding: our engine gives the ids and offsets ------------------------------
    # The base class's keywords arrive in **kwargs and are read from there.
    def _encode_plus(self, text: Any, text_pair: Any = None, add_special_tokens: bool = True,  # type: ignore[override]
                     padding_strategy: PaddingStrategy = PaddingStrategy.DO_NOT_PAD, **kwargs: Any) -> BatchEncoding:
        offsets = kwargs.pop("return_offsets_mapping", False)
        batched = isinstance(text, (list, tuple)) and all(isinstance(t, str) for t in text)
        if batched or isinstance(text, str):
            texts = list(text) if batched else [text]
            pairs = list(text_pair) if batched and text_pair is not None else [text_pair]
            # split_special_tokens (transformers' option): special-token text is plain text
            model = self.wubitok_model
            if kwargs.get("split_special_tokens", self.split_special_tokens):
                model = model.ordinary()
            encs = model.encode_batch(texts)
            pair_encs = model.encode_batch(pairs) if text_pair is not None else [None] * len(encs)
            if offsets and text_pair is not None:
                raise NotImplementedError("return_offsets_mapping is for single texts, not pairs")
            out = [self._one(e, p, add_special_tokens, kwargs, offsets) for e, p in zip(encs, pair_encs)]
            if not batched:
                return self._finish(out[0], padding_strategy, kwargs, prepend=True)
            merged: dict[str, list] = {}
            for item in out:
                for key, value in item.items():
                    merged.setdefault(key, []).append(value)
            return self._finish(merged, padding_strategy, kwargs, prepend=False)
        return super()._encode_plus(text, text_pair, add_special_tokens, padding_strategy, **kwargs)

    def _one(self, enc: Any, pair: Any, add_special_tokens: bool, kwargs: dict[str, Any],
             offsets: bool) -> dict[str, Any]:
        item = dict(self.prepare_for_model(
            enc.ids, pair_ids=None if pair is None else pair.ids, add_special_tokens=add_special_tokens,
            truncation=strategy.value if (strategy := kwargs.get("truncation_strategy")) is not None else False,
            max_length=kwargs.get("max_length"), stride=kwargs.get("stride", 0),
            return_attention_mask=False, return_token_type_ids=kwargs.get("return_token_type_ids"),
            return_overflowing_tokens=kwargs.get("return_overflowing_tokens", False),
            return_special_tokens_mask=kwargs.get("return_special_tokens_mask", False),
            return_length=kwargs.get("return_length", False), verbose=kwargs.get("verbose", True)))
        if offsets:
            kept = len(item["input_ids"]) - (self.num_special_tokens_to_add() if add_special_tokens else 0)
            spans = [tuple(o) for o in enc.offsets]
            spans = spans[:kept] if self.truncation_side == "right" else spans[len(spans) - kept:]
            bos = [(0, 0)] if add_special_tokens and self.add_bos_token else []
            eos = [(0, 0)] if add_special_tokens and self.add_eos_token else []
            item["offset_mapping"] = bos + spans + eos
        return item

    def _finish(self, data: dict[str, Any], padding_strategy: PaddingStrategy, kwargs: dict[str, Any],
                prepend: bool) -> BatchEncoding:
        offsets = data.pop("offset_mapping", None)
        padded = self.pad(data, padding=padding_strategy.value, max_length=kwargs.get("max_length"),
                          pad_to_multiple_of=kwargs.get("pad_to_multiple_of"),
                          padding_side=kwargs.get("padding_side"),
                          return_attention_mask=kwargs.get("return_attention_mask"))
        result = dict(padded)
        if offsets is not None:
            side = kwargs.get("padding_side") or self.padding_side
            ids = result["input_ids"]
            rows, lengths = ([offsets], [len(ids)]) if prepend else (offsets, [len(r) for r in ids])
            filled = [(r + [(0, 0)] * (n - len(r))) if side == "right" else ([(0, 0)] * (n - len(r)) + r)
                      for r, n in zip(rows, lengths)]
            result["offset_mapping"] = filled[0] if prepend else filled
        return BatchEncoding(result, tensor_type=kwargs.get("return_tensors"), prepend_batch_axis=prepend)

    # -- saving -------------------------------------------------------------------
    def save_vocabulary(self, save_directory: str, filename_prefix: str | None = None) -> tuple[str, ...]:
        path = os.path.join(save_directory, (filename_prefix + "-" if filename_prefix else "") + MODEL_FILE)
        self.wubitok_model.save(path)
        with open(os.path.join(save_directory, CODE_FILE), "w", encoding="utf-8") as fh:
            fh.write(_SHIM)
        return (path,)


def save_tokenizer_folder(model: Tokenizer, path: str | os.PathLike, inputs: Sequence[str | os.PathLike] = ()) -> None:
    """``wubitok export --to transformers`` (``fileio.write_folder``: no half folder, and no file
    it would replace may be one of ``inputs``)."""
    tok = WubiBPETokenizer(model=model)
    # AutoTokenizer(trust_remote_code=True) marks the class it loaded for
    # "auto" saving, which would copy this module (not the shim) into the
    # folder and fail on its relative imports; the folder gets our auto_map.
    tok._auto_class = None
    write_folder(path, tok.save_pretrained, inputs)
