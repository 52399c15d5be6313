"""Plain-text vocabularies: a tiktoken rank file and BERT's ``vocab.txt``."""
from __future__ import annotations

import base64

from ..engines.bpe.byte_level import ByteLevelBPE
from ..engines.wordpiece.model import WordPiece
from ..errors import ModelError


def tiktoken_ranks(model: ByteLevelBPE) -> str:
    """``base64(token bytes) rank`` per line, the format ``tiktoken.load.load_tiktoken_bpe`` reads.

    Ranks are our ids, so the special tokens (ids 0..k-1, which a rank file
    cannot hold) go to ``tiktoken.Encoding(special_tokens=...)`` with their
    ids, and the pattern is the model's (``model.pattern``, cl100k's by
    default).  tiktoken merges by the rank of the joined bytes; for a model
    trained by BPE that is the merge order.  A merge that re-creates an
    existing string keeps the first rank (tiktoken has one rank per byte
    string), so ids differ where ours would use the later one; lone
    surrogates become U+FFFD in tiktoken.
    """
    k = len(model.special_tokens)
    seen: set[bytes] = set()
    lines = []
    for i in range(k, model.vocab_size):
        data = model.token_bytes(i)
        if data in seen:
            continue
        seen.add(data)
        lines.append(f"{base64.b64encode(data).decode('ascii')} {i}\n")
    return "".join(lines)


def bert_vocab_txt(model: WordPiece) -> str:
    """One token per line in id order: what BERT's ``vocab_file`` is."""
    tokens = [model.id_to_token(i) or "" for i in range(model.vocab_size)]
    bad = next((t for t in tokens if not t or "\n" in t or "\r" in t or t != t.strip()), None)
    if bad is not None:
        raise ModelError(f"token {bad!r} cannot be a line of vocab.txt")
    return "".join(t + "\n" for t in tokens)
