"""The candidate index: a compact SQLite file the engine opens, built once per dictionary.

``WubiDictionary.candidates`` answers one query in SQL over the bundled table;
the full candidate list of a one-key code (7,000+ entries, needed for the page
count) takes tens of milliseconds there, each text deduplicated in Python.  The
engine instead opens a second, derived SQLite file holding exactly the lookups
it makes, already deduplicated and ordered:

- ``entry``: every entry (code, rank) with its place ``pos`` in its first key's
  heaviest-first order, plus the standard two-key short codes (rank -1);
- ``completion``: for each one- and two-key prefix, each text once with its
  heaviest entry of a longer code (three-key prefixes are a range of ``entry``);
- ``pinyin``: characters by syllable and the table's phrases by their syllables
  run together, toneless, with the numbered reading for tone filters;
- ``symbol``: the table's ``zz...`` symbol codes.

It is built the first time a process needs it (a few seconds), keyed by the
dictionary's content hash and the code that builds it (:mod:`..wubi.table_cache`),
in memory, then written to a temporary file in one step (``VACUUM INTO``: a killed
build leaves no half file behind) and renamed, so that the IBus engine, the pad and
``wubitok type`` open it in milliseconds and hold none of it as Python objects
(the earlier in-memory index cost 2 s and 150-200 MB in each process).  Where the
cache folder cannot take it (read-only, full), the process keeps the one it built in
memory (:attr:`CandidateIndex.notice` says so).  The
user's data (learned order, own phrases, pins) is not in it: the engine lays it
over each lookup from the user database, so a change there needs no rebuild.

Entries come out as plain tuples ``(pos, code, rank, text, level)`` indexed by
the constants below; ``level`` says which charsets hold the text: 2 GB2312,
1 GBK only, 0 neither (CJK Ext B, private use).  Completions come as a lazy
sequence that reads rows a page at a time and counts them in SQL.
"""
from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from functools import lru_cache
from operator import itemgetter
from pathlib import Path
from typing import Final, Iterable, NamedTuple, Tuple, overload

from ..errors import InputError
from ..fileio import folder_problem
from ..wubi.dictionary import ANY_KEY, WILDCARD, WUBI_KEYS, WubiDictionary, check_charset, in_charset, is_wubi_code
from ..wubi.table_cache import cached_file, cached_file_path
from .phrase_pinyin import load_phrases, phrases_file, tone3
from .short_codes import STANDARD_SHORT_CODES

POS: Final = 0
CODE: Final = 1
RANK: Final = 2
TEXT: Final = 3
LEVEL: Final = 4
Entry = Tuple[int, str, int, str, int]
# The least LEVEL a charset admits.
CHARSET_LEVEL = {"all": 0, "gbk": 1, "gb2312": 2}
FORMAT = "ime-index-1"  # of the file: part of its key

_text = itemgetter(TEXT)
INTERIM_CANDIDATES = 60  # candidates of a code answered from the dictionary while the index builds
_ENTRY = "pos, code, rank, text, level"


def level(text: str, common: int) -> int:
    """An entry's LEVEL; ``common`` is the dictionary's GB2312 flag."""
    return 2 if common else 1 if in_charset(text, "gbk") else 0


def in_level(entries: Iterable[Entry], charset: str) -> tuple[Entry, ...]:
    """The entries a charset admits."""
    least = CHARSET_LEVEL[check_charset(charset)]
    return tuple(entries) if least == 0 else tuple(e for e in entries if e[LEVEL] >= least)


class Lookup(NamedTuple):
    exact: tuple[Entry, ...]
    completions: Sequence[Entry]


class Completions(Sequence[Entry]):
    """The completions of a one- or two-key code, read from the index as far as they are
    used (a page, or until enough GB2312 text for simplified-first) and counted in SQL."""

    FIRST_READ = 32  # rows; each further read doubles what is held

    def __init__(self, index: CandidateIndex, prefix: str, least: int, skip: tuple[str, ...]):
        self._index = index
        marks = ",".join("?" * len(skip))
        self._where = "prefix = ? AND level >= ?" + (f" AND text NOT IN ({marks})" if skip else "")
        self._params: tuple = (prefix, least, *skip)
        self._rows: list[Entry] = []
        self._len: int | None = None

    def __len__(self) -> int:
        if self._len is None:
            self._len = self._index._one(f"SELECT count(*) FROM completion WHERE {self._where}", self._params)
        return self._len

    @overload
    def __getitem__(self, i: int) -> Entry: ...

    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("completion index out of range")
        while i >= len(self._rows):
            want = max(self.FIRST_READ, len(self._rows))
            self._rows += self._index._all(
                f"SELECT {_ENTRY} FROM completion WHERE {self._where} ORDER BY pos LIMIT ? OFFSET ?",
                (*self._params, want, len(self._rows)))
        return self._rows[i]

    def __iter__(self) -> Iterator[Entry]:
        for i in range(len(self)):
            yield self[i]


