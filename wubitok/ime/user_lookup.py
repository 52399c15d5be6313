"""The user's own phrases (造词) as Lookup shows them: ``wubitok lookup`` and the Lookup pane.

Lookup only reads.  The user database is opened read-only (SQLite ``mode=ro``),
never through :class:`~wubitok.ime.userdb.UserFrequencies`, which creates,
upgrades or moves aside the file that the pad and the IBus engine write.  A
database that is absent, damaged, busy or of another layout gives no user
entries: Lookup still shows the dictionary's.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..paths import user_data_dir
from ..wubi.dictionary import CodeEntry, WubiDictionary, default_dictionary
from ..wubi.query import Detail, SearchResult, SearchRow, search
from .userdb import FILENAME, connect_read_only


@dataclass(frozen=True)
class UserPhrase:
    code: str
    text: str
    source: str  # manual, auto or import (userdb.PHRASE_SOURCES)


@dataclass(frozen=True)
class UserRow(SearchRow):
    """A search row that is one of the user's phrases, not a dictionary entry."""

    source: str = "manual"


def read_user_phrases(path: str | Path | None = None) -> list[UserPhrase]:
    """The user's phrases by code then text; [] if the database cannot be read."""
    try:
        path = Path(path).resolve() if path is not None else (user_data_dir() / FILENAME).resolve()
        # A WAL database in a read-only folder has no -shm file: connect_read_only reads it as immutable.
        conn = connect_read_only(path)
    except (OSError, ValueError, sqlite3.Error):
        return []
    try:
        rows = conn.execute("SELECT code, text, source FROM user_phrase ORDER BY code, text").fetchall()
    except sqlite3.Error:
        return []
    finally:
        conn.close()
    # A hand-edited row of the wrong type is left out, as the engine leaves it out.
    return [UserPhrase(c, t, s) for c, t, s in rows if all(isinstance(v, str) for v in (c, t, s))]


def phrases_in_text(phrases: list[UserPhrase], text: str) -> list[UserPhrase]:
    """The phrases that occur in ``text`` (spaces left out): the whole text or a part of it."""
    joined = "".join(ch for ch in text if not ch.isspace())
    return [p for p in phrases if p.text in joined]


def phrases_of_code(phrases: list[UserPhrase], code: str, *, prefix: bool = False) -> list[UserPhrase]:
    """The phrases typed by ``code`` (``z`` = any key); with ``prefix``, by longer codes starting with it too."""
    def fits(own: str) -> bool:
        if len(own) < len(code) or (not prefix and len(own) != len(code)):
            return False
        return all(q in ("z", k) for q, k in zip(code, own))
    return [p for p in phrases if fits(p.code)]


def _pinyin(d: WubiDictionary, text: str) -> tuple[str, ...]:
    readings = [d.pinyin(ch) for ch in text]
    if not all(readings):
        return ()
    if len(text) == 1:
        return tuple(readings[0])
    return (" ".join(r[0] for r in readings),)


def search_with_user_phrases(text: str, kind: str = "auto", *, dictionary: WubiDictionary | None = None,
                             path: str | Path | None = None, charset: str = "all") -> SearchResult:
    """:func:`wubitok.wubi.query.search`, with the user's phrases for characters or a code first.

    They come first because a code prefix has up to 200 completions, and among them
    the few phrases of the user's own would be lost.  A user phrase replaces the row
    of the typed word that has the same code (the word the table lacks, code computed).
    """
    d = dictionary or default_dictionary()
    result = search(text, kind, dictionary=d, charset=charset)
    q = result.query
    if q.kind == "chars":
        mine = phrases_in_text(read_user_phrases(path), q.term)
    elif q.kind == "code":
        mine = phrases_of_code(read_user_phrases(path), q.term, prefix=True)
    else:
        return result
    if not mine:
        return result
    own = {(p.text, p.code) for p in mine}
    rows: list[SearchRow] = [UserRow(p.text, p.code, (), _pinyin(d, p.text), 0, None, in_dictionary=False,
                                     source=p.source) for p in mine]
    rows += [r for r in result.rows if r.in_dictionary or (r.text, r.full_code) not in own]
    return SearchResult(q, rows, result.truncated)


def describe_user_row(row: UserRow, *, dictionary: WubiDictionary | None = None) -> Detail:
    """The detail of a user phrase: its own code (not the one the Wubi rules would give),
    and the dictionary's entries of that code.  No selector: where the engine lists the
    phrase depends on the charset setting and on what the user chose before."""
    d = dictionary or default_dictionary()
    code = row.full_code or ""
    parts = [(ch, d.full_code(ch)) for ch in row.text] if len(row.text) > 1 else []
    return Detail(row.text, code, [CodeEntry(code, "user", 0, 0)], list(row.pinyin), None,
                  d.exact_candidates(code), parts)
