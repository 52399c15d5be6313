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


NOT_SQLITE = b"this is not sqlite, just some text that is long enough" * 20


def test_a_file_that_is_not_a_database_is_a_file_error_without_recovery(tmp_path):
    bad = tmp_path / "freq.sqlite"
    bad.write_bytes(NOT_SQLITE)
    with pytest.raises(FileError, match="not a wubitok user frequency database"):
        UserFrequencies(bad, recover=False)
    assert bad.read_bytes() == NOT_SQLITE


def _aside(folder):
    return sorted(p for p in folder.iterdir() if ".corrupt-" in p.name)


def test_a_damaged_file_is_moved_aside_and_a_fresh_database_starts(user_data_dir):
    user_data_dir.mkdir(parents=True)
    bad = user_data_dir / FILENAME
    bad.write_bytes(NOT_SQLITE)
    db = UserFrequencies()
    (aside,) = _aside(user_data_dir)
    assert db.moved_aside == aside and aside.name.startswith(f"{FILENAME}.corrupt-")
    assert aside.read_bytes() == NOT_SQLITE  # kept whole, under a name that says what it is
    assert str(aside) in db.notice and "damaged" in db.notice
    assert db.record("vb", "好") == 1
    db.close()
    again = UserFrequencies()  # the user is told once: the next start finds the fresh file
    assert again.moved_aside is None and again.notice == "" and again.count("vb", "好") == 1
    again.close()
    assert _aside(user_data_dir) == [aside]


def test_torn_pages_fail_the_integrity_check_and_are_moved_aside(tmp_path):
    path = tmp_path / "freq.sqlite"
    db = UserFrequencies(path)
    for i in range(2000):
        db.record(f"c{i:04d}", "好" * 20)
    db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[len(data) // 2:len(data) // 2 + 3000] = b"\xff" * 3000  # a torn write in the middle of the b-tree
    path.write_bytes(bytes(data))
    fresh = UserFrequencies(path)
    assert fresh.moved_aside is not None and fresh.moved_aside.exists()
    assert "integrity" in fresh.damage or "malformed" in fresh.damage, fresh.damage
    assert len(fresh) == 0
    fresh.close()


def test_non_integer_counts_do_not_break_typing(user_data_dir):
    db = UserFrequencies()
    db.record("wqiy", "你")
    db.pin("khlg", "中国", 0)
    db.close()
    with sqlite3.connect(db.path) as conn:
        conn.execute("INSERT INTO user_freq VALUES ('wqiy', '仰泳', 'many')")
        conn.execute("INSERT INTO user_freq VALUES ('wqiy', X'00', 3)")
        conn.execute("UPDATE pin SET position = 'first'")
        conn.execute("INSERT INTO typed_run VALUES ('你好', 'x')")
    engine = ImeEngine()
    for key in "wqiy":
        engine.press(key)
    assert engine.state.candidates[0].text == "你"  # the one integer count orders; 'many' is ignored
    assert engine.press("space") == "你"
    for key in "khlg":
        engine.press(key)
    assert engine.state.candidates[0].text == "中国"  # a pin at position 'first' is no pin
    engine.close()
    assert _aside(user_data_dir) == []  # readable: the file is kept as it is
    db = UserFrequencies()
    assert db.count("wqiy", "仰泳") == 0  # a count of 'many' is no count
    assert db.record("wqiy", "仰泳") == 1
    db.close()
    with sqlite3.connect(db.path) as conn:
        assert conn.execute("SELECT count FROM user_freq WHERE text = '仰泳'").fetchone() == (1,)


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


def test_switching_learning_on_over_a_newer_database_changes_nothing(user_data_dir):
    UserFrequencies().close()
    with sqlite3.connect(user_data_dir / FILENAME) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    engine = ImeEngine(learning=False, page_size=5)
    with pytest.raises(FileError, match="version 99"):
        engine.configure(learning=True, page_size=3)
    assert (engine.options.learning, engine.options.page_size, engine.user_db) == (False, 5, None)


def test_the_wal_is_checkpointed_beside_the_typing_not_in_it(tmp_path):
    """SQLite's own checkpoint ran inside the commit that filled 1,000 WAL pages, a key's pause
    (issue #39, 8); now a thread of its own copies the WAL into the file every CHECKPOINT_WRITES."""
    from wubitok.ime import userdb

    path = tmp_path / "freq.sqlite"
    db = UserFrequencies(path)
    assert db._conn.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    for i in range(userdb.CHECKPOINT_WRITES):
        db.record(f"c{i:04d}", "好")
    assert db._checkpointer is not None
    db._checkpointer.join()
    # The database file itself (its WAL ignored) has the choices, while the database is still open.
    file_only = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
    assert file_only.execute("SELECT count(*) FROM user_freq").fetchone()[0] >= userdb.CHECKPOINT_WRITES - 1
    file_only.close()
    db.close()
