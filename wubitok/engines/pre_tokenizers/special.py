"""Finding special tokens in input text, so that they are never split.

A special token written in the text (``"[CLS]"``, ``"<s>"``) becomes its one
id, as Hugging Face ``tokenizers`` does with added tokens; the text between
them goes through the engine's normal path.  Where two specials overlap the
longer one wins.
"""
from __future__ import annotations

import re
from typing import Mapping, Sequence

from ...errors import InputError


def special_token_list(defaults: Sequence[str], extra: Sequence[str] | None) -> list[str]:
    """An engine's default special tokens (at fixed ids), then the user's, without repeats."""
    if extra is not None and not isinstance(extra, (list, tuple)):
        raise InputError(f"special_tokens must be a list of strings, not {extra!r}")
    out = list(defaults)
    for tok in extra or ():
        if not isinstance(tok, str) or not tok:
            raise InputError(f"special tokens must be non-empty strings, not {tok!r}")
        if tok not in out:
            out.append(tok)
    return out


class SpecialSplitter:
    def __init__(self, specials: Mapping[str, int]):
        self._ids = dict(specials)
        names = sorted((s for s in self._ids if s), key=lambda s: (-len(s), s))
        self._pattern = re.compile("|".join(map(re.escape, names))) if names else None

    def has_special(self, text: str) -> bool:
        return self._pattern is not None and self._pattern.search(text) is not None

    def split(self, text: str) -> list[tuple[int, int, int | None]]:
        """``(start, end, special_id)`` spans covering ``text`` in order;
        ``special_id`` is None for ordinary text."""
        if self._pattern is None:
            return [(0, len(text), None)] if text else []
        out: list[tuple[int, int, int | None]] = []
        pos = 0
        for m in self._pattern.finditer(text):
            if m.start() > pos:
                out.append((pos, m.start(), None))
            out.append((m.start(), m.end(), self._ids[m.group()]))
            pos = m.end()
        if pos < len(text):
            out.append((pos, len(text), None))
        return out
