"""Chinese punctuation and full-width forms for the keys of an ASCII keyboard."""
from __future__ import annotations

# The common mainland mapping (as in ibus-table, fcitx and Rime); keys not
# listed here stay as they are.
CHINESE_PUNCTUATION = {
    ",": "，", ".": "。", "?": "？", "!": "！", ";": "；", ":": "：",
    "\\": "、", "(": "（", ")": "）", "<": "《", ">": "》", "[": "【", "]": "】",
    "^": "……", "_": "——", "$": "￥", "~": "～", "`": "·",
}
# Quotes come in pairs: each press of the key gives the opening and the closing one in turn.
PAIRED_QUOTES = {'"': ("“", "”"), "'": ("‘", "’")}

_FULL_WIDTH_OFFSET = 0xFF01 - 0x21


def full_width(text: str) -> str:
    """ASCII letters, digits, symbols and space as their full-width forms (Ａ１＠ and U+3000)."""
    return "".join(
        "\u3000" if c == " " else chr(ord(c) + _FULL_WIDTH_OFFSET) if "!" <= c <= "~" else c
        for c in text
    )


class Punctuator:
    """Converts one key to Chinese punctuation, remembering which quotes are open."""

    def __init__(self) -> None:
        self._open: dict[str, bool] = {q: False for q in PAIRED_QUOTES}

    def convert(self, key: str) -> str | None:
        """The Chinese punctuation for ``key``, or None if it has none."""
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
