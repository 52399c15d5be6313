"""Library errors in the dialog: the library's message in English, translated by code in 简体中文."""
from __future__ import annotations

import pytest

from wubitok.errors import FileError, WubitokError
from wubitok.fileio import atomic_write_text, read_text
from wubitok.gui.support import errors, i18n
from wubitok.wubi.convert import to_hanzi


@pytest.fixture
def chinese(gui_app):
    i18n.set_language("zh_CN")
    yield
    i18n.set_language("en")


def _error(call) -> WubitokError:
    with pytest.raises(WubitokError) as caught:
        call()
    return caught.value


def test_every_error_code_the_library_raises_here_has_a_chinese_message(chinese, tmp_path):
    bad = tmp_path / "x.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    raised = [
        _error(lambda: read_text(tmp_path / "missing.txt")),
        _error(lambda: read_text(bad)),
        _error(lambda: read_text(bad, "big5")),
        _error(lambda: read_text(bad, "nope")),
        _error(lambda: atomic_write_text(tmp_path / "no" / "x.txt", "x")),
        _error(lambda: atomic_write_text(tmp_path / "x.txt", "😀", "gb2312")),
        _error(lambda: to_hanzi("vbg9")),
        _error(lambda: to_hanzi("abcdef")),
        _error(lambda: to_hanzi("`open")),
    ]
    for error in raised:
        shown = errors.message_of(error)
        assert error.code and shown != str(error), error.code
        # Chinese words, and the path or code the English message names.
        assert any("\u4e00" <= c <= "\u9fff" for c in shown), shown
        assert any(str(v) in shown for v in error.params.values()), shown
    assert errors.message_of(raised[0]) == f"{tmp_path / 'missing.txt'}：文件不存在"


def test_in_english_the_library_message_is_shown(gui_app, qtbot, error_dialogs, tmp_path):
    error = _error(lambda: read_text(tmp_path / "missing.txt"))
    assert errors.message_of(error) == str(error)
    box = errors.show_error(None, error)
    assert error_dialogs == [("File problem", f"{tmp_path / 'missing.txt'}: no such file")]
    box.close()


def test_an_error_without_a_code_shows_its_text(chinese):
    assert errors.message_of(FileError("x: something")) == "x: something"
    assert errors.message_of("plain") == "plain"
