"""`wubitok table export/import` over the user's data folder."""
from __future__ import annotations

import pytest
from cli_run import run

from wubitok.ime import UserFrequencies


@pytest.mark.system("libime_tabledict")  # the fcitx5 export compiles its table with it
def test_export_rime_and_fcitx5_with_the_users_phrase(capsys, user_data_dir, tmp_path):
    run(capsys, "phrase", "add", "小明", "--code", "ijjj")
    code, out, err = run(capsys, "table", "export", "--to", "rime", "-o", tmp_path / "r" / "new")
    assert (code, err) == (0, "")
    assert "(1 of them your phrases)" in out and "rime_deployer --add-schema wubi86_wubitok" in out
    text = (tmp_path / "r" / "new" / "wubi86_wubitok.dict.yaml").read_text(encoding="utf-8")
    assert "\n小明\tijjj\t0\n" in text and "\n你\twqiy\t" in text
    assert "\n𠉎\twqiy" not in text  # the default charset gbk leaves Ext B out
    code, out, _ = run(capsys, "table", "export", "--to", "fcitx5", "-o", tmp_path / "f", "--charset", "all")
    assert code == 0 and "~/.local/share/fcitx5/table/" in out
    assert {p.name for p in (tmp_path / "f").iterdir()} == {"wubitok.txt", "wubitok.conf", "wubitok.main.dict"}
    assert "\nwqiy 𠉎\n" in (tmp_path / "f" / "wubitok.txt").read_text(encoding="utf-8")


def test_import_and_its_errors(capsys, user_data_dir, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("小明\tijjj\n你好\twqvb\n", encoding="utf-8")
    assert run(capsys, "table", "import", words) == (
        0, f"added 1 phrases from {words} (1 already typed by their codes)\n", "")
    bad = tmp_path / "bad.txt"
    bad.write_text("大明\tijjj\n大明x\tijjj\n", encoding="utf-8")
    assert run(capsys, "table", "import", bad) == (
        2, "", f"wubitok table: error: {bad}, line 2: a phrase is Chinese characters only, not 'x' (U+0078)\n")
    assert run(capsys, "table", "import", bad, "--skip-invalid")[1] == (
        f"added 1 phrases from {bad} (0 already typed by their codes, 1 invalid lines skipped)\n")
    assert UserFrequencies().phrases() == [("ijjj", "大明", "import"), ("ijjj", "小明", "import")]
    code, _, err = run(capsys, "table", "import", tmp_path / "missing.txt")
    assert code == 2 and err.count("\n") == 1


def test_export_into_a_file_is_an_error(capsys, user_data_dir, tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    code, out, err = run(capsys, "table", "export", "--to", "rime", "-o", tmp_path / "file")
    assert (code, out) == (2, "") and err.startswith("wubitok table: error: ") and err.count("\n") == 1
