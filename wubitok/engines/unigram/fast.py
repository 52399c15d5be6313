"""Unigram training with sentencepiece (``backend="fast"``).

sentencepiece sees the same words as the pure-Python trainer: its settings
(identity normalization, no dummy prefix, spaces kept as they are, split by
whitespace and script, all characters kept) make it cut a line exactly as
``pre_tokenizers.metaspace`` cuts a word sequence, once the text is split into
lines at every line break, tab and literal ``▁`` (the places where this
engine always ends a word and sentencepiece would not).  Lines go to
sentencepiece whole, not as a word list, because its seed search ignores
counts in its word-list (TSV) input.

Only the trained pieces and their scores are kept; specials and byte pieces
are this engine's own.  A line break or tab has no piece in such a model and
is encoded by byte fallback (one byte token, as a piece would be one token).
"""
from __future__ import annotations

import io
import re
import threading
from typing import Iterable, Iterator

from ...errors import InputError
from ...processes import available_cores
from ...progress import check_cancel
from ..base import ProgressCallback
from ..pre_tokenizers.metaspace import BREAKS, SPACE_MARK

_LINE_CUT = re.compile(f"[{BREAKS}{SPACE_MARK}]+")


def _lines(blocks: Iterable[str], cancel: threading.Event | None) -> Iterator[str]:
    for block in blocks:
        check_cancel(cancel)
        for line in _LINE_CUT.split(block):
            if line:
                yield line


def train_with_sentencepiece(
    blocks: Iterable[str],
    *,
    vocab_size: int,
    byte_fallback: bool,
    max_piece_length: int,
    seed_size: int,
    shrinking_factor: float,
    num_sub_iterations: int,
    whitespace_pieces: bool = False,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> list[tuple[str, float]]:
    """sentencepiece's trained pieces with their scores, best first.
    ``vocab_size`` counts ``<unk>``, ``<s>``, ``</s>`` and the byte pieces."""
    # Imported here: the extra is optional (backends.check_backend has
    # checked that it is installed).
    import sentencepiece as spm

    if progress is not None:
        progress("training", 0, 1)
    # Read (and cancel) before sentencepiece starts: an exception raised
    # inside its sentence iterator would be lost in C++.
    lines = []
    for line in _lines(blocks, cancel):
        lines.append(line)
    check_cancel(cancel)
    model = io.BytesIO()
    try:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(lines), model_writer=model, model_type="unigram",
            vocab_size=vocab_size, byte_fallback=byte_fallback, character_coverage=1.0,
            normalization_rule_name="identity", add_dummy_prefix=False, remove_extra_whitespaces=False,
            split_by_whitespace=True, split_by_unicode_script=True, split_by_number=True,
            allow_whitespace_only_pieces=whitespace_pieces,
            max_sentencepiece_length=max_piece_length, seed_sentencepiece_size=max(1000, seed_size),
            shrinking_factor=shrinking_factor, num_sub_iterations=num_sub_iterations,
            max_sentence_length=1 << 30, input_sentence_size=0, hard_vocab_limit=False,
            num_threads=min(16, available_cores()), minloglevel=2)
    except RuntimeError as exc:
        # e.g. "Vocabulary size is smaller than required_chars"
        detail = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise InputError(f"sentencepiece could not train this model: {detail}") from None
    check_cancel(cancel)
    sp = spm.SentencePieceProcessor(model_proto=model.getvalue())
    pieces = []
    for i in range(sp.get_piece_size()):
        if sp.is_byte(i) or sp.is_control(i) or sp.is_unknown(i) or sp.is_unused(i):
            continue
        pieces.append((sp.id_to_piece(i), sp.get_score(i)))
    if progress is not None:
        progress("training", 1, 1)
    return sorted(pieces, key=lambda x: (-x[1], x[0]))
