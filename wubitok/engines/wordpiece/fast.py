"""WordPiece training with Hugging Face ``tokenizers`` (``backend="fast"``).

HF's ``BertNormalizer`` + ``BertPreTokenizer``, configured with the model's
options, cut the text into the same words as ``pre_tokenizers.bert`` (tests
compare the two); they run in Rust, so the text goes to HF as it is rather
than through the Python pre-tokenizer, and files are read by HF itself.  HF's ``WordPieceTrainer`` is its BPE
trainer with a ``##`` prefix: merges are ranked by pair frequency, not by the
WordPiece score, which is why the model records ``trained_by``.
"""
from __future__ import annotations

import threading
from typing import Any, Iterable, Iterator

from ...progress import check_cancel
from ..base import ProgressCallback
from ..corpus import Corpus


def _line_batches(blocks: Iterable[str], cancel: threading.Event | None) -> Iterator[list[str]]:
    # HF works on each sequence as a whole and in parallel over a batch, so
    # lines in batches, not megabyte blocks.
    for block in blocks:
        check_cancel(cancel)
        yield block.splitlines()


def train_with_tokenizers(
    corpus: Corpus,
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
    # Imported here: the extra is optional (backends.check_backend has
    # checked that it is installed).  The corpus's files are checked already.
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=max_input_chars_per_word))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=strip_accents, lowercase=lowercase)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    # HF takes no None for limit_alphabet: leave it out for "no limit".
    limit: dict[str, Any] = {} if limit_alphabet is None else {"limit_alphabet": limit_alphabet}
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, special_tokens=specials,
        continuing_subword_prefix="##", show_progress=False, **limit)
    if progress is not None:
        progress("training", 0, 1)
    if corpus.texts is None and all(p.encoding == "utf-8" for p in corpus.paths):
        # Files only: HF reads them itself, in Rust and in parallel (a
        # Python reader would cost more than the training).  HF reads UTF-8
        # only: files in other encodings stream through the reader below.
        check_cancel(cancel)
        tok.train([str(p) for p in corpus.paths], trainer=trainer)
    else:
        # Cancel is honoured while the text streams in; HF's merge loop
        # itself cannot be interrupted (it is short next to the reading).
        tok.train_from_iterator(_line_batches(corpus.blocks(cancel=cancel), cancel), trainer=trainer)
    check_cancel(cancel)
    vocab = tok.get_vocab()
    ordered = sorted(vocab, key=vocab.__getitem__)
    if progress is not None:
        progress("training", 1, 1)
    return ordered
