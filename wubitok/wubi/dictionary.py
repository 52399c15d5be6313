"""The read-only Wubi-86 dictionary (``dicts/wubi86.sqlite``).

One SQLite connection per thread (sqlite3 connections must not be shared
across threads), all opened read-only and immutable, so a ``WubiDictionary``
can be shared freely between the GUI thread and workers.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..errors import DictionaryError, InputError, UnknownCodeError, excerpt
from ..paths import dictionary_path

# A Wubi-86 code is 1-4 of the keys a-y.  z is no key of a code: in a search it
# stands for any one key (WILDCARD), and in typing it starts pinyin.
WUBI_KEYS = "abcdefghijklmnopqrstuvwxy"
WILDCARD = "z"
MAX_CODE_KEYS = 4
ANY_KEY = f"[{WUBI_KEYS[0]}-{WUBI_KEYS[-1]}]"  # what WILDCARD stands for, as a regex
# Character sets a typist can restrict candidates to: every character, those GBK
# encodes (simplified and traditional, no CJK Ext B / private use), those of GB2312
# (the simplified characters of everyday mainland text).
CHARSETS = ("all", "gbk", "gb2312")


def in_charset(text: str, charset: str) -> bool:
    """True if every character of ``text`` is in ``charset`` (one of CHARSETS)."""
    if charset == "all":
        return True
    try:
        text.encode(charset)
    except UnicodeEncodeError:
        return False
    return True


def check_charset(charset: str) -> str:
    if charset not in CHARSETS:
        raise InputError(f"unknown charset {excerpt(charset)} (choose from {', '.join(CHARSETS)})")
    return charset


@dataclass(frozen=True)
class CodeEntry:
    code: str
    kind: str  # full, short1, short2, short3, alt
    weight: int
    rank: int  # selector position within this code (0 = first)


@dataclass(frozen=True)
class Candidate:
    text: str
    code: str
    rank: int
    weight: int
    exact: bool  # the code equals the query (not a completion)

    @property
    def is_phrase(self) -> bool:
        return len(self.text) > 1


@dataclass(frozen=True)
class PinyinHit:
    char: str
    reading: str
    full_code: str | None
    weight: int


@dataclass(frozen=True)
class CharInfo:
    char: str
    full_code: str | None
    codes: list[CodeEntry]
    pinyin: list[str]
    rank: int | None  # rank within the full code's candidates (selector number - 1)
    weight: int
    common: bool
    shares_code_with: list[Candidate] = field(default_factory=list)

    @property
    def short_codes(self) -> list[str]:
        return [c.code for c in self.codes if c.kind.startswith("short")]

    @property
    def shortest_code(self) -> str | None:
        """The shortest code that selects this character as first candidate."""
        firsts = [c.code for c in self.codes if c.rank == 0]
        return min(firsts, key=len) if firsts else self.full_code


def _charset_filter(charset: str, text: str = "text", common: str = "common") -> str:
    """An SQL condition (`` AND ...``) for ``charset``; the db's ``common`` column is GB2312."""
    return {"all": "", "gbk": f" AND in_gbk({text})", "gb2312": f" AND {common} = 1"}[check_charset(charset)]


