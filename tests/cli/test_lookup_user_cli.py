"""`wubitok lookup` shows the user's own phrases (wubitok phrase add) as user entries, reading only."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from cli_run import run

from wubitok.ime import UserFrequencies


def _wubitok(data_dir, *argv):
    env = {**os.environ, "WUBITOK_DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "wubitok", *argv], env=env, capture_output=True, text=True,
                          timeout=120)


def test_a_real_process_adds_a_phrase_and_lookup_shows_it_as_the_users(tmp_path):
    data = tmp_path / "data"
    assert _wubitok(data, "phrase", "add", "小明", "--code", "ijjj").returncode == 0
    assert _wubitok(data, "phrase", "add", "五笔输入法").returncode == 0  # standard code gtli
    db_file = data / "ime_user.sqlite"
    before = db_file.read_bytes()

    by_code = _wubitok(data, "lookup", "ijjj")
    assert (by_code.returncode, by_code.stdout, by_code.stderr) == (0, "小明\tijjj\tuser phrase\n", "")
    by_text = _wubitok(data, "lookup", "我用五笔输入法")
    assert by_text.returncode == 0
    lines = by_text.stdout.splitlines()
    assert lines[0].startswith("我\ttrnt")  # the dictionary's entries as before, the user's after them
    assert lines[-1] == "五笔输入法\tgtli\tuser phrase"
    items = json.loads(_wubitok(data, "lookup", "小明", "--json").stdout)
    assert [i["text"] for i in items] == ["小", "明", "小明", "小明"]
    assert items[2] == {"text": "小明", "phrase_code": "ihje", "in_table": False}
    assert items[3] == {"text": "小明", "code": "ijjj", "user": True, "source": "manual"}
    assert db_file.read_bytes() == before  # looked up, not written

    # Another data folder has other phrases: none of these.
    other = _wubitok(tmp_path / "other", "lookup", "小明")
    assert other.returncode == 0 and "user phrase" not in other.stdout
    assert not (tmp_path / "other").exists()  # reading creates no folder and no database


def test_a_code_lists_the_dictionary_entries_then_the_users(capsys, user_data_dir):
    assert run(capsys, "phrase", "add", "小明", "--code", "wqiy")[0] == 0
    code, out, err = run(capsys, "lookup", "wqiy")
    assert (code, err) == (0, "")
    assert out == "你\twqiy\tselector 1\n仰泳\twqiy\tselector 2\n𠉎\twqiy\tselector 3\n小明\twqiy\tuser phrase\n"
    items = json.loads(run(capsys, "lookup", "wqiy", "--json")[1])
    assert [(i["text"], i["user"]) for i in items] == [("你", False), ("仰泳", False), ("𠉎", False), ("小明", True)]
    assert items[0]["rank"] == 0 and items[0]["weight"] > 0


def test_a_code_without_entries_is_one_line_exit_2(capsys, user_data_dir):
    assert run(capsys, "lookup", "ijjj") == (
        2, "", "wubitok lookup: error: no character of 'ijjj' is in the Wubi-86 dictionary,"
               " and no entry or phrase of yours has it as its code\n")
    run(capsys, "phrase", "add", "小明", "--code", "ijjj")
    assert run(capsys, "lookup", "ijjj")[:2] == (0, "小明\tijjj\tuser phrase\n")


def test_a_damaged_user_database_gives_no_user_entries_and_stays_as_it_is(capsys, user_data_dir):
    user_data_dir.mkdir()
    damaged = user_data_dir / "ime_user.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    code, out, err = run(capsys, "lookup", "你")
    assert (code, err) == (0, "") and out.startswith("你\twqiy") and "user phrase" not in out
    assert run(capsys, "lookup", "wqiy")[0] == 0
    assert damaged.read_bytes() == b"SQLite format 3\x00" + b"\xff" * 4000  # not moved aside, not repaired
    assert sorted(p.name for p in user_data_dir.iterdir()) == ["ime_user.sqlite"]


def test_a_phrase_added_through_the_database_shows_at_once(capsys, user_data_dir):
    db = UserFrequencies()  # as the pad holds it open while Lookup reads
    db.add_phrase("wqiy", "你们好", "import")
    code, out, _ = run(capsys, "lookup", "你们好")
    db.close()
    assert code == 0 and out.splitlines()[-1] == "你们好\twqiy\tuser phrase"
