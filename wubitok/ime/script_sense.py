"""Whether the typist is writing traditional characters, read from what they choose.

``simplified_first`` lists GB2312 text (simplified characters) before the rest of a
code's candidates: right for most typists, a page turn too many for one typing a Tang
poem in traditional characters or a zh_TW document, whose characters are mostly
outside GB2312 (種 is third on ``tt`` as ranked and off the first page simplified
first).  The typist's own choices say which they write: once ``TRADITIONAL_AT`` of the
last ``WINDOW`` characters chosen are outside GB2312 the order steps aside (candidates
as ranked, as with ``simplified_first`` off), and it returns when none of the last
``WINDOW`` is.  Between the two the sense keeps what it had, so that a simplified text's
rare character (a name, 邕) does not flip it, nor a traditional text's characters that
are the same in both scripts flip it back.

The sense is per typing session and starts simplified; it changes only the order of
candidates, never what they are, and is not stored.
"""
from __future__ import annotations

from collections import deque

from ..wubi.dictionary import in_charset

WINDOW = 20  # the last characters chosen that count
TRADITIONAL_AT = 4  # this many of them outside GB2312: the typist writes traditional


class ScriptSense:
    """Feed it each chosen candidate's text with :meth:`note`; read :attr:`traditional`."""

    def __init__(self) -> None:
        self._outside: deque[bool] = deque(maxlen=WINDOW)  # per character chosen: not in GB2312
        self.traditional = False

    def note(self, text: str) -> None:
        """The typist chose ``text`` (its characters, in order)."""
        self._outside.extend(not in_charset(char, "gb2312") for char in text)
        outside = sum(self._outside)
        if outside >= TRADITIONAL_AT:
            self.traditional = True
        elif outside == 0 and len(self._outside) == WINDOW:
            self.traditional = False

    def reset(self) -> None:
        """Back to simplified, nothing chosen."""
        self._outside.clear()
        self.traditional = False
