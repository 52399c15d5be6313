"""`wubitok gui --screenshot`: bad options are one line and exit 2, a screenshot leaves the user's settings alone.

Real subprocesses: a bad size used to crash the process (exit 139) and an
empty name used to open the interactive app, which an in-process test could
not survive; the settings file is compared byte for byte.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Only a guard against the old behaviour (the interactive app never returned offscreen).
GUARD_SECONDS = 120


def wubitok_gui(data_dir: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WUBITOK_DATA_DIR": str(data_dir), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "wubitok", "gui", *argv], env=env, capture_output=True,
                          text=True, timeout=GUARD_SECONDS)


@pytest.mark.parametrize("size", ["99999x99999", "8193x600"])
def test_a_huge_size_is_one_line_not_a_crash(tmp_path, size):
    out = tmp_path / "o.png"
    done = wubitok_gui(tmp_path / "data", "--screenshot", str(out), "--size", size, "--pane", "lookup")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "at most 8192x8192" in done.stderr
    assert not out.exists()


@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_screenshot_name_is_an_error_not_the_app(tmp_path, name):
    done = wubitok_gui(tmp_path / "data", "--screenshot", name)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--screenshot wants the name of the PNG file" in done.stderr


def test_a_screenshot_neither_writes_settings_nor_prints_qt_messages(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    ini = data / "wubitok-gui.ini"
    ini.write_text("[app]\nlanguage=en\n\n[tokenize]\ntext=what the user typed last time\n", encoding="utf-8")
    before = ini.read_bytes()
    out = tmp_path / "tokenize.png"
    done = wubitok_gui(data, "--screenshot", str(out), "--pane", "tokenize", "--text", "SCREENSHOT-ONLY 你好")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{out}\n"
    assert done.stderr == ""  # no "This plugin does not support propagateSizeHints()"
    assert out.read_bytes().startswith(b"\x89PNG")
    assert ini.read_bytes() == before
    # Nothing of the user's beside the ini; cache/ holds tables rebuilt at will (table_cache).
    assert sorted(p.name for p in data.iterdir() if p.name != "cache") == ["wubitok-gui.ini"]
