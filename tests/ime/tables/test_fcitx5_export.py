"""The fcitx5 export, compiled by Debian's libime_tabledict and dumped back by it."""
from __future__ import annotations

import subprocess

import pytest

from wubitok.errors import FileError
from wubitok.ime.tables.entries import TableEntry
from wubitok.ime.tables.fcitx5 import compile_table, text_table, write_fcitx5


def _data(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[lines.index("[Data]") + 1:]


@pytest.mark.system("libime_tabledict")
def test_libime_compiles_it_and_keeps_every_entry_in_order(fcitx5_folder, taught_table):
    compiled = fcitx5_folder / "wubitok.main.dict"
    dump = fcitx5_folder / "dump.txt"
    subprocess.run(["libime_tabledict", "-d", str(compiled), str(dump)], check=True, timeout=300)
    back = dump.read_text(encoding="utf-8")
    assert back.splitlines()[:2] == ["KeyCode=abcdefghijklmnopqrstuvwxy", "Length=4"]
    assert "a4=p11+p21+p31+n11" in back  # the Wubi-86 phrase rule
    data = _data(back)
    assert data == [f"{e.code} {e.text}" for e in taught_table]
    assert data.index("wqiy 你") < data.index("wqiy 仰泳")
    assert "ijjj 小明" in data and "gtli 五笔输入法" in data
    assert data.index("aaaa 恭恭敬敬") < data.index("aaaa 工")  # the pin


def test_the_input_method_conf_points_at_the_table(fcitx5_folder):
    conf = (fcitx5_folder / "wubitok.conf").read_text(encoding="utf-8")
    assert "Addon=table" in conf and "File=table/wubitok.main.dict" in conf and "LangCode=zh_CN" in conf


def test_without_the_tool_only_the_text_table(tmp_path):
    paths = write_fcitx5([TableEntry("wqiy", "你", 1, False)], tmp_path, compile_with=None)
    assert [p.name for p in paths] == ["wubitok.txt", "wubitok.conf"]
    assert _data(paths[0].read_text(encoding="utf-8")) == ["wqiy 你"]


@pytest.mark.system("libime_tabledict")
def test_a_table_libime_rejects_is_an_error_and_leaves_no_file(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(text_table([TableEntry("wqiy", "你", 1, False)]).replace("KeyCode=", "KeyCodes="),
                   encoding="utf-8")
    with pytest.raises(FileError, match="libime_tabledict could not compile"):
        compile_table(bad, tmp_path / "bad.main.dict")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt"]
