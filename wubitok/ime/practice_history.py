"""Practice sessions in the user's database (table ``practice_session``, made by userdb's
migration like its other tables): saved one transaction each, read back for the history
chart and for the characters to review (:func:`wubitok.ime.practice.weak_chars`)."""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass

from ..errors import FileError
from .practice import Score, weak_chars
from .userdb import UserFrequencies

HISTORY_LIMIT = 200  # sessions read back: the chart's x axis, and plenty for review weights
REVIEW_SESSIONS = 10  # the sessions whose misses decide what comes back


@dataclass(frozen=True)
class SessionRecord:
    started: str  # UTC, ISO 8601
    lesson: str
    score: Score


def save_session(db: UserFrequencies, lesson: str, score: Score, started: str | None = None) -> None:
    """Add one finished session (one transaction: all of it or nothing)."""
    when = started or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    row = (when, lesson, score.chars, score.correct, score.keys, score.seconds, score.committed, score.wrong,
           json.dumps([list(m) for m in score.missed], ensure_ascii=False))
    db._write("save a practice session", lambda c: c.execute(
        "INSERT INTO practice_session (started, lesson, chars, correct, keys, seconds, committed, wrong, missed)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row))


def sessions(db: UserFrequencies, limit: int = HISTORY_LIMIT) -> list[SessionRecord]:
    """The last ``limit`` sessions, oldest first.  Rows a hand edit broke are left out."""
    try:
        rows = db._conn.execute(
            "SELECT started, lesson, chars, correct, keys, seconds, committed, wrong, missed FROM practice_session"
            " ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
    except sqlite3.Error as exc:
        raise FileError(f"{db.path}: cannot read the practice history ({exc})") from None
    out = []
    for started, lesson, chars, correct, keys, seconds, committed, wrong, missed in reversed(rows):
        try:
            pairs = tuple((str(ch), int(n)) for ch, n in json.loads(missed))
            out.append(SessionRecord(str(started), str(lesson),
                                     Score(int(chars), int(correct), int(keys), float(seconds), int(committed),
                                           int(wrong), pairs)))
        except (TypeError, ValueError):
            continue
    return out


def review_chars(db: UserFrequencies, limit: int = 20) -> list[str]:
    """The characters missed in recent sessions, weakest first (spaced repetition)."""
    recent = sessions(db, REVIEW_SESSIONS)
    return weak_chars([r.score.missed for r in recent], limit)
