"""The character-level baseline: every character one token, as common characters are kept whole.

``CharTokenizer.from_text(text, size)`` keeps the ``size - 256`` most frequent
characters of ``text`` as ids 256 and up; any other character is spelled in
its UTF-8 bytes (ids 0-255, each piece with the character's span), so no text
is ever out of vocabulary and none of it is free: an unseen character costs
its bytes.  It is the baseline of ``wubitok lm-eval`` (``chars`` or
``chars:SIZE``), trained on the same training text as the model.
"""
from __future__ import annotations

from ..engines.base import Encoding
from ..errors import InputError
from .data import frequent_chars

BYTES = 256


class CharTokenizer:
    model_type = "chars"

    def __init__(self, chars: list[str]):
        self.chars = chars
        self._ids = {c: BYTES + i for i, c in enumerate(chars)}

    @classmethod
    def from_text(cls, text: str, size: int) -> CharTokenizer:
        if size <= BYTES:
            raise InputError(f"a character vocabulary needs more than {BYTES} ids (its byte fallback), not {size}")
        return cls(sorted(frequent_chars(text, size - BYTES)))

    @property
    def vocab_size(self) -> int:
        return BYTES + len(self.chars)

    def encode(self, text: str, *, add_special_tokens: bool = False) -> Encoding:
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        partial: list[bool] = []
        for i, c in enumerate(text):
            known = self._ids.get(c)
            if known is not None:
                ids.append(known)
                offsets.append((i, i + 1))
                partial.append(False)
                continue
            spelled = c.encode("utf-8", "surrogatepass")
            ids.extend(spelled)
            offsets.extend([(i, i + 1)] * len(spelled))
            partial.extend([len(spelled) > 1] * len(spelled))
        return Encoding(ids, [str(i) for i in ids], offsets, partial)
