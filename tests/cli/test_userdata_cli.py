"""`wubitok userdata export/import`: one file, one-line errors, nothing half-written."""
from __future__ import annotations

import json
import os

from cli_run import run

from wubitok.ime.userdata import read_user_data

GOOD = {"format": "wubitok-userdata", "version": 1, "frequencies": [["wqiy", "仰泳", 3]],
        "phrases": [["ijjj", "小明", "manual"]], "pins": [["wqiy", "仰泳", 0]], "settings": {"page_size": 7}}


def test_the_cli_round_trip_and_errors(capsys, user_data_dir, tmp_path):
    path = tmp_path / "moving.json"
    path.write_text(json.dumps(GOOD, ensure_ascii=False), encoding="utf-8")
    assert read_user_data(path).settings.page_size == 7
    assert run(capsys, "userdata", "import", path) == (
        0, f"imported 1 phrases, 1 learned choices, 1 pins and the settings from {path}\n", "")
    out = tmp_path / "out.json"
    assert run(capsys, "userdata", "export", out)[0] == 0
    assert read_user_data(out) == read_user_data(path)
    (tmp_path / "torn.json").write_bytes(out.read_bytes()[:40])
    code, stdout, err = run(capsys, "userdata", "import", tmp_path / "torn.json")
    assert (code, stdout) == (2, "") and err.startswith("wubitok userdata: error: ") and err.count("\n") == 1
    code, _, err = run(capsys, "userdata", "export", tmp_path / "no" / "such" / "dir.json")
    assert code == 2 and "does not exist" in err
    assert not any(name.endswith(".tmp") for name in os.listdir(tmp_path))
