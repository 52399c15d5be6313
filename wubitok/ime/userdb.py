"""What the user has typed: how often each (code, text) candidate was chosen.

Kept in a small SQLite file in the user's data folder (never in the bundled
dictionary), mirrored in memory so that ordering candidates costs no query.
Every choice is written at once; WAL journaling without a sync per commit
keeps that well under a millisecond, and SQLite keeps the file consistent
if the app dies mid-write.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import FileError
from ..paths import user_data_dir

FILENAME = "ime_user.sqlite"
SCHEMA_VERSION = "1"


class UserFrequencies:
    """Selection counts per (code, text), persistent across sessions."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else user_data_dir() / FILENAME
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, timeout=5)
        except (OSError, sqlite3.Error) as exc:
            raise FileError(f"{self.path}: cannot open the user frequency database ({exc})") from None
        try:
            with self._conn:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
                self._conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                self._conn.execute(
                    "CREATE TABLE IF NOT EXISTS user_freq (code TEXT NOT NULL, text TEXT NOT NULL,"
                    " count INTEGER NOT NULL, PRIMARY KEY (code, text)) WITHOUT ROWID"
                )
                self._conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
            version = self._conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
            self._counts: dict[tuple[str, str], int] = {
                (code, text): count
                for code, text, count in self._conn.execute("SELECT code, text, count FROM user_freq")
            }
        except sqlite3.Error as exc:
            self._conn.close()
            raise FileError(f"{self.path}: not a wubitok user frequency database ({exc})") from None
        if version != SCHEMA_VERSION:
            self._conn.close()
            raise FileError(f"{self.path}: user frequency database version {version}, expected {SCHEMA_VERSION}")

    def count(self, code: str, text: str) -> int:
        """How often ``text`` was chosen under ``code``."""
        return self._counts.get((code, text), 0)

    def __len__(self) -> int:
        return len(self._counts)

    def record(self, code: str, text: str) -> int:
        """Count one more choice of ``text`` under ``code``; returns the new count."""
        try:
            with self._conn:
                self._conn.execute(
                    "INSERT INTO user_freq VALUES (?, ?, 1)"
                    " ON CONFLICT (code, text) DO UPDATE SET count = count + 1",
                    (code, text),
                )
        except sqlite3.Error as exc:
            raise FileError(f"{self.path}: cannot save the user frequency ({exc})") from None
        n = self._counts[(code, text)] = self._counts.get((code, text), 0) + 1
        return n

    def reset(self) -> None:
        """Forget everything learned."""
        try:
            with self._conn:
                self._conn.execute("DELETE FROM user_freq")
        except sqlite3.Error as exc:
            raise FileError(f"{self.path}: cannot reset the user frequencies ({exc})") from None
        self._counts.clear()

    def close(self) -> None:
        self._conn.close()
