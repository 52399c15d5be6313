"""Chinese punctuation and full-width forms for the keys of an ASCII keyboard."""
from __future__ import annotations

from typing import Iterable, Mapping

from ..errors import InputError

# The common mainland mapping (as in ibus-table, fcitx and Rime); keys not
# listed here stay as they are (full-width when that is on).  Brackets follow
# ibus-table: [ ] give the corner brackets 「」 and { } the white ones 『』;
# 【】 stay one symbol code away (zzbd) or a user mapping away.
CHINESE_PUNCTUATION = {
    ",": "，", ".": "。", "?": "？", "!": "！", ";": "；", ":": "：",
    "\\": "、", "(": "（", ")": "）", "<": "《", ">": "》", "[": "「", "]": "」", "{": "『", "}": "』",
    "^": "……", "_": "——", "$": "￥", "~": "～", "`": "·",
}
# Quotes come in pairs: each press of the key gives the opening and the closing one in turn.
PAIRED_QUOTES = {'"': ("“", "”"), "'": ("‘", "’")}
# After a digit these stay ASCII, so that 3.14 is not 3。14 (as in Rime and ibus-table).
DIGIT_SEPARATORS = frozenset(".")

_FULL_WIDTH_OFFSET = 0xFF01 - 0x21


def full_width(text: str) -> str:
    """ASCII letters, digits, symbols and space as their full-width forms (Ａ１＠ and U+3000)."""
    return "".join(
        "\u3000" if c == " " else chr(ord(c) + _FULL_WIDTH_OFFSET) if "!" <= c <= "~" else c
        for c in text
    )


def check_user_map(pairs: Iterable[tuple[str, str]] | Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """A user punctuation map as sorted (key, text) pairs; each key one printable ASCII
    symbol (letters start codes, digits pick candidates), each text non-empty."""
    items = pairs.items() if isinstance(pairs, Mapping) else pairs
    out = {}
    for key, text in items:
        if not (isinstance(key, str) and len(key) == 1 and "!" <= key <= "~" and not key.isalnum()):
            raise InputError(f"punctuation key must be one ASCII symbol, not {key!r}")
        if not isinstance(text, str) or not text:
            raise InputError(f"punctuation for {key!r} must be non-empty text")
        out[key] = text
    return tuple(sorted(out.items()))


class Punctuator:
    """Converts one key to Chinese punctuation, remembering which quotes are open.
    ``user_map`` entries replace the defaults (a quote key mapped by the user is no longer paired)."""

    def __init__(self, user_map: Mapping[str, str] | None = None) -> None:
        self._open: dict[str, bool] = {q: False for q in PAIRED_QUOTES}
        self._user = dict(user_map or {})

    def convert(self, key: str, after: str = "") -> str | None:
        """The Chinese punctuation for ``key``, or None if it has none.  ``after`` is the
        text committed just before (a digit keeps a following ``.`` as it is)."""
        if key in DIGIT_SEPARATORS and after[-1:].isdigit():
            return None
        if key in self._user:
            return self._user[key]
        pair = PAIRED_QUOTES.get(key)
        if pair is not None:
            is_open = self._open[key]
            self._open[key] = not is_open
            return pair[1] if is_open else pair[0]
        return CHINESE_PUNCTUATION.get(key)

    def reset(self) -> None:
        """Forget open quotes (a new document starts with opening quotes)."""
        for q in self._open:
            self._open[q] = False