def _utf8(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_wubi_code(s: str, *, wildcard: bool = False) -> bool:
    """True if ``s`` is a Wubi code: 1-4 keys a-y, lower case.  With ``wildcard``,
    ``z`` may stand for any key (a search pattern).  The one definition: every
    front end and library piece that asks "is this a code?" asks this."""
    return 1 <= len(s) <= MAX_CODE_KEYS and all(c in WUBI_KEYS or (wildcard and c == WILDCARD) for c in s)


class WubiDictionary:
    """Lookup, candidates, phrase codes and pinyin over the bundled table."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else dictionary_path()
        if not self.path.is_file():
            raise DictionaryError(f"{self.path}: dictionary not found")
        self._local = threading.local()
        try:
            self.meta: dict[str, str] = dict(self._conn().execute("SELECT key, value FROM meta"))
        except sqlite3.DatabaseError as exc:
            raise DictionaryError(f"{self.path}: not a wubitok dictionary ({exc})") from None
        if "content_hash" not in self.meta:
            raise DictionaryError(f"{self.path}: not a wubitok dictionary (no content hash)")
        self.content_hash: str = self.meta["content_hash"]
        self.counts: dict[str, int] = json.loads(self.meta.get("counts", "{}"))

    # -- connections ------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
            conn = sqlite3.connect(uri, uri=True, check_same_thread=True)
            conn.create_function("in_gbk", 1, lambda t: in_charset(t, "gbk"), deterministic=True)
            self._local.conn = conn
        return conn

    def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        # The table is UTF-8: a str the binding cannot encode (a lone surrogate)
        # equals nothing in it; it is an unknown character, not an error.
        if not all(_utf8(p) for p in params if isinstance(p, str)):
            return []
        return self._conn().execute(sql, params).fetchall()

    # -- characters -------------------------------------------------------
    def full_code(self, char: str) -> str | None:
        row = self._rows("SELECT full_code FROM chars WHERE char = ?", (char,))
        return row[0][0] if row else None

    def shortest_code(self, char: str) -> str | None:
        """The shortest code that types ``char`` as first candidate, else its full code."""
        row = self._rows(
            "SELECT code FROM entries WHERE text = ? AND rank = 0 ORDER BY length(code), code LIMIT 1", (char,)
        )
        return row[0][0] if row else self.full_code(char)

    def __contains__(self, char: object) -> bool:
        return isinstance(char, str) and bool(self._rows("SELECT 1 FROM chars WHERE char = ?", (char,)))

    def codes(self, char: str) -> list[CodeEntry]:
        rows = self._rows(
            "SELECT code, kind, weight, rank FROM entries WHERE text = ? ORDER BY length(code) DESC, code",
            (char,),
        )
        order = {"full": 0, "alt": 1, "short3": 2, "short2": 3, "short1": 4}
        return sorted((CodeEntry(*r) for r in rows), key=lambda e: (order.get(e.kind, 9), e.code))

    def pinyin(self, char: str) -> list[str]:
        return [r[0] for r in self._rows("SELECT reading FROM pinyin WHERE char = ? ORDER BY ord", (char,))]

    def lookup(self, char: str) -> CharInfo | None:
        """Everything known about one character, or None if it is not in the table."""
        row = self._rows("SELECT full_code, weight, common FROM chars WHERE char = ?", (char,))
        if not row:
            return None
        full, weight, common = row[0]
        codes = self.codes(char)
        rank = next((c.rank for c in codes if c.code == full), None)
        shares = [c for c in self.exact_candidates(full) if c.text != char] if full else []
        return CharInfo(char, full, codes, self.pinyin(char), rank, weight, bool(common), shares)

    # -- candidates -------------------------------------------------------
    def exact_candidates(self, code: str, *, charset: str = "all", phrases: bool = True) -> list[Candidate]:
        return [c for c in self.candidates(code, charset=charset, phrases=phrases, completions=False)]

    def candidates(
        self,
        code: str,
        *,
        limit: int | None = None,
        charset: str = "all",
        phrases: bool = True,
        completions: bool = True,
    ) -> list[Candidate]:
        """Entries for a code or code prefix: exact matches by rank, then completions.

        Completions are ordered by weight (most used first), as IMEs show them.
        ``z`` stands for any one key.
        """
        code = code.lower()
        if not is_wubi_code(code, wildcard=True):
            raise InputError(f"not a Wubi code: {excerpt(code)} (1-4 keys a-y, z as wildcard)")
        filters = _charset_filter(charset)
        if not phrases:
            filters += " AND n_chars = 1"
        if WILDCARD in code:
            # Several codes match: heaviest first, as for completions.
            where, params = self._code_filter(code, exact=True, limited=limit is not None)
            exact = self._rows(
                f"SELECT text, code, rank, weight FROM entries {where}{filters}"
                " ORDER BY weight DESC, code, rank LIMIT ?",
                # Each text once (a character can match under two codes): fetch spare rows.
                (*params, -1 if limit is None else 4 * limit + 8),
            )
            first: dict[str, Any] = {}
            for row in exact:
                first.setdefault(row[0], row)
            exact = list(first.values())
        else:
            exact = self._rows(
                f"SELECT text, code, rank, weight FROM entries WHERE code = ?{filters} ORDER BY rank", (code,)
            )
        out = [Candidate(t, c, r, w, True) for t, c, r, w in exact]
        if limit is not None and len(out) >= limit:
            return out[:limit]
        if completions and len(code) < 4:
            out.extend(self._completions(code, filters, None if limit is None else limit - len(out),
                                         seen={c.text for c in out}))
        return out

    @staticmethod
    def _code_filter(code: str, *, exact: bool, limited: bool) -> tuple[str, tuple]:
        """WHERE clause for codes matching ``code`` (z = any key), exactly or as a prefix.

        A range on the primary key over the literal leading keys is the fast
        path, unless a page is wanted of a short prefix: then walking the weight
        index finds the heaviest matches first and stops at the LIMIT.
        """
        glob = code.replace(WILDCARD, "?") + ("" if exact else "?*")
        prefix = code.split(WILDCARD, 1)[0]
        if len(prefix) >= (2 if limited else 1):
            upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
            return "WHERE code GLOB ? AND code >= ? AND code < ?", (glob, prefix, upper)
        return "INDEXED BY entries_by_weight WHERE code GLOB ?", (glob,)

    def _completions(self, code: str, filters: str, want: int | None, seen: set[str]) -> list[Candidate]:
        """Longer codes starting with ``code``, heaviest first, each text once.

        A character appears under several codes (你: wqi, wqiy); an IME shows it
        once, at its most used completion.
        """
        where, params = self._code_filter(code, exact=False, limited=want is not None)
        sql = f"SELECT text, code, rank, weight FROM entries {where}{filters}"
        sql += " ORDER BY weight DESC, code, rank LIMIT ?"
        out: list[Candidate] = []
        fetch = 64 if want is None else max(4 * want, 16)
        while True:
            rows = self._rows(sql, (*params, -1 if want is None else fetch))
            out.clear()
            taken = set(seen)
            for t, c, r, w in rows:
                if t not in taken:
                    taken.add(t)
                    out.append(Candidate(t, c, r, w, False))
            if want is None or len(out) >= want or len(rows) < fetch:
                return out if want is None else out[:want]
            fetch *= 4

    # -- phrases ----------------------------------------------------------
    def phrase_code(self, word: str) -> str:
        """The Wubi-86 phrase code of any word, by the standard rules.

        2 chars: first two keys of each; 3: first key of the first two and the
        first two of the third; 4+: first key of chars 1, 2, 3 and the last.
        """
        chars = list(word)
        if len(chars) < 2:
            raise InputError("a phrase code needs at least two characters")
        codes = []
        for ch in chars:
            full = self.full_code(ch)
            if not full:
                raise UnknownCodeError(f"{ch!r} has no Wubi code")
            codes.append(full)
        if len(codes) == 2:
            return codes[0][:2] + codes[1][:2]
        if len(codes) == 3:
            return codes[0][0] + codes[1][0] + codes[2][:2]
        return codes[0][0] + codes[1][0] + codes[2][0] + codes[-1][0]

    # -- pinyin -----------------------------------------------------------
    def by_pinyin(self, pinyin: str, *, limit: int | None = None, charset: str = "all") -> list[PinyinHit]:
        """Characters read as ``pinyin`` (tone marks, tone numbers or none), most used first."""
        query = _normalize_pinyin(pinyin)
        if not query:
            raise InputError(f"not a pinyin syllable: {excerpt(pinyin)}")
        column = "plain"
        if any(c.isdigit() for c in query):
            column = "numbered"
        elif query != unicodedata.normalize("NFD", query) or any(ord(c) > 127 for c in query):
            column = "reading"
        # One row per character (a toneless query matches several readings):
        # SQLite fills the bare columns from the row that gave min(p.ord).
        sql = (
            "SELECT p.char, p.reading, c.full_code, c.weight, min(p.ord) FROM pinyin p"
            " JOIN chars c ON c.char = p.char"
            f" WHERE p.{column} = ?"
            + _charset_filter(charset, "c.char", "c.common")
            + " GROUP BY p.char ORDER BY c.weight DESC, c.cp LIMIT ?"
        )
        rows = self._rows(sql, (query, -1 if limit is None else limit))
        return [PinyinHit(ch, reading, full, weight) for ch, reading, full, weight, _ in rows]

    # -- lists for lessons and the root chart -----------------------------
    def first_choices(self, kind: str, *, n_chars: int = 1, common: bool = False,
                      limit: int | None = None) -> list[tuple[str, str]]:
        """(code, text) of each code of ``kind`` (short1, short2, short3, full, phrase) whose first
        candidate has ``n_chars`` characters, heaviest first, then by code; with ``common``, only
        where that candidate is in common use."""
        sql = "SELECT code, text FROM entries WHERE kind = ? AND rank = 0 AND n_chars = ?"
        if common:
            sql += " AND common = 1"
        return [(c, t) for c, t in self._rows(sql + " ORDER BY weight DESC, code LIMIT ?",
                                                (kind, n_chars, -1 if limit is None else limit))]

    def most_used_han(self, limit: int) -> list[str]:
        """The ``limit`` most used common characters of the basic CJK block that have a Wubi code."""
        return [c for (c,) in self._rows(
            "SELECT char FROM chars WHERE common = 1 AND full_code IS NOT NULL AND length(char) = 1"
            " AND unicode(char) BETWEEN 19968 AND 40959 ORDER BY weight DESC, cp LIMIT ?", (limit,))]

    def weights(self, chars: Iterable[str]) -> dict[str, int]:
        """How much each of ``chars`` is used (the table's weight); characters not in it are left out."""
        return dict(self._rows_in("SELECT char, weight FROM chars WHERE char IN ({})", chars))

    # -- many at once ------------------------------------------------------
    # A query per character or code lets go of the GIL several times, thousands of times over a book;
    # a thread waiting for the GIL (the app's GUI thread) is woken each time, finds it taken again and
    # starts its wait over, so it can miss its turn for tens of milliseconds.  Few queries, no starving.
    def full_codes(self, chars: Iterable[str]) -> dict[str, str]:
        """:meth:`full_code` of each of ``chars`` that has one."""
        return {c: code for c, code in self._rows_in(
            "SELECT char, full_code FROM chars WHERE full_code IS NOT NULL AND char IN ({})", chars)}

    def shortest_codes(self, chars: Iterable[str]) -> dict[str, str]:
        """:meth:`shortest_code` of each of ``chars`` that has one."""
        wanted = list(dict.fromkeys(chars))
        found: dict[str, str] = {}
        for c, code in sorted(self._rows_in("SELECT text, code FROM entries WHERE rank = 0 AND text IN ({})", wanted),
                              key=lambda row: (len(row[1]), row[1])):
            found.setdefault(c, code)
        rest = self.full_codes(c for c in wanted if c not in found)
        return {c: code for c in wanted if (code := found.get(c) or rest.get(c))}

    def exact_candidates_of(self, codes: Iterable[str]) -> dict[str, list[Candidate]]:
        """:meth:`exact_candidates` of each of ``codes`` (Wubi codes, no wildcard) that has any."""
        out: dict[str, list[Candidate]] = {}
        for t, c, r, w in self._rows_in(
                "SELECT text, code, rank, weight FROM entries WHERE code IN ({}) ORDER BY code, rank",
                (c.lower() for c in codes)):
            out.setdefault(c, []).append(Candidate(t, c, r, w, True))
        return out

    def _rows_in(self, sql: str, values: Iterable[str]) -> Iterator[tuple]:
        """The rows of ``sql`` with its ``IN ({})`` filled by ``values``, 500 at a time (SQLite's limit on
        bound parameters); a value the table cannot hold (a lone surrogate) matches nothing."""
        wanted = [v for v in dict.fromkeys(values) if _utf8(v)]
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            yield from self._conn().execute(sql.format(",".join("?" * len(part))), part).fetchall()

    # -- bulk access for the codec ---------------------------------------
    def iter_full_codes(self) -> Iterator[tuple[str, str, int]]:
        """(char, full_code, char_rank) for every character that has a Wubi code."""
        yield from self._conn().execute(
            "SELECT char, full_code, char_rank FROM chars WHERE full_code IS NOT NULL ORDER BY cp"
        )

    def iter_full_code_weights(self) -> Iterator[tuple[str, str, int]]:
        """(char, full_code, weight) for every character that has a Wubi code,
        heaviest first (then by code point)."""
        yield from self._conn().execute(
            "SELECT char, full_code, weight FROM chars WHERE full_code IS NOT NULL ORDER BY weight DESC, cp"
        )

    def iter_char_codes(self) -> Iterator[tuple[str, str, str, int]]:
        """(char, code, kind, rank) for every single-character code entry."""
        yield from self._conn().execute(
            "SELECT text, code, kind, rank FROM entries WHERE n_chars = 1 ORDER BY code, rank"
        )

    def iter_entries(self, first_key: str | None = None) -> Iterator[tuple[str, int, str, int, int, int]]:
        """(code, rank, text, weight, n_chars, common 0/1) for every entry, or those whose code
        starts with ``first_key``, heaviest first (then by code and rank, the completion order).

        The input engine builds its in-memory candidate index from this.
        """
        sql = "SELECT code, rank, text, weight, n_chars, common FROM entries"
        params: tuple = ()
        if first_key is not None:
            if len(first_key) != 1 or first_key not in WUBI_KEYS:
                raise InputError(f"not a Wubi key: {excerpt(first_key)}")
            sql += " WHERE code >= ? AND code < ?"
            params = (first_key, chr(ord(first_key) + 1))
        yield from self._conn().execute(sql + " ORDER BY weight DESC, code, rank", params)

    def iter_pinyin(self) -> Iterator[tuple[str, str, str, str | None, int]]:
        """(toneless syllable, numbered reading, char, full_code, common 0/1) for every reading,
        by syllable, then most used first (the ``by_pinyin`` order; a character may repeat with
        another tone).  Numbered readings use v for ü and 5 for the neutral tone (ma5)."""
        yield from self._conn().execute(
            "SELECT p.plain, p.numbered, p.char, c.full_code, c.common FROM pinyin p JOIN chars c ON c.char = p.char"
            " ORDER BY p.plain, c.weight DESC, c.cp, p.ord"
        )

    def iter_phrases(self) -> Iterator[tuple[str, str, int]]:
        """(code, phrase, common 0/1) for every phrase entry, heaviest first (then by code and rank)."""
        yield from self._conn().execute(
            "SELECT code, text, common FROM entries WHERE n_chars > 1 ORDER BY weight DESC, code, rank")

    def iter_symbols(self) -> Iterator[tuple[str, str]]:
        """(code, text) of the table's symbol shortcuts (codes zz...), by code, heaviest first."""
        yield from self._conn().execute("SELECT code, text FROM symbols ORDER BY code, weight DESC, text")

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


def _normalize_pinyin(text: str) -> str:
    s = text.strip().lower().replace("u:", "v").replace("ü", "v")
    # Tone-marked input is matched against the stored marked reading, which uses ü.
    if any(ord(c) > 127 for c in s):
        s = unicodedata.normalize("NFC", text.strip().lower())
    return s


@lru_cache(maxsize=1)
def default_dictionary() -> WubiDictionary:
    """The bundled dictionary, opened once per process."""
    return WubiDictionary()
