"""Typing from a data folder that cannot be written (read-only, full), reading the user's data
there, and a settings file that is no file (issue #37, items 4 and 8)."""
from __future__ import annotations

import os
import subprocess
import sys

from cli_run import run
from mounts import fill, remount_read_only, remount_read_write, small_tmpfs

from wubitok.ime import ImeEngine, UserFrequencies
from wubitok.ime.index import CandidateIndex


def _cli(data, *argv):
    """``wubitok ARGV`` in a fresh process (its own typing index, built for the folder)."""
    src = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["wubitok"].__file__)))
    env = {**os.environ, "WUBITOK_DATA_DIR": str(data), "PYTHONPATH": src}
    return subprocess.run([sys.executable, "-m", "wubitok", *argv], capture_output=True, text=True, env=env,
                          timeout=600)


def test_a_first_start_on_a_read_only_folder_types_and_says_learning_is_off(tmp_path):
    with small_tmpfs(tmp_path / "disk", "20m") as disk:
        remount_read_only(disk)
        done = _cli(disk, "type", "--learn", "wqvb{space}khlg ")
        assert done.returncode == 0 and done.stdout == "你好中国\n", (done.stdout, done.stderr)
        lines = done.stderr.splitlines()
        assert "Traceback" not in done.stderr and len(lines) == 2, done.stderr
        assert any("learning is off" in line and "read-only" in line for line in lines), lines
        assert any("typing index" in line and "in memory" in line for line in lines), lines
        assert sorted(os.listdir(disk)) == []


def test_the_users_data_is_read_from_a_read_only_folder(capsys, tmp_path, monkeypatch):
    with small_tmpfs(tmp_path / "disk") as disk:
        monkeypatch.setenv("WUBITOK_DATA_DIR", str(disk))
        assert run(capsys, "phrase", "add", "天地人和")[0] == 0
        db = UserFrequencies()
        db.record("wqiy", "仰泳")
        db.close()  # a mount with a file open for writing cannot become read-only
        remount_read_only(disk)  # a WAL database without its -shm file: read as immutable
        try:
            code, out, err = run(capsys, "phrase", "list")
            assert code == 0 and "天地人和" in out, (out, err)
            code, out, err = run(capsys, "lookup", "天地人和")  # Lookup shows the user's phrase too
            assert code == 0 and "gfwt\tuser phrase" in out, (out, err)
            code, out, err = run(capsys, "userdata", "export", tmp_path / "mine.json")
            assert code == 0 and "1 phrases, 1 learned choices" in out, (out, err)
            engine = ImeEngine()  # learning on, as the pad and `type --learn` open it
            assert [engine.press(k) for k in "wqiy"] == ["", "", "", ""]
            assert engine.state.candidates[0].text == "仰泳"  # the learned order still counts
            assert engine.press(" ") == "仰泳"
            assert any("learning is off" in n for n in engine.take_notices())
            engine.close()
            code, out, err = run(capsys, "phrase", "add", "山水风云")  # a change: one line
            assert code == 2 and err.count("\n") == 1 and "read-only" in err, err
        finally:
            remount_read_write(disk)


def test_typing_onto_a_full_disk_goes_on_and_says_the_disk_is_full(capsys, tmp_path, monkeypatch):
    with small_tmpfs(tmp_path / "disk") as disk:
        monkeypatch.setenv("WUBITOK_DATA_DIR", str(disk))
        assert run(capsys, "phrase", "add", "天地人和")[0] == 0
        engine = ImeEngine()  # opened while there was room
        fill(disk)
        typed = "".join(engine.press(k) for k in "wqvb khlg " * 200)
        assert typed == "你好中国" * 200
        notices = engine.take_notices()
        assert len(notices) == 1 and "disk is full" in notices[0], notices
        engine.close()
        code, out, err = run(capsys, "phrase", "list")
        assert code == 0 and "天地人和" in out, (out, err)


def test_the_index_is_kept_in_memory_where_the_cache_folder_is_full(tmp_path, wubi_dict):
    with small_tmpfs(tmp_path / "disk", "2m") as disk:
        index = CandidateIndex(wubi_dict, folder=disk / "cache")
        assert [e[3] for e in index.lookup("wqiy").exact][:1] == ["你"]
        assert index.path is None and "disk is full" in index.notice
        assert not list((disk / "cache").glob("*.tmp"))
        index.close()


def test_a_fifo_as_the_settings_file_is_refused_in_one_line(tmp_path):
    os.mkfifo(tmp_path / "ime_settings.json")
    done = _cli(tmp_path, "type", "wqvb ")  # it waited for a writer for good before
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "not a regular file" in done.stderr
