"""Incremental decoding: feed ids as a model produces them, get the text that is final.

Like ``tokenizers.decoders.DecodeStream``: a token can end inside a
character (a byte of a multi-byte character, a Wubi spelling without its
final key), and such a character must not be shown until its last token has
come.  Every engine's ``decode`` marks a character cut off by the end of the
ids with U+FFFD, and ``Tokenizer._open_tail`` says how many of the last
characters later ids may still change; ``DecodeStream`` gives out only the
text before them, once.

The stream decodes a window of ids, not everything fed so far: when the text
of the window is final, the window restarts at its last id, which stays as
context (WordPiece puts a space before a word depending on the word before;
a ``##`` piece joins it), or empty for a tokenizer whose ``stream_context``
is 0: Wubi-BPE, where a final text ends where a character does, and an id
read alone may not begin where one does (``shared-bytes`` reads it from a
character's start).  So each step costs about the length of the open
character, not of the whole output.
"""
from __future__ import annotations

from typing import Iterable, Protocol, Sequence


class Decoder(Protocol):
    """What the stream needs of a tokenizer (``engines.base.Tokenizer`` has it); named here,
    not imported, so that base, which makes streams, and this module form no import circle."""

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str: ...

    def _open_tail(self, ids: Sequence[int], text: str) -> int: ...

    @property
    def stream_context(self) -> int: ...


class DecodeStream:
    """``step(id)`` returns the text that became final with that id ("" when
    none did); ``finish()`` returns the rest, an unfinished character as
    U+FFFD.  The pieces joined are ``tokenizer.decode(all ids)``."""

    def __init__(self, tokenizer: Decoder, *, skip_special_tokens: bool = False):
        self._tokenizer = tokenizer
        self._skip = skip_special_tokens
        self._ids: list[int] = []  # the window: the context id, then the ids since
        self._given = 0  # characters of the window's text already given out

    def step(self, ids: int | Iterable[int]) -> str:
        """Add one id (or several); the text that is final now and was not given out before."""
        self._ids.extend([ids] if isinstance(ids, int) else ids)
        text = self._decode(self._ids)
        settled = len(text) - self._tokenizer._open_tail(self._ids, text)
        new = text[self._given:settled]
        self._given = max(self._given, settled)
        keep = self._tokenizer.stream_context
        if settled == len(text) and len(self._ids) > keep:
            # all of the window is final: restart it at its last id, or empty
            self._ids = self._ids[len(self._ids) - keep:]
            self._given = len(self._decode(self._ids)) if keep else 0
        return new

    def finish(self) -> str:
        """The text not given out yet (an unfinished last character as U+FFFD); the stream is empty after."""
        rest = self._decode(self._ids)[self._given:]
        self._ids, self._given = [], 0
        return rest

    def _decode(self, ids: list[int]) -> str:
        if self._skip:
            return self._tokenizer.decode(ids, skip_special_tokens=True)
        return self._tokenizer.decode(ids)
