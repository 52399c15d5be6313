"""The user's database is moved aside only when SQLite says it is corrupt: a full disk, a
read-only file or folder, a lock leave it where it is, with one line saying so (issue #31, 1-2)."""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from cli_run import run
from mounts import fill, remount_read_only, remount_read_write, small_tmpfs

from wubitok.errors import FileError
from wubitok.ime import UserFrequencies
from wubitok.ime.userdb import FILENAME


def _aside(folder):
    return sorted(p.name for p in folder.iterdir() if ".corrupt-" in p.name)


@pytest.fixture
def small_data_dir(tmp_path, monkeypatch):
    """WUBITOK_DATA_DIR on a 1 MB tmpfs."""
    with small_tmpfs(tmp_path / "disk") as disk:
        monkeypatch.setenv("WUBITOK_DATA_DIR", str(disk))
        yield disk


@pytest.mark.parametrize("command", [["phrase", "add", "山水风云"], ["phrase", "list"],
                                     ["type", "--learn", "wqvb "]])
def test_a_full_disk_leaves_the_phrases_where_they_are(capsys, small_data_dir, command):
    assert run(capsys, "phrase", "add", "天地人和")[0] == 0
    filler = fill(small_data_dir)
    code, out, err = run(capsys, *command)
    if code != 0:  # a command that needs no new page may still succeed; one that fails says why, in one line
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
        assert "full" in err, err
    assert _aside(small_data_dir) == []
    filler.unlink()
    code, out, err = run(capsys, "phrase", "list")
    assert code == 0 and "天地人和" in out, (out, err)


def test_a_full_disk_at_the_write_is_one_line_and_keeps_earlier_phrases(capsys, small_data_dir):
    assert run(capsys, "phrase", "add", "天地人和")[0] == 0
    db = UserFrequencies()  # open while there is room, then the disk fills
    fill(small_data_dir)
    with pytest.raises(FileError, match="disk is full"):
        for i in range(5000):  # pages run out somewhere in here
            db.add_phrase(f"x{i:04d}", "山水风云" * 50)
    db.close()
    (small_data_dir / "filler").unlink()
    assert "天地人和" in [text for _, text, _ in UserFrequencies().phrases()]
    assert _aside(small_data_dir) == []


def test_a_read_only_file_system_is_one_line_and_nothing_moves(capsys, small_data_dir):
    assert run(capsys, "phrase", "add", "天地人和")[0] == 0
    before = sorted(p.name for p in small_data_dir.iterdir())
    remount_read_only(small_data_dir)
    try:
        code, out, err = run(capsys, "phrase", "add", "山水风云")
        assert code == 2 and err.count("\n") == 1 and "damaged" not in err, err
        assert "read-only" in err or "readonly" in err, err
        code, out, err = run(capsys, "phrase", "list")  # reading needs no writing (issue #37, 4)
        assert code == 0 and "天地人和" in out, (out, err)
        assert sorted(p.name for p in small_data_dir.iterdir()) == before
    finally:
        remount_read_write(small_data_dir)
    assert "天地人和" in run(capsys, "phrase", "list")[1]


@pytest.mark.system("root", "setpriv")
def test_a_database_its_user_cannot_write_is_one_line_and_kept(tmp_path):
    home = Path(tempfile.mkdtemp(dir="/tmp"))  # pytest's own folders are 0700: nobody cannot enter them
    os.chmod(home, 0o755)
    data = home / "data"
    db = UserFrequencies(data / FILENAME)
    db.add_phrase("tfwt", "天地人和")
    db.close()
    os.chmod(data, 0o777)  # the folder is writable: only the file is not
    os.chmod(data / FILENAME, 0o444)
    src = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["wubitok"].__file__)))
    env = {**os.environ, "WUBITOK_DATA_DIR": str(data), "PYTHONPATH": src, "HOME": str(home)}
    def as_nobody(*argv):
        return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
                               "-m", "wubitok", *argv], capture_output=True, text=True, env=env, cwd=home)
    done = as_nobody("phrase", "add", "山水风云")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, (done.stdout, done.stderr)
    assert "read-only" in done.stderr and "Traceback" not in done.stderr
    done = as_nobody("phrase", "list")  # reading needs no writing (issue #37, 4)
    assert done.returncode == 0 and "天地人和" in done.stdout, (done.stdout, done.stderr)
    assert _aside(data) == []
    os.chmod(data / FILENAME, 0o644)
    assert ("tfwt", "天地人和", "manual") in UserFrequencies(data / FILENAME).phrases()
    shutil.rmtree(home)


def test_a_locked_database_is_not_damage(tmp_path):
    """Another program holding the database for good (beyond the 5 s busy wait) is said so; nothing moves."""
    path = tmp_path / FILENAME
    db = UserFrequencies(path)
    db.add_phrase("tfwt", "天地人和")
    db.close()
    holder = sqlite3.connect(path, timeout=0)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(FileError, match="another program"):
            UserFrequencies(path)
    finally:
        holder.rollback()
        holder.close()
    assert _aside(tmp_path) == []
    assert ("tfwt", "天地人和", "manual") in UserFrequencies(path).phrases()
