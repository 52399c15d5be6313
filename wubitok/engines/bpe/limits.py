"""How long a BPE token may be: checked when training and when loading.

A merge makes a token as long as its two parts together, so a model file
whose every merge joins the previous token with itself spells a token of
2**n symbols after n merges: a 1 KB file that would need more memory than
any machine has, at load or at the first encode.  Real vocabularies stay far
below MAX_TOKEN_SYMBOLS (OpenAI's cl100k's longest token is 128 bytes), so
both trainers stop a token from growing past it (Hugging Face's
``BpeTrainer(max_token_length=...)``, the same rule in ``bpe.trainer``) and
a model with a longer token is refused before any token is spelled out.
"""
from __future__ import annotations

from ...errors import InputError

# Symbols (bytes for byte-level BPE, Wubi keys for Wubi-BPE) in one token.
MAX_TOKEN_SYMBOLS = 1024


def check_token_length(merge: int, length: int) -> None:
    """Refuse merge number ``merge`` if the token it makes has more than MAX_TOKEN_SYMBOLS symbols."""
    if length > MAX_TOKEN_SYMBOLS:
        raise InputError(f"merge {merge} makes a token of {length} symbols; "
                         f"a token has at most {MAX_TOKEN_SYMBOLS}")
