"""The engine process's user database: problems are logged on the daemon's stderr, never stop typing."""
from __future__ import annotations

import sqlite3

from wubitok.ime import ImeEngine, UserFrequencies
from wubitok.ime.userdb import FILENAME
from wubitok.platform.ibus.service import open_user_db


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
