"""A sentencepiece ``.model`` (serialized ``ModelProto``) for a Unigram model.

Built with sentencepiece's own protobuf module, so the file is what
``sentencepiece.SentencePieceProcessor(model_file=...)`` expects.  The
normalizer is ``identity`` without a dummy prefix or whitespace clean-up,
as our Unigram engine; spaces are escaped to ``▁``.

Differs from ours on text that holds U+2581 itself (sentencepiece cannot
tell it from a space; we spell it in bytes) and on the names of the default
special tokens written in the text (``<unk>``, ``<s>``, ``</s>``: control
symbols that sentencepiece never matches in text; we do).  Extra special
tokens are user-defined symbols, matched in text as ours are.  Scores are
stored, and paths summed, in 32 bits there (64 here): where two paths score
within that rounding of each other, the two can choose differently, mostly
on runs of digits and spaces (``bench/bench_sentencepiece_export.py``,
docs/training-stacks.md: the bundled model 1 of 12,139 lines of
fortunes-zh, a model trained with the default whitespace pieces 109, 0.9 %;
none on the Tang and Song samples).  The ``tokenizer.json`` export keeps
our ties exactly.
"""
from __future__ import annotations

import importlib
from typing import Any

from ..engines.unigram.model import Unigram
from ..errors import MissingExtraError


def sentencepiece_model_bytes(model: Unigram) -> bytes:
    try:
        # Generated protobuf code: no type information to check against.
        pb: Any = importlib.import_module("sentencepiece.sentencepiece_model_pb2")
    except ImportError:
        raise MissingExtraError("a sentencepiece export needs sentencepiece and protobuf: "
                                "pip install 'wubitok[fast]'") from None
    proto = pb.ModelProto()
    kind = pb.ModelProto.SentencePiece
    for i in range(model.vocab_size):
        piece = proto.pieces.add()
        piece.piece = model.id_to_token(i) or ""
        score = model.score(i)
        piece.score = 0.0 if score is None else score  # specials and bytes: not in the Viterbi
        if i == model.unk_id:
            piece.type = kind.UNKNOWN
        elif i < len(model.special_tokens):
            piece.type = kind.CONTROL if i < 3 else kind.USER_DEFINED
        elif score is None:
            piece.type = kind.BYTE
        else:
            piece.type = kind.NORMAL
    spec = proto.trainer_spec
    spec.model_type = pb.TrainerSpec.UNIGRAM
    spec.vocab_size = model.vocab_size
    spec.byte_fallback = model.byte_fallback
    spec.unk_id, spec.bos_id, spec.eos_id, spec.pad_id = 0, 1, 2, -1
    spec.split_by_whitespace = True
    spec.allow_whitespace_only_pieces = model.whitespace_pieces
    norm = proto.normalizer_spec
    norm.name = "identity"
    norm.add_dummy_prefix = False
    norm.remove_extra_whitespaces = False
    norm.escape_whitespaces = True
    return proto.SerializeToString(deterministic=True)
