"""WordPiece training with Hugging Face ``tokenizers`` (``backend="fast"``).

HF's ``BertNormalizer`` + ``BertPreTokenizer``, configured with the model's
options, cut the text into the same words as ``bert_pretokenize`` (tests
compare the two); they run in Rust, so the text goes to HF as it is rather
than through the Python pre-tokenizer.  HF's ``WordPieceTrainer`` is its BPE
trainer with a ``##`` prefix: merges are ranked by pair frequency, not by the
WordPiece score, which is why the model records ``trained_by``.
"""
from __future__ import annotations

import threading
from typing import Iterable, Iterator

from ..errors import MissingExtraError
from .base import ProgressCallback, check_cancel


def _line_batches(blocks: Iterable[str], cancel: threading.Event | None) -> Iterator[list[str]]:
    # HF works on each sequence as a whole and in parallel over a batch, so
    # lines in batches, not megabyte blocks.
    for block in blocks:
        check_cancel(cancel)
        yield block.splitlines()


def train_with_tokenizers(
    blocks: Iterable[str],
    *,
    vocab_size: int,
    min_frequency: int,
    specials: list[str],
    limit_alphabet: int | None,
    lowercase: bool,
    strip_accents: bool,
    max_input_chars_per_word: int,
    progress: ProgressCallback | None,
    cancel: threading.Event | None,
) -> list[str]:
    """The trained vocabulary in id order (specials first, as given)."""
    try:
        from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
    except ImportError:
        raise MissingExtraError(
            "backend 'fast' needs the 'tokenizers' package: pip install wubitok[fast]") from None
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=max_input_chars_per_word))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=strip_accents, lowercase=lowercase)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    limit = {} if limit_alphabet is None else {"limit_alphabet": limit_alphabet}
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, special_tokens=specials,
        continuing_subword_prefix="##", show_progress=False, **limit)
    if progress is not None:
        progress("training", 0, 1)
    # Cancel is honoured while the text streams in; HF's merge loop itself
    # cannot be interrupted (it is short next to reading the corpus).
    tok.train_from_iterator(_line_batches(blocks, cancel), trainer=trainer)
    check_cancel(cancel)
    vocab = tok.get_vocab()
    ordered = sorted(vocab, key=vocab.__getitem__)
    if progress is not None:
        progress("training", 1, 1)
    return ordered
