"""Atomic writes keep what the user set up: a symlink stays a link, a 0600 file stays 0600, a device
or FIFO is written through and never renamed over (issue #31, 4 and 7)."""
from __future__ import annotations

import os
import stat
import threading

import pytest
from cli_run import run

from wubitok.fileio import atomic_write_text


def test_a_symlink_stays_a_link_and_its_target_gets_the_content(tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "settings.json").write_text("old")
    link = tmp_path / "settings.json"
    link.symlink_to(dotfiles / "settings.json")
    atomic_write_text(link, "new")
    assert link.is_symlink() and (dotfiles / "settings.json").read_text() == "new"


def test_a_relative_symlink_chain_is_followed_to_its_end(tmp_path):
    (tmp_path / "real.txt").write_text("old")
    (tmp_path / "a").symlink_to("real.txt")
    (tmp_path / "b").symlink_to("a")
    atomic_write_text(tmp_path / "b", "new")
    assert (tmp_path / "b").is_symlink() and (tmp_path / "a").is_symlink()
    assert (tmp_path / "real.txt").read_text() == "new"


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o444])
def test_the_permissions_of_the_replaced_file_are_kept(tmp_path, mode):
    f = tmp_path / "export.json"
    f.write_text("old")
    os.chmod(f, mode)
    atomic_write_text(f, "new")
    assert stat.S_IMODE(f.stat().st_mode) == mode and f.read_text() == "new"


def test_userdata_export_over_a_private_file_stays_private(capsys, user_data_dir, tmp_path):
    out = tmp_path / "mine.json"
    out.write_text("{}")
    os.chmod(out, 0o600)
    assert run(capsys, "userdata", "export", out)[0] == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and "wubitok-userdata" in out.read_text()


@pytest.mark.system("root")  # mknod of a character device
def test_a_character_device_is_written_through_not_replaced(tmp_path):
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the same device as /dev/null
    atomic_write_text(null, "gone into the device")
    assert stat.S_ISCHR(null.stat().st_mode) and null.stat().st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no temp file left either


def test_a_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write_text(fifo, "through the pipe")
    reader.join(timeout=60)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(fifo.stat().st_mode)
