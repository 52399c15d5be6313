"""The engine process's user database: problems are logged on the daemon's stderr, never stop
typing; what a key learns is written after the key's signals, before its answer."""
from __future__ import annotations

import sqlite3

from system import require

require("gi", "ibus-typelib")

from ibus_harness import IBus  # noqa: E402

from wubitok.ime import ImeEngine, UserFrequencies  # noqa: E402
from wubitok.ime.userdb import FILENAME  # noqa: E402
from wubitok.platform.ibus.engine import WubiEngine  # noqa: E402
from wubitok.platform.ibus.learning import EngineUserDatabase  # noqa: E402
from wubitok.platform.ibus.loading import Loading, open_user_db  # noqa: E402
from wubitok.platform.ibus.settings import SavedOptions  # noqa: E402


def test_a_damaged_database_is_moved_aside_with_one_log_line(capsys, user_data_dir):
    user_data_dir.mkdir(parents=True)
    junk = b"\x00garbage, not SQLite\x00" * 50
    (user_data_dir / FILENAME).write_bytes(junk)
    options = {"learning": True}
    user = open_user_db(options)
    assert user is not None and options["learning"]
    (aside,) = [p for p in user_data_dir.iterdir() if ".corrupt-" in p.name]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("wubitok ibus engine: ") and str(aside) in err
    assert aside.read_bytes() == junk
    engine = ImeEngine(user_frequencies=user)
    assert "".join(engine.press(k) for k in "wqiyvb ") == "你好"
    user.close()
    assert open_user_db({"learning": True}) is not None and capsys.readouterr().err == ""  # said once


def test_a_newer_database_turns_learning_off_and_is_left_alone(capsys, user_data_dir):
    UserFrequencies().close()
    path = user_data_dir / FILENAME
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    options = {"learning": True}
    assert open_user_db(options) is None and options == {"learning": False}
    err = capsys.readouterr().err
    assert "version 99" in err and "typing without learning" in err and err.count("\n") == 1
    assert not [p for p in user_data_dir.iterdir() if ".corrupt-" in p.name]


def stored_count(db: EngineUserDatabase, code: str, text: str) -> int:
    """What another process reading the file would find."""
    with sqlite3.connect(db.path) as conn:
        row = conn.execute("SELECT count FROM user_freq WHERE code = ? AND text = ?", (code, text)).fetchone()
    return row[0] if row else 0


def test_a_keys_learning_is_held_until_the_key_is_done(user_data_dir):
    db = EngineUserDatabase()
    engine = ImeEngine(user_frequencies=db)
    with db.held():
        assert "".join(engine.press(k) for k in "wqiy ") == "你"
        assert db.count("wqiy", "你") == 1  # in force for the next key at once
        assert stored_count(db, "wqiy", "你") == 0
    assert stored_count(db, "wqiy", "你") == 1
    assert "".join(engine.press(k) for k in "wqiy ") == "你"
    assert stored_count(db, "wqiy", "你") == 2  # outside a key: written at once, as UserFrequencies does
    db.close()


def test_a_held_write_that_fails_is_one_log_line_and_the_others_are_written(capsys, user_data_dir):
    db = EngineUserDatabase()
    engine = ImeEngine(user_frequencies=db, auto_phrase=3)  # the second character counts a typed string
    with sqlite3.connect(db.path) as conn:
        conn.execute("DROP TABLE typed_run")  # the typed strings (automatic phrases) cannot be saved
    conn.close()
    with db.held():
        assert "".join(engine.press(k) for k in "wqiy wqiy ") == "你你"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("wubitok ibus engine: ") and "typed strings" in err
    assert stored_count(db, "wqiy", "你") == 2
    db.close()


class CommitWatcher(WubiEngine):
    """Notes what the user database file holds when commit-text is sent."""

    __gtype_name__ = "WubitokTestCommitWatcher"

    def commit_text(self, text):
        self.stored_at_commit = stored_count(self._ime.user_db, "wqiy", "你")
        super().commit_text(text)


def test_the_engine_sends_commit_text_before_writing_what_the_key_learned(ibus_bus, user_data_dir, tmp_path):
    saved = SavedOptions(tmp_path / "settings.json")
    loading = Loading(saved, lambda callback: callback())
    loading.load()  # the engine process's load, in this thread
    db = loading.user
    engine = CommitWatcher(loading, saved, engine_name="wubitok-wubi86", connection=ibus_bus.get_connection(),
                           object_path="/org/freedesktop/IBus/Engine/wubitok/test")
    for keyval in (IBus.KEY_w, IBus.KEY_q, IBus.KEY_i, IBus.KEY_y, IBus.KEY_space):
        assert engine.do_process_key_event(keyval, 0, 0)
    assert engine.stored_at_commit == 0
    assert stored_count(db, "wqiy", "你") == 1  # written before the key was answered
    engine.destroy()
    db.close()
