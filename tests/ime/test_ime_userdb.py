"""Learned selection counts: in the user's data folder, persistent, resettable, never in the bundled db."""
from __future__ import annotations

import hashlib
import sqlite3

import pytest

from wubitok.errors import FileError
from wubitok.ime import ImeEngine, UserFrequencies
from wubitok.ime.userdb import FILENAME


def test_counts_are_recorded_and_survive_reopening(user_data_dir):
    db = UserFrequencies()
    assert db.path == user_data_dir / FILENAME
    assert db.count("wqiy", "仰泳") == 0
    assert db.record("wqiy", "仰泳") == 1
    assert db.record("wqiy", "仰泳") == 2
    assert db.record("wqiy", "你") == 1
    assert db.count("wqi", "你") == 0  # per code
    db.close()
    again = UserFrequencies()
    assert (again.count("wqiy", "仰泳"), again.count("wqiy", "你"), len(again)) == (2, 1, 2)
    again.close()


def test_reset_forgets_everything_for_good(user_data_dir):
    db = UserFrequencies()
    db.record("aaaa", "㠭")
    db.reset()
    assert len(db) == 0 and db.count("aaaa", "㠭") == 0
    db.close()
    assert len(UserFrequencies()) == 0


def test_an_explicit_path_and_missing_folders(tmp_path):
    path = tmp_path / "a" / "b" / "freq.sqlite"
    db = UserFrequencies(path)
    db.record("vb", "好")
    db.close()
    assert UserFrequencies(path).count("vb", "好") == 1


def test_a_file_that_is_not_a_database_is_a_file_error(tmp_path):
    bad = tmp_path / "freq.sqlite"
    bad.write_bytes(b"this is not sqlite, just some text that is long enough" * 20)
    with pytest.raises(FileError, match="not a wubitok user frequency database"):
        UserFrequencies(bad)


def test_another_schema_version_is_a_file_error(tmp_path):
    path = tmp_path / "freq.sqlite"
    UserFrequencies(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(FileError, match="version 99"):
        UserFrequencies(path)


def test_an_unwritable_folder_is_a_file_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(FileError, match="cannot open"):
        UserFrequencies(blocker / "freq.sqlite")


def test_learning_never_touches_the_bundled_dictionary(wubi_dict, user_data_dir):
    before = hashlib.sha256(wubi_dict.path.read_bytes()).hexdigest()
    e = ImeEngine(wubi_dict)
    for key in "khlg3aaaa2wqiy ":
        e.press(key)
    e.close()
    assert hashlib.sha256(wubi_dict.path.read_bytes()).hexdigest() == before
    db = UserFrequencies()
    assert len(db) == 3
    db.close()