def index_key(dictionary: WubiDictionary) -> tuple:
    """What the index file depends on besides its building code: the dictionary, the short
    codes, and pypinyin's phrase data (the phrases' readings)."""
    phrases = phrases_file()
    stat = phrases.stat()
    return (FORMAT, dictionary.content_hash, sorted(STANDARD_SHORT_CODES.items()),
            str(phrases), stat.st_size, stat.st_mtime_ns)


class CandidateIndex:
    """Candidates for Wubi codes whose first key is a literal key (a-y), ``z`` after it
    standing for any key; for the table's symbol codes; and for pinyin."""

    def __init__(self, dictionary: WubiDictionary, folder: Path | None = None):
        self.dictionary = dictionary
        self._folder = folder  # where the file is kept (default: the user's cache folder)
        self._conn: sqlite3.Connection | None = None
        self._built: sqlite3.Connection | None = None  # the build in memory, until it is on disk
        self._path: Path | None = None
        self.notice = ""  # for the typist: the index could not be kept on disk
        # While another thread or process builds the file, lookups, symbols and the pinyin of
        # single characters are answered from the dictionary itself; pinyin phrases wait for it.
        self.interim = False
        self._interim_symbols: list[Entry] | None = None
        self._lock = threading.Lock()
        # Typing revisits the same codes all the time; results are never mutated.
        self._cached_lookup = lru_cache(maxsize=1024)(self._lookup)
        self._cached_pinyin = lru_cache(maxsize=256)(self._pinyin)
        self._cached_symbols = lru_cache(maxsize=64)(self._symbols)

    def lookup(self, code: str, charset: str = "all") -> Lookup:
        """Exact matches and completions of ``code`` (1-4 keys; ``z`` after the first: any key)."""
        if self.interim:
            return self._dictionary_lookup(code, charset)
        return self._cached_lookup(code, charset)

    def pinyin(self, query: str, charset: str = "all") -> tuple[Entry, ...]:
        """See :meth:`_pinyin`; while the index is being built, characters only (one syllable)."""
        return self._dictionary_pinyin(query, charset) if self.interim else self._cached_pinyin(query, charset)

    def symbols(self, code: str) -> Lookup:
        """See :meth:`_symbols` (while the index is being built, from the dictionary's symbols)."""
        if self.interim:
            return self._dictionary_symbols(code)
        return self._cached_symbols(code)

    def _dictionary_pinyin(self, query: str, charset: str) -> tuple[Entry, ...]:
        """:meth:`_pinyin` for one syllable (``ni``, ``ni3``), answered by the dictionary's own
        query in the same order: the characters a first start's ``z`` lookup shows while the
        index builds.  Several syllables (``nihao``) read as phrases, which only the index
        holds: nothing until it is there; a syllable's phrases (``xian`` 西安) come with it."""
        _check_pinyin(query)
        if any(c.isdigit() for c in query[:-1]):
            return ()  # a tone inside: several syllables
        hits = self.dictionary.by_pinyin(query, charset=charset)
        return tuple((pos, h.full_code or "", 0, h.char, level(h.char, in_charset(h.char, "gb2312")))
                     for pos, h in enumerate(hits))

    def _dictionary_symbols(self, code: str) -> Lookup:
        """:meth:`_symbols` from the dictionary's few hundred symbols, read once."""
        if self._interim_symbols is None:
            self._interim_symbols = [(pos, c, 0, t, 0) for pos, (c, t) in enumerate(self.dictionary.iter_symbols())]
        exact = tuple(e for e in self._interim_symbols if e[CODE] == code)
        longer = [e for e in self._interim_symbols if e[CODE] > code and e[CODE].startswith(code)]
        return Lookup(exact, tuple(_first_of_each_text(longer, {e[TEXT] for e in exact})))

    def _dictionary_lookup(self, code: str, charset: str) -> Lookup:
        """:meth:`_lookup` answered by the dictionary's own query (a few ms, a 1-key code's
        completions cut at a few pages): the first keys of a first start, while the index builds."""
        if not is_wubi_code(code, wildcard=True) or code[0] == WILDCARD:
            raise InputError(f"not a Wubi code: {code!r} (a key a-y, then up to 3 of a-y or z)")
        exact: list[Entry] = []
        completions: list[Entry] = []
        seen: set[str] = set()
        short = STANDARD_SHORT_CODES.get(code)
        found = self.dictionary.candidates(code, charset=charset, limit=INTERIM_CANDIDATES)
        if short is not None and any(c.text == short or c.code == code for c in found):
            exact.append((0, code, -1, short, level(short, in_charset(short, "gb2312"))))
        for pos, c in enumerate(found):
            entry = (pos, c.code, c.rank, c.text, level(c.text, in_charset(c.text, "gb2312")))
            if len(c.code) == len(code):
                exact.append(entry)
                seen.add(c.text)
            elif c.text not in seen:
                completions.append(entry)
                seen.add(c.text)
        return Lookup(tuple(exact), tuple(completions))

    @property
    def path(self) -> Path | None:
        """The index file (built now if it is not there yet); None where it is kept in memory."""
        return self._open()[1]

    def preload(self) -> None:
        """Build the index file if this dictionary has none yet, and open it (milliseconds
        once built); thread-safe, may run in a worker."""
        self._open()

    def built(self) -> bool:
        """Whether the index file for this dictionary is there (opening it is then milliseconds)."""
        return self._conn is not None or cached_file_path(*self._file_args(), folder=self._folder).is_file()

    def _file_args(self) -> tuple:
        """The file's name, key, suffix and building code (cached_file's arguments)."""
        return ("ime-index", index_key(self.dictionary), ".sqlite", self._build_into, _build, _bucket_rows,
                _pinyin_rows)

    def _build_into(self, out: Path) -> None:
        # Built in memory and written out in one statement: the file exists for the
        # fraction of a second VACUUM INTO takes, not for the whole build.
        self._built = sqlite3.connect(":memory:", check_same_thread=False)
        _build(self.dictionary, self._built)
        self._built.execute("VACUUM INTO ?", (str(out),))

    def _open(self) -> tuple[sqlite3.Connection, Path | None]:
        with self._lock:
            if self._conn is None:
                try:
                    path = cached_file(*self._file_args(), folder=self._folder)
                    # Read-only and immutable: the file never changes once renamed into place,
                    # so SQLite takes no locks; any thread may read (one at a time: the lock).
                    self._conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True,
                                                 check_same_thread=False)
                    self._path = path
                except (OSError, sqlite3.Error) as exc:  # a read-only or full cache folder
                    self._conn = self._built or self._in_memory()
                    self._built = None
                    folder = self._folder or cached_file_path(*self._file_args()).parent
                    reason = folder_problem(folder) or ("the disk is full" if "full" in str(exc) else str(exc))
                    self.notice = (f"the typing index cannot be kept in {folder} ({reason});"
                                   " it is built in memory at every start")
                if self._built is not None:
                    self._built.close()
                    self._built = None
            return self._conn, self._path

    def _in_memory(self) -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        _build(self.dictionary, conn)
        return conn

    def _all(self, sql: str, params: tuple = ()) -> list:
        conn = self._open()[0]
        with self._lock:
            return conn.execute(sql, params).fetchall()

    def _one(self, sql: str, params: tuple = ()) -> int:
        conn = self._open()[0]
        with self._lock:
            return conn.execute(sql, params).fetchone()[0]

    def _lookup(self, code: str, charset: str = "all") -> Lookup:
        """Exact matches and completions of ``code`` (1-4 keys)."""
        if not is_wubi_code(code, wildcard=True) or code[0] == WILDCARD:
            raise InputError(f"not a Wubi code: {code!r} (a key a-y, then up to 3 of a-y or z)")
        least = CHARSET_LEVEL[check_charset(charset)]
        if WILDCARD in code:
            return self._wildcard(code, least)
        exact = tuple(self._all(f"SELECT {_ENTRY} FROM entry WHERE code = ? AND level >= ? ORDER BY rank",
                                (code, least)))
        # A text that is an exact match is no completion (the charset cannot change that:
        # it is one text), so exact matches the charset hides are skipped too.
        skip = tuple({t for (t,) in self._all("SELECT text FROM entry WHERE code = ?", (code,))})
        completions: Sequence[Entry] = ()
        if len(code) <= 2:
            completions = Completions(self, code, least, skip)
        elif len(code) == 3:
            longer = self._all(f"SELECT {_ENTRY} FROM entry WHERE code > ? AND code < ? AND level >= ?"
                               " ORDER BY pos", (code, code + "{", least))
            completions = tuple(_first_of_each_text(longer, set(skip)))
        return Lookup(exact, completions)

    def _wildcard(self, code: str, least: int) -> Lookup:
        n = len(code)
        pattern = code.replace(WILDCARD, ANY_KEY)
        exact = self._all(f"SELECT {_ENTRY} FROM entry WHERE code GLOB ? AND length(code) = ?"
                          " ORDER BY pos, code, rank", (pattern, n))
        first = _first_of_each_text(exact, set())
        longer = self._all(f"SELECT {_ENTRY} FROM entry WHERE code GLOB ? AND length(code) > ?"
                           " ORDER BY pos, code, rank", (pattern + "*", n))
        completions = _first_of_each_text(longer, {e[TEXT] for e in first})
        return Lookup(tuple(e for e in first if e[LEVEL] >= least),
                      tuple(e for e in completions if e[LEVEL] >= least))

    def _symbols(self, code: str) -> Lookup:
        """The table's symbols for a ``zz...`` code: exact matches, then those of longer
        codes (each text once, by code)."""
        exact = tuple(self._all("SELECT pos, code, 0, text, 0 FROM symbol WHERE code = ? ORDER BY pos", (code,)))
        longer = self._all("SELECT pos, code, 0, text, 0 FROM symbol WHERE code > ? AND code < ? ORDER BY pos",
                           (code, code + "{"))
        return Lookup(exact, tuple(_first_of_each_text(longer, {e[TEXT] for e in exact})))

    def _pinyin(self, query: str, charset: str = "all") -> tuple[Entry, ...]:
        """Characters and phrases read ``query``: pinyin letters (v for ü), syllables run
        together, each optionally followed by its tone digit 1-5 (ni3hao, nihao3).  Entries
        carry the text's Wubi code: a character's full code ("" if it has none), a phrase's
        code in the table."""
        _check_pinyin(query)
        least = CHARSET_LEVEL[check_charset(charset)]
        hits = self._all("SELECT pos, code, 0, text, level, numbered FROM pinyin WHERE plain = ? AND level >= ?"
                         " ORDER BY pos", (query.translate(_NO_TONES), least))
        if query.isalpha():
            found = [h[:5] for h in hits]
        else:
            # Each typed key, then whatever tone digit the reading has where none was typed.
            tones = re.compile("".join(c if c.isdigit() else c + "[1-5]?" for c in query) + "$")
            found = [h[:5] for h in hits if tones.match(h[5])]
        return tuple(_first_of_each_text(found, set()))

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


