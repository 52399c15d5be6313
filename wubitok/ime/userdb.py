"""What the user has typed and taught: how often each (code, text) candidate was
chosen, the user's own phrases, fixed positions (pins) and, for automatic
phrases, how often short strings were typed character by character.

Kept in a small SQLite file in the user's data folder (never in the bundled
dictionary), mirrored in memory so that ordering candidates costs no query.
Every change is one transaction, written at once; WAL journaling without a
sync per commit keeps that well under a millisecond, and SQLite keeps the file
consistent if the app dies mid-write.  The WAL is copied back into the file
(a checkpoint: pages written and synced, milliseconds) by a thread of its own
every :data:`CHECKPOINT_WRITES` transactions, not by SQLite's automatic
checkpoint inside the commit that fills 1,000 pages: that was a key of the
typist's waiting for it (bench/bench_key_tail.py).
"""
from __future__ import annotations

import errno
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from ..errors import FileError
from ..fileio import folder_problem
from ..paths import user_data_dir

FILENAME = "ime_user.sqlite"
SCHEMA_VERSION = "2"
# Version 1 had the learned counts only; the other tables are added on opening it.
_UPGRADABLE = {"1"}
PHRASE_SOURCES = ("manual", "auto", "import")

_TABLES = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS user_freq (code TEXT NOT NULL, text TEXT NOT NULL,"
    " count INTEGER NOT NULL, PRIMARY KEY (code, text)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS user_phrase (code TEXT NOT NULL, text TEXT NOT NULL,"
    " source TEXT NOT NULL, PRIMARY KEY (code, text)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS pin (code TEXT NOT NULL, text TEXT NOT NULL,"
    " position INTEGER NOT NULL, PRIMARY KEY (code, text)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS typed_run (text TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID",
    # Typing practice (practice_history.py): one row per finished session; added to existing files too.
    "CREATE TABLE IF NOT EXISTS practice_session (id INTEGER PRIMARY KEY, started TEXT NOT NULL,"
    " lesson TEXT NOT NULL, chars INTEGER NOT NULL, correct INTEGER NOT NULL, keys INTEGER NOT NULL,"
    " seconds REAL NOT NULL, committed INTEGER NOT NULL, wrong INTEGER NOT NULL, missed TEXT NOT NULL)",
)

# Transactions between two checkpoints, run in a thread of their own (0: SQLite's automatic
# checkpoint, in the writing thread).  A choice is a page or two of WAL: 1,000 pages, SQLite's own
# limit, comes every few hundred choices.
CHECKPOINT_WRITES = 200

# One more, or 1 where the stored count is not an integer (as _load reads it: never chosen).
_PLUS_ONE = "CASE WHEN typeof(count) = 'integer' THEN count + 1 ELSE 1 END"


class _Damaged(Exception):
    """The file is not a usable database (its reason is the message)."""


# Primary result codes (sqlite3.h) of the two errors that mean the file itself is broken.
# Anything else (SQLITE_FULL, IOERR, READONLY, CANTOPEN, PERM, BUSY, LOCKED) is about the
# disk, the permissions or another process: the file is fine and must be left alone.
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26
# The messages of those two, for Pythons before 3.11 (no sqlite_errorcode on the exception).
_DAMAGE_MESSAGES = ("database disk image is malformed", "file is not a database")


def _damaged(exc: sqlite3.Error) -> bool:
    """Whether SQLite says the file is corrupt (never: full, locked, read-only, unopenable)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    return any(text in str(exc) for text in _DAMAGE_MESSAGES)


def _read_only(path: Path) -> bool:
    """Whether the database or its folder cannot be written (by this user, or at all: a read-only mount).
    SQLite says only "unable to open database file" when it cannot make its WAL files there."""
    return folder_problem(path.parent) == "it is read-only" or (path.exists() and not os.access(path, os.W_OK))


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "it is read-only"
    return exc.strerror or str(exc)


def _reason(exc: sqlite3.Error, path: Path) -> str:
    """Why a healthy database cannot be used, in the user's words."""
    text = str(exc)
    # SQLite says "disk I/O error" when the disk fills while it writes its WAL or -shm file.
    if "full" in text or ("I/O error" in text and folder_problem(path.parent) == "the disk is full"):
        return "the disk is full"
    if "readonly" in text or "read-only" in text or _read_only(path):
        return "it is read-only"
    if any(word in text for word in ("locked", "busy")):
        return "another program is using it"
    return text


def _checkpoint(path: Path) -> None:
    """Copy the WAL back into the database, beside the writer (PASSIVE: it waits for nobody,
    and nobody waits for it; what it cannot copy now, the next one does).  A failure (a full
    disk) leaves the WAL as it is: the data is in it, and the next checkpoint tries again."""
    try:
        conn = sqlite3.connect(path, timeout=0)
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            conn.close()
    except sqlite3.Error:
        pass


