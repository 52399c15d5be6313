"""Decoding the UTF-8 bytes a tokenizer's ids stand for: one way for every engine.

Lone surrogates, which a Python ``str`` can hold and our encoders spell as
their three "surrogatepass" bytes, come back as themselves; anything else
invalid (ids no encoder produced) becomes U+FFFD; and a character cut off by
the end of the bytes (a prefix of a text's ids) is one U+FFFD, whatever its
kind, so a streaming decoder never shows two marks for one character.
"""
from __future__ import annotations

import codecs


def _surrogatepass_or_replace(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    data, i = exc.object, exc.start
    if data[i] == 0xED and i + 1 < len(data) and 0xA0 <= data[i + 1] <= 0xBF:
        if i + 2 == len(data):  # a surrogate cut off by the end
            return "\ufffd", len(data)
        if 0x80 <= data[i + 2] <= 0xBF:
            return chr(0xD000 | (data[i + 1] & 0x3F) << 6 | data[i + 2] & 0x3F), i + 3
    return "\ufffd", exc.end


DECODE_ERRORS = "wubitok-surrogatepass-or-replace"
codecs.register_error(DECODE_ERRORS, _surrogatepass_or_replace)


def decode_utf8(data: bytes | bytearray) -> str:
    """``data`` as text: valid UTF-8 and lone surrogates as they are, the rest U+FFFD."""
    return bytes(data).decode("utf-8", DECODE_ERRORS)