_NO_TONES = str.maketrans("", "", "12345")


def _check_pinyin(query: str) -> None:
    if not query or not all("a" <= c <= "z" or "1" <= c <= "5" for c in query) or query[0].isdigit():
        raise InputError(f"not pinyin: {query!r} (letters a-z, v for ü, tone digits 1-5 after a syllable)")

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE entry (code TEXT, rank INTEGER, pos INTEGER, text TEXT, level INTEGER,
                    PRIMARY KEY (code, rank)) WITHOUT ROWID;
CREATE TABLE completion (prefix TEXT, pos INTEGER, code TEXT, text TEXT, level INTEGER, rank INTEGER,
                         PRIMARY KEY (prefix, pos)) WITHOUT ROWID;
CREATE TABLE pinyin (plain TEXT, pos INTEGER, numbered TEXT, code TEXT, text TEXT, level INTEGER,
                     PRIMARY KEY (plain, pos)) WITHOUT ROWID;
CREATE TABLE symbol (code TEXT, pos INTEGER, text TEXT, PRIMARY KEY (code, pos)) WITHOUT ROWID;
"""


def _build(dictionary: WubiDictionary, conn: sqlite3.Connection) -> None:
    """Fill the empty database ``conn`` with the index for ``dictionary``."""
    conn.execute("PRAGMA journal_mode=OFF")
    conn.executescript(_SCHEMA)
    with conn:
        for key in WUBI_KEYS:
            entries, completions = _bucket_rows(dictionary, key)
            conn.executemany("INSERT INTO entry VALUES (?, ?, ?, ?, ?)", entries)
            conn.executemany("INSERT INTO completion VALUES (?, ?, ?, ?, ?, ?)", completions)
        conn.executemany("INSERT INTO pinyin VALUES (?, ?, ?, ?, ?, ?)", _pinyin_rows(dictionary))
        conn.executemany("INSERT INTO symbol VALUES (?, ?, ?)",
                         ((c, pos, t) for pos, (c, t) in enumerate(dictionary.iter_symbols())))
        conn.execute("INSERT INTO meta VALUES ('dictionary_hash', ?)", (dictionary.content_hash,))


def _bucket_rows(dictionary: WubiDictionary, key: str) -> tuple[list[tuple], list[tuple]]:
    """The ``entry`` and ``completion`` rows of the codes that start with ``key``."""
    entries: list[tuple] = []
    first_pos: dict[str, int] = {}
    codes: set[str] = set()
    # prefix (one or two keys) -> {text: its heaviest entry with a longer code}, heaviest first
    completions: dict[str, dict[str, tuple]] = {}
    for pos, (code, rank, text, _weight, _n_chars, common) in enumerate(dictionary.iter_entries(key)):
        lv = level(text, common)
        entries.append((code, rank, pos, text, lv))
        first_pos.setdefault(text, pos)
        codes.add(code)
        if len(code) > 1:
            completions.setdefault(code[0], {}).setdefault(text, (code[0], pos, code, text, lv, rank))
            if len(code) > 2:
                completions.setdefault(code[:2], {}).setdefault(text, (code[:2], pos, code, text, lv, rank))
    for code, char in STANDARD_SHORT_CODES.items():
        if code[0] == key and code in codes and char in first_pos:  # rank -1: before the inherited entry
            entries.append((code, -1, first_pos[char], char, level(char, in_charset(char, "gb2312"))))
    return entries, [row for by_text in completions.values() for row in by_text.values()]


def _pinyin_rows(dictionary: WubiDictionary) -> Iterator[tuple]:
    """(toneless pinyin, pos, numbered reading, code, text, level) for characters (one
    syllable) and the table's phrases (syllables run together), characters first, then
    most used first."""
    first_reading: dict[str, str] = {}
    pos = 0
    for plain, numbered, char, full_code, common in dictionary.iter_pinyin():
        first_reading.setdefault(char, numbered)
        yield plain, pos, numbered, full_code or "", char, level(char, common)
        pos += 1
    # A phrase reads as pypinyin's phrase data says (银行 yin2hang2), else each character
    # by its first reading.  pypinyin is a dependency already (the dictionary's readings);
    # its data is read without importing it (phrase_pinyin).
    phrases_dict = load_phrases(phrases_file())
    tone3_of: dict[str, str] = {}

    def numbered_reading(marked: str) -> str:
        r = tone3_of.get(marked)
        if r is None:
            r = tone3_of[marked] = tone3(marked)
        return r

    for code, text, common in dictionary.iter_phrases():
        marked = phrases_dict.get(text)
        try:
            if marked is not None and len(marked) == len(text):
                numbered = "".join([numbered_reading(r[0]) for r in marked])
            else:
                numbered = "".join([first_reading[c] for c in text])
        except KeyError:
            continue  # a character without a reading
        yield numbered.translate(_NO_TONES), pos, numbered, code, text, 2 if common else level(text, 0)
        pos += 1


def _first_of_each_text(entries: Sequence[Entry], skip: set[str]) -> list[Entry]:
    # Built from the end, a dict keeps each text's first entry; sorting by pos restores the order.
    first = dict(zip(map(_text, reversed(entries)), reversed(entries)))
    for text in skip:
        first.pop(text, None)
    return sorted(first.values())
