"""Wubi-BPE merges learned by Hugging Face ``tokenizers`` (the "fast" backend).

HF's ``BpeTrainer`` sees exactly the pre-tokens the pure-Python trainer
counts, spelled by the same codec: every codec symbol has a one-character
token form (``WubiCodec.tokens``), none of them whitespace, so a pre-token's
spelling is one whitespace-free "word" for HF.  The learned merges (pairs of
strings) are mapped back to this project's ids.  Ties between equally
frequent pairs may go differently from ``bpe.trainer``, so the two backends give
close, not identical, models.
"""
from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Iterator, Sequence

from ...errors import MissingExtraError
from ..base import ProgressCallback, check_cancel

if TYPE_CHECKING:
    from .wubi import WubiBPE

# A word that occurs n times is fed as n space-separated copies, at most this
# many per string so that no single string gets huge.
_REPEAT_BATCH = 4096


def train_merges_fast(
    empty: "WubiBPE",
    words: Sequence[tuple[str, int]],
    *,
    num_merges: int,
    min_frequency: int,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> list[tuple[int, int]]:
    try:
        from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    except ImportError:
        raise MissingExtraError("the fast backend needs Hugging Face tokenizers: pip install wubitok[fast]") from None
    codec_tokens = empty.codec.tokens
    alphabet = codec_tokens[4 : empty.codec.end_id]
    spelled = ["".join(codec_tokens[s] for s in empty._spell(w)) for w, _ in words]

    def feed() -> Iterator[str]:
        for n, (text, (_, count)) in enumerate(zip(spelled, words)):
            if n % 4096 == 0:
                check_cancel(cancel)
            while count > 0:
                k = min(count, _REPEAT_BATCH)
                yield " ".join([text] * k)
                count -= k

    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        vocab_size=len(alphabet) + num_merges,
        min_frequency=min_frequency,
        special_tokens=[],
        initial_alphabet=alphabet,
        show_progress=False,
    )
    if progress is not None:
        progress("merging", 0, num_merges)
    hf.train_from_iterator(feed(), trainer=trainer)
    check_cancel(cancel)
    hf_merges = json.loads(hf.to_str())["model"]["merges"]

    ids = {tok: i for i, tok in enumerate(empty._tokens)}
    merges: list[tuple[int, int]] = []
    for m in hf_merges[:num_merges]:
        left, right = m.split(" ") if isinstance(m, str) else m
        a, b = ids[left], ids[right]
        ids.setdefault(left + right, empty.first_merge_id + len(merges))
        merges.append((a, b))
    if progress is not None:
        progress("merging", len(merges), len(merges))
    return merges
