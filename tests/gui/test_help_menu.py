"""Help menu: Check this computer shows ``wubitok doctor``'s report; About credits every bundled font."""
from __future__ import annotations

import subprocess
import sys

import pytest
from PySide6.QtGui import QFontDatabase

from wubitok.gui.main_window import MainWindow
from wubitok.gui.widgets.doctor_dialog import DoctorDialog
from wubitok.paths import resources_dir


@pytest.fixture
def window(gui_app, gui_data_dir, qtbot):
    w = MainWindow(restore=False, build_in_background=False)
    qtbot.addWidget(w)
    return w


def test_check_this_computer_shows_the_doctor_report(window, qtbot):
    window.doctor_action.trigger()
    dialog = window.findChild(DoctorDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.finished_checking, timeout=120_000)
    # The same lines as the command, run in the same environment.
    cli = subprocess.run([sys.executable, "-m", "wubitok", "doctor"], capture_output=True, text=True, timeout=300)
    assert dialog.lines == cli.stdout.splitlines()
    assert dialog.report.toPlainText() == cli.stdout.rstrip("\n")
    assert "ok       traditional output (OpenCC)" in dialog.lines
    ready = cli.returncode == 0
    assert dialog.summary.text() == ("Everything each use needs is here." if ready else
                                     "Some uses need more: each line says what to install (also: wubitok doctor).")
    dialog.close()


def test_about_credits_every_bundled_font(window):
    fonts = sorted((resources_dir() / "fonts").glob("*.ttf"))
    assert len(fonts) >= 2
    text = window.about_text()
    for path in fonts:
        (family,) = QFontDatabase.applicationFontFamilies(QFontDatabase.addApplicationFont(str(path)))
        assert family in text  # "Droid Sans Fallback", "HanaMinB"
    assert "Apache-2.0" in text and "Hanazono Font License" in text