def connect_read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened for reading only.  A database in WAL mode needs its ``-shm`` file, which
    a read-only folder cannot get: there nobody can be writing, so it is read as immutable."""
    uri = path.resolve().as_uri()
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=5, check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        conn.close()
        if not _read_only(path):
            raise
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, check_same_thread=False)


def health(path: Path) -> str:
    """What is wrong with the user database at ``path``, without changing it ("" when it is
    absent or sound): the checks :class:`UserFrequencies` makes on opening, read-only."""
    if not path.exists():
        return ""
    if not os.access(path, os.R_OK | os.W_OK):
        return f"{path}: not readable and writable (left as it is)"
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        return f"{path}: cannot be opened ({exc})"
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            return f"{path}: damaged (integrity check: {problems[0]})"
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.Error as exc:
        return f"{path}: damaged ({exc})" if _damaged(exc) else f"{path}: {_reason(exc, path)} (left as it is)"
    finally:
        conn.close()
    if row is None or row[0] not in _UPGRADABLE | {SCHEMA_VERSION}:
        return f"{path}: user database version {row[0] if row else 'unknown'}, expected {SCHEMA_VERSION}"
    return ""


class UserFrequencies:
    """The user database: selection counts, own phrases, pins, typed runs; persistent."""

    def __init__(self, path: str | Path | None = None, *, recover: bool = True, read_only: bool = False):
        """Open (or create) the database.  A file SQLite calls corrupt (integrity check, "malformed",
        "not a database") is moved aside
        under a name that says so (``ime_user.sqlite.corrupt-<UTC time>``) and a fresh one is
        started: :attr:`moved_aside` then names it, :attr:`damage` says what was wrong, and the
        front end tells the user once (the next start finds the fresh file).  With
        ``recover=False`` it is a FileError instead.  A database of another schema version (a
        newer wubitok's) is never moved: FileError; nor is one that is only full, locked,
        read-only or unopenable (FileError saying which; the data is intact).

        ``read_only``: only read it (listing, exporting, typing from a read-only or full
        folder); nothing is created, moved or written, an absent file reads as empty, and
        every change is a FileError."""
        self.path = Path(path) if path is not None else user_data_dir() / FILENAME
        self.moved_aside: Path | None = None
        self.damage = ""
        self.read_only = read_only
        self._writes = 0  # since the last checkpoint
        self._checkpointer: threading.Thread | None = None
        if read_only:
            self._open_read_only()
            return
        try:
            self._open()
        except _Damaged as exc:
            if not recover:
                raise FileError(f"{self.path}: not a wubitok user frequency database ({exc})") from None
            self.damage = str(exc)
            self.moved_aside = self._move_aside()
            self._open()

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Any thread: the IBus engine process opens it in its loading thread and types
            # with it in the main loop's (one at a time, never at once).
            self._conn = sqlite3.connect(self.path, timeout=5, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            reason = _reason(exc, self.path) if isinstance(exc, sqlite3.Error) else _os_reason(exc)
            raise FileError(f"{self.path}: cannot open the user frequency database ({exc})",
                            code="userdb.unusable", path=str(self.path), reason=reason) from None
        try:
            # Damage SQLite can see without reading every row: torn pages, broken indexes.
            problems = [row[0] for row in self._conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise _Damaged(f"integrity check: {problems[0]}")
            with self._conn:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
                if CHECKPOINT_WRITES:
                    self._conn.execute("PRAGMA wal_autocheckpoint=0")  # _checkpoint_aside does it
                self._conn.execute(_TABLES[0])
                self._conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
                version = self._conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
                if version in _UPGRADABLE | {SCHEMA_VERSION}:
                    for sql in _TABLES[1:]:
                        self._conn.execute(sql)
                    self._conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION,))
            if version in _UPGRADABLE:
                version = SCHEMA_VERSION
            if version == SCHEMA_VERSION:
                self._load()
        except _Damaged:
            self._conn.close()
            raise
        except sqlite3.Error as exc:
            self._conn.close()
            if _damaged(exc):
                raise _Damaged(str(exc)) from None
            # Full, read-only, locked, unopenable: the data is intact, so it stays where it is.
            raise FileError(f"{self.path}: cannot use the user database: {_reason(exc, self.path)} ({exc});"
                            f" it is left as it is", code="userdb.unusable", path=str(self.path),
                            reason=_reason(exc, self.path)) from None
        if version != SCHEMA_VERSION:
            self._conn.close()
            raise FileError(f"{self.path}: user frequency database version {version}, expected {SCHEMA_VERSION}")

    def _open_read_only(self) -> None:
        try:
            if self.path.exists():
                self._conn = connect_read_only(self.path)
            else:
                self._conn = sqlite3.connect(":memory:", check_same_thread=False)
            # A table the file lacks (an empty file, version 1) reads as empty: a temporary one.
            have = {name for (name,) in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            for sql in _TABLES:
                if sql.split()[5] not in have:
                    self._conn.execute(sql.replace("CREATE TABLE", "CREATE TEMP TABLE", 1))
            self._load()
        except sqlite3.Error as exc:
            what = "damaged" if _damaged(exc) else _reason(exc, self.path)
            raise FileError(f"{self.path}: cannot read the user database: {what} ({exc})",
                            code="userdb.unusable", path=str(self.path), reason=what) from None

    def _move_aside(self) -> Path:
        """Rename the damaged file (and its WAL files, which belong to it) out of the way."""
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():  # two damaged files in one second
            n += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        try:
            for suffix in ("-wal", "-shm", ""):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    side.replace(aside.with_name(aside.name + suffix))
        except OSError as exc:
            raise FileError(f"{self.path}: the user frequency database is damaged ({self.damage})"
                            f" and cannot be moved aside ({exc})") from None
        return aside

    def _load(self) -> None:
        # Values of the wrong type (a hand-edited or damaged row) are left out: such a row
        # counts as never chosen, and counting it again restarts it at 1.
        def by_key(sql: str, kind: type) -> dict:
            return {(code, text): value for code, text, value in self._conn.execute(sql)
                    if isinstance(code, str) and isinstance(text, str) and isinstance(value, kind)}
        self._counts: dict[tuple[str, str], int] = by_key("SELECT code, text, count FROM user_freq", int)
        self._phrases: dict[tuple[str, str], str] = by_key("SELECT code, text, source FROM user_phrase", str)
        self._pins: dict[tuple[str, str], int] = by_key("SELECT code, text, position FROM pin", int)
        self._runs: dict[str, int] = {text: n for text, n in self._conn.execute("SELECT text, count FROM typed_run")
                                      if isinstance(text, str) and isinstance(n, int)}

    @property
    def notice(self) -> str:
        """One line for the user when the damaged file was moved aside ("" otherwise)."""
        if self.moved_aside is None:
            return ""
        return (f"{self.path}: the user database was damaged ({self.damage}); it is kept as "
                f"{self.moved_aside} and learning starts afresh")

    def _write(self, what: str, change: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``change`` as one transaction; on failure nothing of it is kept."""
        if self.read_only:
            raise FileError(f"{self.path}: cannot {what}: the user database is open read-only",
                            code="userdb.write_failed", path=str(self.path), reason="read-only")
        try:
            with self._conn:
                done = change(self._conn)
            self._writes += 1
            if CHECKPOINT_WRITES and self._writes >= CHECKPOINT_WRITES and not self._checkpointing():
                self._writes = 0
                self._checkpointer = threading.Thread(target=_checkpoint, args=(self.path,), daemon=True,
                                                      name="wubitok-userdb-checkpoint")
                self._checkpointer.start()
            return done
        except sqlite3.Error as exc:
            raise FileError(f"{self.path}: cannot {what}: {_reason(exc, self.path)} ({exc}); the database is as it was",
                            code="userdb.write_failed", path=str(self.path), reason=_reason(exc, self.path)) from None

    # -- learned choices --------------------------------------------------
    def count(self, code: str, text: str) -> int:
        """How often ``text`` was chosen under ``code``."""
        return self._counts.get((code, text), 0)

    def __len__(self) -> int:
        return len(self._counts)

    def record(self, code: str, text: str) -> int:
        """Count one more choice of ``text`` under ``code``; returns the new count."""
        self._write("save the user frequency", lambda c: c.execute(
            "INSERT INTO user_freq VALUES (?, ?, 1) ON CONFLICT (code, text) DO UPDATE SET count = " + _PLUS_ONE,
            (code, text)))
        n = self._counts[(code, text)] = self._counts.get((code, text), 0) + 1
        return n

    def counts(self) -> dict[tuple[str, str], int]:
        return dict(self._counts)

    # -- own phrases ------------------------------------------------------
    def add_phrase(self, code: str, text: str, source: str = "manual") -> bool:
        """Add a phrase under ``code`` (codes and text are checked by the caller);
        False if it was there already."""
        if (code, text) in self._phrases:
            return False
        self._write("save the phrase", lambda c: c.execute(
            "INSERT INTO user_phrase VALUES (?, ?, ?)", (code, text, source)))
        self._phrases[(code, text)] = source
        return True

    def phrases(self, code: str | None = None) -> list[tuple[str, str, str]]:
        """(code, text, source) of the user's phrases, by code then text; one code's only if given."""
        return sorted((c, t, s) for (c, t), s in self._phrases.items() if code is None or c == code)

    def phrase_texts(self, code: str) -> list[str]:
        return [t for (c, t) in self._phrases if c == code]

    # -- pins -------------------------------------------------------------
    def pin(self, code: str, text: str, position: int) -> None:
        """Keep ``text`` at ``position`` (0-based) among the exact matches of ``code``."""
        self._write("save the pin", lambda c: c.execute(
            "INSERT INTO pin VALUES (?, ?, ?) ON CONFLICT (code, text) DO UPDATE SET position = excluded.position",
            (code, text, position)))
        self._pins[(code, text)] = position

    def pins(self, code: str) -> list[tuple[str, int]]:
        """(text, position) pinned on ``code``, by position."""
        return sorted(((t, p) for (c, t), p in self._pins.items() if c == code), key=lambda tp: (tp[1], tp[0]))

    # -- forgetting -------------------------------------------------------
    def forget(self, code: str, text: str) -> bool:
        """Forget ``text`` under ``code``: the user phrase, its pin, and the learned order of
        ``code`` (the counts of all its candidates: forgetting the first choice puts the
        table's order back, rather than promoting the next learned one).  False if ``text``
        had nothing learned under ``code``."""
        key = (code, text)
        if key not in self._counts and key not in self._phrases and key not in self._pins:
            return False

        def change(c: sqlite3.Connection) -> None:
            c.execute("DELETE FROM user_freq WHERE code = ?", (code,))
            for table in ("user_phrase", "pin"):
                c.execute(f"DELETE FROM {table} WHERE code = ? AND text = ?", key)
        self._write("forget the entry", change)
        for d in (self._phrases, self._pins):
            d.pop(key, None)
        for learned in [k for k in self._counts if k[0] == code]:
            del self._counts[learned]
        return True

    def reset(self) -> None:
        """Forget everything: learned choices, own phrases, pins and typed runs."""
        def change(c: sqlite3.Connection) -> None:
            for table in ("user_freq", "user_phrase", "pin", "typed_run"):
                c.execute(f"DELETE FROM {table}")
        self._write("reset the user frequencies", change)
        for d in (self._counts, self._phrases, self._pins, self._runs):
            d.clear()

    # -- typed runs (automatic phrases) ----------------------------------
    def note_runs(self, texts: Iterable[str]) -> dict[str, int]:
        """Count one more typing of each string (character by character); new counts."""
        texts = list(texts)
        if not texts:
            return {}
        self._write("save the typed strings", lambda c: c.executemany(
            "INSERT INTO typed_run VALUES (?, 1) ON CONFLICT (text) DO UPDATE SET count = " + _PLUS_ONE,
            [(t,) for t in texts]))
        for t in texts:
            self._runs[t] = self._runs.get(t, 0) + 1
        return {t: self._runs[t] for t in texts}

    # -- moving to another machine ----------------------------------------
    def export_data(self) -> dict[str, Any]:
        return {
            "frequencies": [[c, t, n] for (c, t), n in sorted(self._counts.items())],
            "phrases": [[c, t, s] for c, t, s in self.phrases()],
            "pins": [[c, t, p] for (c, t), p in sorted(self._pins.items())],
        }

    def import_data(self, frequencies: list[tuple[str, str, int]], phrases: list[tuple[str, str, str]],
                    pins: list[tuple[str, str, int]]) -> None:
        """Merge checked data in one transaction: a count becomes the larger of the two,
        phrases are added, pins replaced."""
        def change(c: sqlite3.Connection) -> None:
            c.executemany("INSERT INTO user_freq VALUES (?, ?, ?) ON CONFLICT (code, text)"
                          " DO UPDATE SET count = max(count, excluded.count)", frequencies)
            c.executemany("INSERT OR IGNORE INTO user_phrase VALUES (?, ?, ?)", phrases)
            c.executemany("INSERT INTO pin VALUES (?, ?, ?) ON CONFLICT (code, text)"
                          " DO UPDATE SET position = excluded.position", pins)
        self._write("import the user data", change)
        self._load()

    def _checkpointing(self) -> bool:
        return self._checkpointer is not None and self._checkpointer.is_alive()

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.join()  # its connection closed before the file is the caller's again
        self._conn.close()


# The reasons a sound database cannot be written to but can still be read.
READABLE_REASONS = ("it is read-only", "the disk is full")


def open_for_reading(path: str | Path | None = None) -> UserFrequencies:
    """The user database to read from (listing, exporting): opened as usual, or read-only
    where its folder is read-only or its disk full (nothing can be written there anyway)."""
    try:
        return UserFrequencies(path)
    except FileError as exc:
        if exc.params.get("reason") not in READABLE_REASONS:
            raise
        return UserFrequencies(path, read_only=True)
