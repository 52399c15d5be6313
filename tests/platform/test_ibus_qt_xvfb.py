"""A real Qt application typing through the engine: a QLineEdit on an X server (Xvfb) with
QT_IM_MODULE=ibus, Qt's own IBus input module talking to the private ibus-daemon, and key
presses from xdotool (XTEST, as a keyboard makes them).  Needs Debian's xvfb, xdotool and
the xcb libraries Qt's xcb platform loads (.ci/run installs them)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from system import require

require("gi", "ibus-typelib")

from ibus_harness import ENGINE, START_TIMEOUT, GLib, wait_for  # noqa: E402

HERE = Path(__file__).resolve().parent


@pytest.fixture
def x_display():
    require("Xvfb", "xdotool", "qt-xcb")
    n = next(n for n in range(90, 300)
             if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists())
    xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        wait_for(lambda: Path(f"/tmp/.X11-unix/X{n}").exists() or xvfb.poll() is not None, 30, "Xvfb")
        assert xvfb.poll() is None, "Xvfb did not start"
        yield f":{n}"
    finally:
        xvfb.terminate()
        xvfb.wait(10)


def test_a_qt_line_edit_receives_nihao_from_key_presses(private_ibus, ibus_bus, x_display):
    ibus_bus.set_global_engine(ENGINE)  # what the desktop's input source switcher does
    env = private_ibus.env()
    env.update(DISPLAY=x_display, QT_QPA_PLATFORM="xcb", QT_IM_MODULE="ibus", IBUS_ADDRESS=private_ibus.address)
    app = subprocess.Popen([sys.executable, str(HERE / "qt_line_edit.py"), "你好", str(START_TIMEOUT)], env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           start_new_session=True)
    try:
        assert app.stdout is not None
        first = app.stdout.readline().split()
        assert first[:1] == ["window"], first
        x = dict(os.environ, DISPLAY=x_display)
        subprocess.run(["xdotool", "windowfocus", "--sync", first[1]], env=x, check=True, timeout=60)
        # Wait until Qt's input context has the engine: a key typed before would reach the
        # line edit as a plain letter.
        wait_for(lambda: _focused_context(ibus_bus), START_TIMEOUT, "the application's input context to take focus")
        subprocess.run(["xdotool", "key", "--delay", "30", *"wqiyvb", "space"], env=x, check=True, timeout=60)
        out, _ = app.communicate(timeout=START_TIMEOUT)
    finally:
        if app.poll() is None:
            os.killpg(app.pid, 9)
            app.wait()
    texts = [line[5:] for line in out.splitlines() if line.startswith("text ")]
    assert texts == ["你", "你好"], out  # 你 committed by v (顶字), 好 by Space; no Latin letter ever


def _focused_context(bus) -> str:
    """The object path of the focused input context ("" while there is none)."""
    try:
        return bus.current_input_context() or ""
    except GLib.Error:
        return ""
