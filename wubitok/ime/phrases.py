"""The user's own phrases (造词): checking a phrase and its code.

A phrase is Han characters only.  Without an explicit code it gets the
standard Wubi-86 phrase code (``WubiDictionary.phrase_code``: 2 characters
take two keys of each, 3 the first keys of two and two of the third, 4+ the
first keys of characters 1, 2, 3 and the last), so it needs two characters or
more, each with a Wubi code.
"""
from __future__ import annotations

from functools import lru_cache

from ..errors import InputError
from ..wubi.dictionary import WubiDictionary, is_wubi_code
from .short_codes import STANDARD_SHORT_CODES

MAX_PHRASE = 32


@lru_cache(maxsize=1)
def _han():  # compiled on first use: importing regex is 30-70 ms of every engine's start
    import regex

    return regex.compile(r"\p{Han}+")


def check_code(code: str) -> str:
    """A code a user may give: 1-4 keys a-y."""
    if not is_wubi_code(code):
        raise InputError(f"not a Wubi code: {code!r} (1-4 keys a-y)")
    return code


def check_phrase(text: str) -> str:
    if not text or not text.strip():
        raise InputError("empty phrase")
    han = _han()
    if not han.fullmatch(text):
        other = next(c for c in text if not han.fullmatch(c))
        raise InputError(f"a phrase is Chinese characters only, not {other!r} (U+{ord(other):04X})")
    if len(text) > MAX_PHRASE:
        raise InputError(f"a phrase has at most {MAX_PHRASE} characters, not {len(text)}")
    return text


def phrase_entry(dictionary: WubiDictionary, text: str, code: str | None = None) -> tuple[str, str]:
    """(code, text) for a new user phrase: the given code checked, or the standard one."""
    check_phrase(text)
    if code is not None:
        return check_code(code), text
    if len(text) < 2:
        raise InputError(f"{text!r} is one character: give its code (--code)")
    return dictionary.phrase_code(text), text


def typed_by_table(dictionary: WubiDictionary, code: str, text: str) -> bool:
    """Whether ``code`` types ``text`` without the user's phrases (the table, or a
    standard short code the engine adds)."""
    return STANDARD_SHORT_CODES.get(code) == text or text in {c.text for c in dictionary.exact_candidates(code)}
