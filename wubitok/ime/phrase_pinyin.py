"""pypinyin's phrase readings (银行 yín háng), read without importing pypinyin.

The candidate index reads the table's phrases as pypinyin's phrase data says.
Importing pypinyin parses its two JSON files (2.5 MB of phrases, 0.8 MB of
characters) with one ``json.loads`` call each: about 100 ms and 45 ms holding
the GIL on an idle machine, so the index preload, in a worker thread, froze the
window for that long (``bench/bench_gui_stalls.py``, ``open_ime``).  Here the
phrase file is parsed one entry at a time, so that other threads get the GIL
between entries, and tone marks become digits by Unicode decomposition, which
gives what pypinyin's ``to_tone3`` gives for each of its syllables (the tests
compare the two).
"""
from __future__ import annotations

import importlib.util
import json
import re
import unicodedata
from pathlib import Path

_TONE_DIGITS = {"\u0304": "1", "\u0301": "2", "\u030c": "3", "\u0300": "4"}  # ā á ǎ à
_SPACE = re.compile(r"[ \t\n\r]*")


def phrases_file() -> Path:
    """pypinyin's phrase data (found, not imported: importing it is what costs)."""
    spec = importlib.util.find_spec("pypinyin")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("pypinyin is not installed", name="pypinyin")
    return Path(spec.origin).with_name("phrases_dict.json")


def load_phrases(path: Path) -> dict[str, list[list[str]]]:
    """A JSON object of phrase -> readings, as ``json.loads`` gives it, parsed entry
    by entry (each entry a few short C calls; see the module doc)."""
    # Bytes, then decoded: 7 ms, where read_text() (newline translation) took 90-150 ms in one call
    # (load 3, 2 cores).
    text = path.read_bytes().decode("utf-8")
    decode = json.JSONDecoder().raw_decode

    def expect(char: str, at: int) -> int:
        """Past ``char`` at ``at`` (after white space) and the white space after it."""
        at = _skip_space(text, at)
        if text[at:at + 1] != char:
            raise json.JSONDecodeError(f"Expecting {char!r}", text, at)
        return _skip_space(text, at + 1)

    phrases: dict[str, list[list[str]]] = {}
    at = expect("{", 0)
    if text[at:at + 1] != "}":
        while True:
            key, after = decode(text, at)
            if not isinstance(key, str):
                raise json.JSONDecodeError("Expecting a string key", text, at)
            phrases[key], at = decode(text, expect(":", after))
            at = _skip_space(text, at)
            if text[at:at + 1] == "}":
                break
            at = expect(",", at)
    if _skip_space(text, at + 1) != len(text):
        raise json.JSONDecodeError("Extra data", text, at + 1)
    return phrases


def _skip_space(text: str, at: int) -> int:
    return _SPACE.match(text, at).end()  # type: ignore[union-attr]  # the pattern matches ""


def tone3(marked: str) -> str:
    """A tone-marked syllable in numbered form, ü as v, 5 for the neutral tone (lüè -> lve4)."""
    decomposed = unicodedata.normalize("NFD", marked)
    tone = next((_TONE_DIGITS[c] for c in decomposed if c in _TONE_DIGITS), "5")
    plain = unicodedata.normalize("NFC", "".join(c for c in decomposed if c not in _TONE_DIGITS))
    return plain.replace("ü", "v") + tone
