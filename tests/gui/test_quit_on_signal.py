"""`wubitok gui` in a real process quits on Ctrl+C (SIGINT) and SIGTERM as File > Quit does:
the window's state is remembered, no traceback, the exit status says which signal."""
from __future__ import annotations

import configparser
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

STARTED_WITHIN_S = 120


def _settings(folder: Path) -> configparser.RawConfigParser:
    ini = configparser.RawConfigParser(strict=False)
    ini.read(folder / "wubitok-gui.ini", encoding="utf-8")
    return ini


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_quits_the_app_and_keeps_what_a_quit_keeps(tmp_path, signum):
    env = dict(os.environ, WUBITOK_DATA_DIR=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    process = subprocess.Popen([sys.executable, "-m", "wubitok", "gui", "--pane", "tokenize", "--text", "hello"],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The pane stores the typed text at once; the settings file has it once the event loop runs.
        deadline = time.monotonic() + STARTED_WITHIN_S
        while _settings(tmp_path).get("tokenize", "text", fallback=None) != "hello":
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the app did not start"
            time.sleep(0.2)
        assert not _settings(tmp_path).has_option("window", "pane")  # written by a quit only
        process.send_signal(signum)
        _, err = process.communicate(timeout=STARTED_WITHIN_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 128 + signum
    assert "Traceback" not in err, err
    window = _settings(tmp_path)
    assert window.get("window", "pane") == "tokenize" and window.has_option("window", "geometry")
