"""Reading user files with one-line errors; atomic writes."""
from __future__ import annotations

import os
import stat

import pytest

from wubitok.errors import FileError
from wubitok.fileio import atomic_write_text, check_readable_text, iter_lines, iter_text_chunks, read_text


def test_read_text_keeps_line_endings_and_bom(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes("\ufeff一\r\n二\r三\n".encode("utf-8"))
    assert read_text(f) == "\ufeff一\r\n二\r三\n"
    assert "".join(iter_text_chunks(f, chunk_chars=2)) == read_text(f)
    assert list(iter_lines([f])) == ["\ufeff一\r\n", "二\r", "三\n"]


@pytest.mark.parametrize("where", [0, 3, 299_999, 300_000, (1 << 20) - 1, 1 << 20])
def test_invalid_byte_offset_is_exact(tmp_path, where):
    f = tmp_path / "bad.txt"
    good = ("a" * where).encode()
    f.write_bytes(good + b"\xe9" + "中文".encode() * 10)
    for read in (lambda: read_text(f), lambda: list(iter_text_chunks(f, chunk_chars=4096))):
        with pytest.raises(FileError, match=rf"not UTF-8 text \(invalid byte at offset {where}\)"):
            read()


def test_a_character_cut_at_the_end_of_the_file(tmp_path):
    f = tmp_path / "cut.txt"
    f.write_bytes(("x" * 300_000).encode() + "中".encode()[:2])
    with pytest.raises(FileError, match="offset 300000"):
        list(iter_text_chunks(f))


@pytest.mark.parametrize("make, message", [
    (lambda d: d / "missing.txt", "no such file"),
    (lambda d: d, "is a directory"),
])
def test_open_errors(tmp_path, make, message):
    with pytest.raises(FileError, match=message):
        read_text(make(tmp_path))


def test_check_readable_text(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(FileError, match="empty"):
        check_readable_text([empty])
    with pytest.raises(FileError, match="no input files"):
        check_readable_text([])


def test_atomic_write_replaces_and_follows_the_umask(tmp_path):
    target = tmp_path / "model.json"
    target.write_text("old")
    old_mask = os.umask(0o022)
    try:
        atomic_write_text(target, "新")
    finally:
        os.umask(old_mask)
    assert target.read_text(encoding="utf-8") == "新"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]  # no temp file left


def test_atomic_write_into_a_missing_folder_is_a_file_error(tmp_path):
    with pytest.raises(FileError, match="cannot write"):
        atomic_write_text(tmp_path / "no" / "such" / "dir" / "x.json", "x")


def test_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "keep.txt"
    target.write_text("precious")

    def boom(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(FileError, match="No space left"):
        atomic_write_text(target, "new")
    assert target.read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]
