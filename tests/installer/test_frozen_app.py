"""Build the Linux desktop app with PyInstaller and run the frozen executable.

Slow (about a minute and 250 MB): not in the default run. ``pytest -m slow``.
"""
from __future__ import annotations

import importlib.util
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from system import require

import wubitok

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def frozen_app() -> Path:
    require("linux")
    if importlib.util.find_spec("PyInstaller") is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "pyinstaller>=6.0"], check=True)
    subprocess.run([sys.executable, str(ROOT / "installer" / "build.py")], check=True, cwd=ROOT)
    exe = ROOT / "dist" / "wubitok" / "wubitok"
    assert exe.is_file() and os.access(exe, os.X_OK)
    return exe


def _clean_env() -> dict[str, str]:
    # The frozen app must not lean on the source tree or the venv.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.pop("QT_QPA_PLATFORM", None)
    env.pop("DISPLAY", None)
    return env


def test_frozen_app_prints_its_version(frozen_app, tmp_path):
    proc = subprocess.run([str(frozen_app), "--version"], capture_output=True, text=True, cwd=tmp_path,
                          env=_clean_env(), timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == f"wubitok {wubitok.__version__}"


def test_frozen_app_carries_its_data(frozen_app, tmp_path):
    internal = frozen_app.parent / "_internal" / "wubitok"
    assert (internal / "data" / "wubi86.sqlite").is_file()
    assert (internal / "resources" / "fonts" / "DroidSansFallbackFull.ttf").is_file()
    proc = subprocess.run([str(frozen_app), "lookup", "你", "--json"], capture_output=True, text=True,
                          cwd=tmp_path, env=_clean_env(), timeout=60, encoding="utf-8")
    assert proc.returncode == 0 and '"wqiy"' in proc.stdout


def test_frozen_app_writes_a_screenshot_headless(frozen_app, tmp_path):
    out = tmp_path / "shot.png"
    env = _clean_env() | {"WUBITOK_DATA_DIR": str(tmp_path / "data")}
    proc = subprocess.run([str(frozen_app), "gui", "--screenshot", str(out), "--pane", "lookup", "--text", "你好"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    header = out.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    assert (width, height) == (1200, 800)
