"""The typist's data as one file, for moving to another machine: learned choices,
own phrases, pins and the typing settings.

The file is JSON (``format`` "wubitok-userdata", ``version`` 1).  Importing
checks the whole file before anything is written, then merges it into the
user database in one transaction (a count becomes the larger of the two,
phrases are added, pins replaced) and saves the settings atomically, so a
corrupt file changes nothing.

The database and the settings file are two files, so the import is two
steps, in this order: the database transaction, then the settings.  Both
steps are idempotent (a larger-of-two merge, adding what is missing,
replacing), so a run killed between them is completed by running the same
import again, which changes nothing that is already in.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import FileError, InputError
from ..fileio import JsonError, atomic_write_text, parse_json, read_text
from .options import ImeOptions, load_options, save_options
from .phrases import MAX_PHRASE, check_code, check_phrase
from .userdb import PHRASE_SOURCES, UserFrequencies, open_for_reading

FORMAT = "wubitok-userdata"
VERSION = 1
MAX_POSITION = 99  # pins are candidate positions: a page holds at most 9


class UserData(NamedTuple):
    frequencies: list[tuple[str, str, int]]
    phrases: list[tuple[str, str, str]]
    pins: list[tuple[str, str, int]]
    settings: ImeOptions


def export_user_data(path: str | Path, db: UserFrequencies | None = None) -> UserData:
    """Write the user's data to ``path`` (atomically); returns what was written."""
    own = db is None
    db = db if db is not None else open_for_reading()
    try:
        data = db.export_data()
    finally:
        if own:
            db.close()
    settings = load_options()
    atomic_write_text(path, _to_json({"format": FORMAT, "version": VERSION, **data,
                                      "settings": settings.to_dict()}))
    return UserData([tuple(f) for f in data["frequencies"]], [tuple(p) for p in data["phrases"]],
                    [tuple(p) for p in data["pins"]], settings)


def _to_json(data: dict[str, Any]) -> str:
    # One row per line: a file of thousands of learned choices stays readable and diffable.
    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    def rows(value: Any) -> str:
        if isinstance(value, list) and value:
            return "[" + ",".join("\n  " + dump(v) for v in value) + "\n ]"
        return dump(value)
    return "{\n" + ",\n".join(f" {dump(k)}: {rows(v)}" for k, v in data.items()) + "\n}\n"


def read_user_data(path: str | Path) -> UserData:
    """The checked content of a user-data file; a FileError naming the first problem."""
    p = Path(path)
    text = read_text(p, "utf-8")  # one line for a missing, unreadable, non-UTF-8 or oversized file
    try:
        raw = parse_json(text)
    except JsonError as exc:
        raise FileError(f"{p}: not a wubitok user-data file ({exc})") from None
    try:
        return _parse(raw)
    except InputError as exc:
        raise FileError(f"{p}: not a valid wubitok user-data file ({exc})") from None


def import_user_data(path: str | Path, db: UserFrequencies | None = None) -> UserData:
    """Merge the file at ``path`` into the user database and settings; returns what it held."""
    data = read_user_data(path)
    own = db is None
    db = db if db is not None else UserFrequencies()
    try:
        db.import_data(data.frequencies, data.phrases, data.pins)
    finally:
        if own:
            db.close()
    save_options(data.settings)
    return data


def _parse(raw: Any) -> UserData:
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise InputError(f'no "format": "{FORMAT}"')
    if raw.get("version") != VERSION:
        raise InputError(f"version {raw.get('version')!r}, this wubitok reads version {VERSION}")
    frequencies = [(_code(c), _text(t), _number(n, 1, 2**31)) for c, t, n in _rows(raw, "frequencies")]
    phrases = [(_code(c), check_phrase(_text(t)), _source(s)) for c, t, s in _rows(raw, "phrases")]
    pins = [(_code(c), _text(t), _number(n, 0, MAX_POSITION)) for c, t, n in _rows(raw, "pins")]
    settings = ImeOptions.from_dict(raw.get("settings", {}))
    return UserData(frequencies, phrases, pins, settings)


def _rows(raw: dict, key: str) -> list[tuple[Any, Any, Any]]:
    rows = raw.get(key, [])
    if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 3 for r in rows):
        raise InputError(f"{key} must be a list of [code, text, value] rows")
    return [(r[0], r[1], r[2]) for r in rows]


def _code(code: Any) -> str:
    if not isinstance(code, str):
        raise InputError(f"not a Wubi code: {code!r}")
    return check_code(code)


def _text(text: Any) -> str:
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_PHRASE or not _storable(text):
        raise InputError(f"not a candidate text: {ascii(text)}")
    return text


def _storable(text: str) -> bool:
    """Whether ``text`` can be stored (in SQLite, as UTF-8): JSON can spell a lone surrogate, "\\udc80"."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _number(n: Any, low: int, high: int) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or not low <= n <= high:
        raise InputError(f"expected a whole number {low}-{high}, not {n!r}")
    return n


def _source(source: Any) -> str:
    if source not in PHRASE_SOURCES:
        raise InputError(f"unknown phrase source {source!r} (one of {', '.join(PHRASE_SOURCES)})")
    return str(source)
