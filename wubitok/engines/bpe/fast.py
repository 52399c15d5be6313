"""BPE merges learned by Hugging Face ``tokenizers`` (the "fast" backend of both BPE engines).

The caller hands over plain data: each distinct pre-token spelled as a
string of one-character symbols (none of them whitespace), with its count;
the base symbols (HF's initial alphabet) with this project's ids; and the
id the first merge gets.  Each word goes to HF as ``count`` space-separated
copies, so HF's ``WhitespaceSplit`` sees exactly these pre-tokens, each as
often as the corpus has it.  HF's merges (pairs of strings) come back as
pairs of ids, merge ``i`` making ``first_new_id + i``.

When a merge re-creates a string HF already has, HF reuses that token while
these engines give every merge its own id; the string keeps its first id.
Ties between equally frequent pairs go by HF's ids, its alphabet numbered in
code-point order, and in ``trainer`` by ours: an engine writes its symbols as
characters in the order of their ids (``ordered_alphabet``; byte-level BPE
relabels its bytes for ``trainer`` instead), so both backends give the same
merges (tested on the samples, other codecs and hypothesis corpora; no
re-created string has been seen there).
"""
from __future__ import annotations

import json
import os
import threading
from typing import Iterable, Iterator, Sequence

from ...errors import MissingExtraError
from ...progress import check_cancel
from ..base import ProgressCallback

# The copies of words go to HF in strings of about this many characters: HF keeps an
# alignment table of 16 bytes per byte of each string it pre-tokenizes, and buffers strings
# from the iterator, so 1 MB strings cost over 100 MB more peak memory than these.
_FEED_CHARS = 1 << 16
# HF's switch for its thread pool, read at each call.
_PARALLELISM = "TOKENIZERS_PARALLELISM"


# Characters for symbols, in increasing code-point order and none of them whitespace: the 94
# printable ASCII ones (one UTF-8 byte), U+0100-U+07FF (two), then the Private Use Area (three).
ALPHABET_SIZE = 94 + 0x700 + 0x1900


def ordered_alphabet(n: int) -> list[str]:
    """``n`` one-character symbols in increasing code-point order, none of them whitespace, as
    short in UTF-8 as can be (HF copies and indexes its strings by the byte)."""
    if n > ALPHABET_SIZE:
        raise ValueError(f"{n} symbols are more than the {ALPHABET_SIZE} characters for them")
    return [chr(0x21 + i) if i < 94 else chr(0x100 + i - 94) if i < 94 + 0x700 else chr(0xE000 + i - 94 - 0x700)
            for i in range(n)]


def learn_merges_fast(
    words: Iterable[tuple[str, int]],
    alphabet: Sequence[tuple[str, int]],
    *,
    first_new_id: int,
    num_merges: int,
    min_frequency: int,
    max_token_length: int | None = None,
    total: int = 0,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> list[tuple[int, int]]:
    """Up to ``num_merges`` merges from ``(spelling, count)`` words over ``alphabet``
    (``(symbol, id)`` pairs); ``total`` (the sum of the counts, if known) scales progress."""
    try:
        from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    except ImportError:
        raise MissingExtraError("the fast backend needs Hugging Face tokenizers: pip install wubitok[fast]") from None

    def feed() -> Iterator[str]:
        batch: list[str] = []
        size = done = 0
        for word, count in words:
            batch.append(" ".join([word] * count))
            size += (len(word) + 1) * count
            done += count
            if size >= _FEED_CHARS:
                check_cancel(cancel)
                if progress is not None:
                    progress("feeding", done, max(total, done))
                yield " ".join(batch)
                batch, size = [], 0
        if batch:
            yield " ".join(batch)

    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        vocab_size=len(alphabet) + num_merges,
        min_frequency=min_frequency,
        special_tokens=[],
        initial_alphabet=[symbol for symbol, _ in alphabet],
        max_token_length=max_token_length,
        show_progress=False,
    )
    # One thread: HF's parallel pair counting keeps a partial table per thread, and with the
    # feed above that was a third of its peak memory (bench/bench_train_memory.py); its CPU
    # time falls too, and its wall time hardly rises on a few cores.
    before = os.environ.get(_PARALLELISM)
    os.environ[_PARALLELISM] = "false"
    try:
        hf.train_from_iterator(feed(), trainer=trainer)
    finally:
        if before is None:
            del os.environ[_PARALLELISM]
        else:
            os.environ[_PARALLELISM] = before
    check_cancel(cancel)
    hf_merges = json.loads(hf.to_str())["model"]["merges"]
    ids = dict(alphabet)
    merges: list[tuple[int, int]] = []
    for m in hf_merges[:num_merges]:
        left, right = m.split(" ") if isinstance(m, str) else m
        merges.append((ids[left], ids[right]))
        ids.setdefault(left + right, first_new_id + len(merges) - 1)
    if progress is not None:
        progress("merging", len(merges), len(merges))
    return merges
