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
stored, and paths summed, in 32 bits there (64 here).  A trained model's
scores are multiples of 1/256 (``unigram.model.SCORE_GRID``), on which every
path sum up to 2**16 is exact in 32 bits too: the ties are the same and break
the same way (the first path into a position), so the ids are ours
(``bench/bench_sentencepiece_export.py``: 0 of 6,000 lines of three modern
genres and 0 of the samples' 15,401).  A model trained before the grid (the
bundled one until it is retrained) may still differ where two paths score
within 32-bit rounding of each other: 1 of 12,139 fortunes-zh lines.  The
``tokenizer.json`` export keeps our ties exactly either way.
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
