"""``wubitok doctor``: each use's needs, a missing part simulated by PATH or the environment."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wubitok.ime.userdb import FILENAME, UserFrequencies
from wubitok.services.doctor import distribution


def doctor(tmp_path: Path, *args: str, env: dict[str, str] | None = None, prelude: str = "",
           ) -> subprocess.CompletedProcess:
    """``wubitok doctor ARGS`` in a fresh process with its own data folder."""
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    base["WUBITOK_DATA_DIR"] = str(tmp_path / "data")
    script = f"import sys\n{prelude}\nfrom wubitok.cli import main\nsys.exit(main({['doctor', *args]!r}))\n"
    return subprocess.run([sys.executable, "-c", script], env=base | (env or {}), capture_output=True, text=True,
                          timeout=300)


def problems(proc: subprocess.CompletedProcess) -> list[str]:
    return [line for line in proc.stdout.splitlines() if line.startswith("MISSING")]


@pytest.mark.system("rime_deployer", "libime_tabledict")
def test_ready_uses_exit_0_with_one_line_each(tmp_path):
    proc = doctor(tmp_path, "traditional", "tables", "cluster", "data")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        "ok       traditional output (OpenCC)", "ok       tables for Rime and fcitx5 (wubitok table)",
        "ok       encoding on a Dask cluster (--cluster)", "ok       your data folder and user database"]
    assert not (tmp_path / "data").exists()  # checked, not created


def test_tools_missing_from_path_name_the_package_of_this_distribution(tmp_path):
    proc = doctor(tmp_path, "tables", env={"PATH": str(tmp_path / "empty")})
    assert proc.returncode == 1
    lines = problems(proc)
    assert len(lines) == 2, proc.stdout
    if distribution() == "debian":
        assert lines[0] == ("MISSING  tables: Rime's rime_deployer: not found -> Debian/Ubuntu: "
                            "sudo apt install librime-bin")
        assert lines[1].endswith("-> Debian/Ubuntu: sudo apt install libime-bin")
    report = json.loads(doctor(tmp_path, "tables", "--json", env={"PATH": str(tmp_path / "empty")}).stdout)
    assert report["uses"] == {"tables": {"label": "tables for Rime and fcitx5 (wubitok table)", "ready": False}}
    assert [c["packages"] for c in report["checks"]] == [["librime-bin", "librime", "librime"],
                                                         ["libime-bin", "libime", "libime"]]


def test_the_app_without_a_display_or_without_qt(tmp_path):
    no_display = doctor(tmp_path, "app", env={"QT_QPA_PLATFORM": ""})
    assert no_display.returncode == 1
    assert any("app: display: none" in line and "--screenshot" in line for line in problems(no_display))
    offscreen = doctor(tmp_path, "app", env={"QT_QPA_PLATFORM": "offscreen"})
    assert not any("display" in line for line in problems(offscreen)), offscreen.stdout
    no_qt = doctor(tmp_path, "app", env={"QT_QPA_PLATFORM": "offscreen"}, prelude="sys.modules['PySide6'] = None")
    assert "MISSING  app: Qt for Python (PySide6): not installed -> pip install 'wubitok[gui]'" in problems(no_qt)


def test_traditional_output_without_opencc(tmp_path):
    proc = doctor(tmp_path, "traditional", "cluster", prelude="sys.modules['opencc'] = None")
    assert proc.returncode == 1
    assert problems(proc) == ["MISSING  traditional: OpenCC: not installed -> pip install opencc"]
    assert "ok       encoding on a Dask cluster (--cluster)" in proc.stdout


def test_a_data_folder_that_cannot_be_made(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    proc = doctor(tmp_path, "data", env={"WUBITOK_DATA_DIR": str(blocker / "wubitok")})
    assert proc.returncode == 1
    assert problems(proc) == [f"MISSING  data: data folder {blocker / 'wubitok'}: {blocker} is not a folder"]


@pytest.mark.parametrize("damage", [b"not a database at all, " * 100, None])
def test_the_user_database_is_checked_and_left_as_it_is(tmp_path, damage):
    data = tmp_path / "data"
    data.mkdir()
    path = data / FILENAME
    if damage is None:  # a sound database the typing has written
        db = UserFrequencies(path)
        db.record("wqiy", "你")
        db.close()
    else:
        path.write_bytes(damage)
    before = path.read_bytes()
    proc = doctor(tmp_path, "data")
    assert path.read_bytes() == before and sorted(p.name for p in data.iterdir())[0] == FILENAME
    if damage is None:
        assert proc.returncode == 0, proc.stdout
    else:
        assert proc.returncode == 1
        (line,) = problems(proc)
        assert line.startswith(f"MISSING  data: user database: {path}: ")
        assert "move the file aside" in line


def test_an_unknown_use_is_one_line(tmp_path):
    proc = doctor(tmp_path, "printing")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == ("wubitok doctor: error: unknown use 'printing' "
                                   "(choose from app, ibus, traditional, tables, cluster, encoder, data)")


def test_doctor_says_which_encoder_wubi_bpe_uses(tmp_path):
    proc = doctor(tmp_path, "encoder")
    assert proc.returncode == 0 and proc.stdout.splitlines() == [
        "ok       Wubi-BPE's fast encoder (Hugging Face tokenizers' Rust BPE) in use"]
    without = doctor(tmp_path, "encoder", prelude="sys.modules['tokenizers'] = None")
    assert without.returncode == 1 and problems(without) == [
        "MISSING  encoder: Wubi-BPE encoder: the Python encoder is in use: Hugging Face tokenizers is not "
        "installed -> pip install tokenizers"]
