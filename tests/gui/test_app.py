"""The app shell: panes and shortcuts, fonts, language and theme switches, settings, errors, the command."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QImage, QPalette, QRawFont
from PySide6.QtWidgets import QApplication, QMessageBox

from wubitok import cli
from wubitok.errors import FileError, WubitokError
from wubitok.gui import launch
from wubitok.gui.main_window import MainWindow
from wubitok.gui.panes.base import Pane
from wubitok.gui.support import errors, fonts
from wubitok.services.earlyinit import PANE_KEYS, PANES

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def window(gui_app, gui_data_dir, qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.set_language("en")
    w.set_theme("light")


def test_panes_load_in_the_declared_order_without_errors(window):
    assert window.pane_keys() == list(PANE_KEYS)
    for key, spec in PANES.items():
        pane = window.pane(key)
        assert isinstance(pane, Pane) and f"{type(pane).__module__}:{type(pane).__name__}" == spec
    assert window.pane_errors == {}


def test_ctrl_number_switches_panes(window, qtbot):
    keys = window.pane_keys()
    window.activateWindow()
    for i, key in enumerate(keys[:6]):
        qtbot.keyClick(window, Qt.Key(Qt.Key.Key_1 + i), Qt.KeyboardModifier.ControlModifier)
        assert window.current_pane_key() == key
        assert window.stack.currentWidget() is window.pane(key)


def test_file_actions_follow_the_pane(window):
    window.show_pane("convert")
    assert window.open_action.isEnabled() and window.save_action.isEnabled()
    window.show_pane("lookup")
    assert not window.open_action.isEnabled()


def test_window_and_pane_are_remembered(gui_app, gui_data_dir, qtbot):
    first = MainWindow()
    qtbot.addWidget(first)
    first.show()
    first.show_pane("convert")
    # Smaller than the offscreen screen (800x600): a restored window is kept on screen.
    first.resize(760, 560)
    first.close()
    second = MainWindow()
    qtbot.addWidget(second)
    assert second.current_pane_key() == "convert"
    assert (second.width(), second.height()) == (760, 560)


def test_language_switch_takes_effect_at_once(window, qtbot):
    lookup = window.pane("lookup")
    assert window.pane_list.item(0).text() == "Lookup"
    window.set_language("zh_CN")
    # Qt posts LanguageChange to every widget: the texts change on the next event loop turn.
    qtbot.waitUntil(lambda: window.pane_list.item(0).text() == "查询")
    assert window.menuBar().actions()[0].text().startswith("文件")
    assert lookup.model.headerData(0, Qt.Orientation.Horizontal) == "字词"
    window.set_language("en")
    qtbot.waitUntil(lambda: window.pane_list.item(0).text() == "Lookup")
    assert lookup.model.headerData(0, Qt.Orientation.Horizontal) == "Text"


def test_language_switch_with_every_pane_open(window, qtbot):
    for key in window.pane_keys():
        window.show_pane(key)
        qtbot.waitUntil(lambda: window.current_real_pane().is_ready(), timeout=30_000)
    window.set_language("zh_CN")
    qtbot.waitUntil(lambda: window.pane_list.item(0).text() == "查询")
    for key in window.pane_keys():
        assert window.pane(key) is not None
    assert window.pane_errors == {}
    assert window.current_pane_key() == window.pane_keys()[-1]
    assert window.stack.currentWidget() is window.current_pane()


def test_ctrl_l_goes_to_the_input(window, qtbot):
    window.show_pane("lookup")
    window.activateWindow()
    window.pane_list.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert window.pane("lookup").search_box.hasFocus()


def test_theme_switch(window):
    window.set_theme("dark")
    assert QApplication.palette().color(QPalette.ColorRole.Window).lightness() < 100
    window.set_theme("light")
    assert QApplication.palette().color(QPalette.ColorRole.Window).lightness() > 200


def test_the_bundled_font_draws_han(gui_app):
    family = fonts.load_bundled_font()
    raw = QRawFont.fromFont(fonts.han_font(20))
    assert family in fonts.han_font(20).families()
    assert "Droid Sans Fallback" in QFontDatabase.families()
    assert QRawFont.fromFont(QApplication.font()).isValid()
    assert raw.isValid()
    # The app font falls back to a family that has Han glyphs, installed or bundled.
    han = fonts.han_family()
    assert han in QApplication.font().families()
    assert fonts.covers(han, "中文五笔阿爱")
    assert not fonts.covers(han, "\U000f0000")  # a private-use plane character: no font has it
    assert fonts.drawable("中\U000f0000a") == "中⟨U+F0000⟩a"


def test_user_errors_become_a_warning_dialog(gui_app, qtbot, error_dialogs):
    box = errors.show_error(None, FileError("x.txt: not UTF-8 text (invalid byte at offset 0)"))
    qtbot.waitUntil(box.isVisible)
    assert box.icon() == QMessageBox.Icon.Warning
    assert error_dialogs == [("File problem", "x.txt: not UTF-8 text (invalid byte at offset 0)")]
    box.close()


def test_reported_block_turns_a_wubitok_error_into_a_dialog(gui_app, error_dialogs):
    with errors.reported(None):
        raise WubitokError("something the user can fix")
    assert error_dialogs == [("Error", "something the user can fix")]


def test_a_bug_shows_a_dialog_with_the_traceback(gui_app, qtbot, error_dialogs, capsys):
    try:
        raise ValueError("boom")
    except ValueError as exc:
        errors._excepthook(type(exc), exc, exc.__traceback__)
    box = errors.reporter().last_dialog
    assert box.icon() == QMessageBox.Icon.Critical
    assert "ValueError: boom" in box.text()
    assert "Traceback" in box.detailedText()
    assert "ValueError: boom" in capsys.readouterr().err
    box.close()


def test_gui_without_a_display_points_to_the_cli(monkeypatch, capsys):
    monkeypatch.setattr(sys, "platform", "linux")  # only X11/Wayland systems can lack a display
    for var in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    assert cli.main(["gui"]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "wubitok lookup" in err and "--screenshot" in err
    assert err.count("\n") == 1
    # The wubitok-gui launcher says the same, without going through the CLI.
    assert launch.main([]) == 2
    assert capsys.readouterr().err == err.replace("wubitok gui: error:", "wubitok-gui: error:")


def test_bad_screenshot_arguments(capsys, tmp_path):
    assert cli.main(["gui", "--screenshot", str(tmp_path / "x.png"), "--size", "big"]) == 2
    assert "--size" in capsys.readouterr().err
    assert launch.main(["--screenshot", str(tmp_path / "x.png"), "--size", "big"]) == 2
    assert "--size" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("pane, text", [("lookup", "你好"), ("convert", "wqiy vbg"), ("ime", "wqiyvb")])
def test_screenshot_of_each_pane(tmp_path, pane, text):
    out = tmp_path / f"{pane}.png"
    env = dict(os.environ, WUBITOK_DATA_DIR=str(tmp_path / "data"))
    env.pop("QT_QPA_PLATFORM", None)  # --screenshot must go offscreen by itself
    env.pop("DISPLAY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "wubitok", "gui", "--screenshot", str(out), "--pane", pane, "--text", text,
         "--lang", "en", "--size", "1000x700"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1000, 700)


def test_many_qt_calls_do_not_exhaust_none_or_true(tmp_path):
    # PySide6 6.12.0 on Python < 3.12 drops a reference to None on every void
    # call and to True on every emit, and the interpreter aborts ("deallocating
    # None") after a few thousand: pyproject.toml excludes that release.
    script = (
        "import wubitok.gui\n"
        "from PySide6.QtCore import QObject, Signal\n"
        "from PySide6.QtWidgets import QApplication, QLabel\n"
        "class Source(QObject):\n"
        "    changed = Signal(object)\n"
        "app = QApplication([])\n"
        "label, source = QLabel(), Source()\n"
        "for _ in range(50_000):\n"
        "    label.setText('x')\n"
        "    source.changed.emit(1)\n"
        "print('ok')\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_a_screenshot_leaves_the_remembered_window_alone(gui_app, gui_data_dir, tmp_path):
    from wubitok.gui.app import screenshot
    from wubitok.gui.support.settings import Settings

    Settings("window").set("pane", "convert")
    out = screenshot(tmp_path / "shot.png", pane="lookup", text="你", size=(900, 600), language="en")
    assert QImage(str(out)).size().width() == 900
    assert Settings("window").get_str("pane") == "convert"


def test_switching_language_keeps_every_panes_state(window, qtbot):
    long_text = "五笔字型输入法。" * 20_000  # 160,000 characters: more than is remembered across sessions
    tokenize = window.pane("tokenize")
    tokenize.set_sample_text(long_text)
    compare = window.pane("compare")
    compare.set_sample_text("床前明月光")
    qtbot.waitUntil(lambda: tokenize.is_ready() and compare.is_ready(), timeout=60_000)
    panes = {key: window.pane(key) for key in window.pane_keys()}
    window.set_language("zh_CN")
    # Qt posts LanguageChange; then the pane on screen changes at once, the
    # others one per turn of the event loop.
    qtbot.waitUntil(lambda: window.pane_list.item(0).text() == "查询" and not window.retranslation_pending())
    assert tokenize.open_text_button.text() == "打开文本…"
    assert {key: window.pane(key) for key in window.pane_keys()} == panes  # not rebuilt
    assert tokenize.text() == long_text and tokenize.token_count() > 0
    assert compare.editor.toPlainText() == "床前明月光" and compare.results
    assert compare.table.horizontalHeaderItem(0).text() == "分词器"
    qtbot.waitUntil(compare.is_ready)
    assert compare.chart.texts().bar_title == "每词元字符数"


def test_a_language_switch_retranslates_the_shown_pane_first_and_the_others_one_per_turn(window, qtbot):
    from PySide6.QtCore import QCoreApplication, QEvent

    from wubitok.gui.support import i18n

    for key in ("lookup", "convert", "tokenize"):
        window.pane(key)
    window.show_pane("lookup")
    i18n.set_language("zh_CN")
    # What Qt's posted LanguageChange does, here and now.
    QCoreApplication.sendEvent(window, QEvent(QEvent.Type.LanguageChange))
    assert window.pane_list.item(0).text() == "查询"
    assert window.retranslation_pending()
    convert, tokenize = window.pane("convert"), window.pane("tokenize")
    assert convert.style_label.text() == "Codes:"  # not yet: a later turn
    window.show_pane("convert")  # shown before its turn came: changed as it is shown
    assert convert.style_label.text() == "编码："
    qtbot.waitUntil(lambda: not window.retranslation_pending())
    assert tokenize.open_text_button.text() == "打开文本…"


def test_the_window_and_its_panes_create_no_qt_class_once_the_app_is_up(tmp_path):
    """Qt for Python creates a class and its enums on first use: with the app
    created, showing the window and building every pane must find them made
    (else that work lands in a frozen window).  A fresh process, as at start-up."""
    script = """
import enum, sys
from wubitok.gui.app import create_app
from wubitok.gui.main_window import MainWindow
from PySide6.QtWidgets import QWidget
app = create_app(language="en", theme_name="light")
created = []
make = enum.EnumType._create_
def counting(cls, name, *args, **kwargs):
    created.append(name)
    return make(cls, name, *args, **kwargs)
enum.EnumType._create_ = counting
window = MainWindow(restore=False, build_in_background=False)
window.show()
app.processEvents()
for key in window.pane_keys():
    window.show_pane(key)
    app.processEvents()
    window.pane(key).findChildren(QWidget)
print(len(created), sorted(set(created))[:20])
window.shutdown()
"""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "WUBITOK_DATA_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split(" ", 1)[0] == "0", run.stdout
