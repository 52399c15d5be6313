"""Key names the engine understands, and the ``{name}`` notation of key scripts."""
from __future__ import annotations

from ..errors import InputError

NAMED_KEYS = ("space", "enter", "backspace", "escape", "shift", "pageup", "pagedown", "fullwidth",
              "punctuation")
KEY_ALIASES = {"bs": "backspace", "esc": "escape", "pgup": "pageup", "pgdn": "pagedown",
               "return": "enter", "full": "fullwidth",
               "punct": "punctuation"}
# Characters that stand for a named key when given as a key of their own.
CHARACTER_KEYS = {" ": "space", "\n": "enter", "\r": "enter", "\b": "backspace", "\x1b": "escape"}


def normalize_key(key: str) -> str:
    """A named key's canonical name (aliases and space, newline, backspace and escape
    characters resolved), or the key itself if it is any other single character."""
    if key in NAMED_KEYS:
        return key
    named = KEY_ALIASES.get(key) or CHARACTER_KEYS.get(key)
    if named is not None:
        return named
    if isinstance(key, str) and len(key) == 1:
        return key
    raise InputError(f"unknown key {key!r} (a single character or one of {', '.join(NAMED_KEYS)})")


def parse_keys(script: str) -> list[str]:
    """Split a key script into keys: ``{name}`` is a named key (or alias: {bs} {esc}
    {pgup} {pgdn}), ``{{`` a literal ``{``, and every other character is a key of its own.

    >>> parse_keys("wqiy{space}{{")
    ['w', 'q', 'i', 'y', 'space', '{']
    """
    keys: list[str] = []
    i = 0
    while i < len(script):
        c = script[i]
        if c != "{":
            keys.append(normalize_key(c))
            i += 1
        elif script.startswith("{{", i):
            keys.append("{")
            i += 2
        else:
            end = script.find("}", i)
            if end < 0:
                raise InputError(f"unclosed '{{' at position {i + 1} of the keys (write {{{{ for a literal '{{')")
            name = script[i + 1:end].lower()
            canonical = name if name in NAMED_KEYS else KEY_ALIASES.get(name)
            if canonical is None:
                known = " ".join(f"{{{n}}}" for n in (*NAMED_KEYS, *KEY_ALIASES))
                raise InputError(f"unknown key {{{name}}} (known: {known})")
            keys.append(canonical)
            i = end + 1
    return keys
