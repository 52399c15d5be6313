"""The typing pad: keys typed into the editor go through the Wubi engine."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from typing_cases import CASES, engine_result

from wubitok.gui.panes.ime_pad import ImePadPane
from wubitok.ime import ImeEngine, parse_keys


@pytest.fixture
def pad(gui_app, gui_data_dir, qtbot):
    p = ImePadPane()
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    qtbot.waitUntil(p.is_ready, timeout=90_000)  # the index and pinyin readings: seconds on a busy machine
    p.editor.setFocus()
    yield p
    p.shutdown()


def _doc(pad):
    return pad.editor.toPlainText()


def _preedit(pad):
    return pad.editor.textCursor().block().layout().preeditAreaText()


def _engine_types(keys):
    """What the engine alone commits and leaves pending for ``keys`` (the oracle)."""
    engine = ImeEngine(learning=False)
    committed = "".join(engine.press(k) for k in parse_keys(keys))
    return committed, engine.state.preedit


@pytest.mark.parametrize("keys", ["wqiy", "wqiyvb", "wqiyvb khlg ", "aaaa1ggtt2", "zni "])
def test_the_document_gets_what_the_engine_commits(qtbot, pad, keys):
    qtbot.keyClicks(pad.editor, keys)
    assert (_doc(pad), _preedit(pad)) == _engine_types(keys)


_QT_KEYS = {
    "space": Qt.Key.Key_Space, "enter": Qt.Key.Key_Return, "backspace": Qt.Key.Key_Backspace,
    "escape": Qt.Key.Key_Escape, "pageup": Qt.Key.Key_PageUp, "pagedown": Qt.Key.Key_PageDown,
    "left": Qt.Key.Key_Left, "right": Qt.Key.Key_Right, "up": Qt.Key.Key_Up, "down": Qt.Key.Key_Down,
}


def _type_case_key(qtbot, editor, key):
    if key == "shift":
        qtbot.keyPress(editor, Qt.Key.Key_Shift)
        qtbot.keyRelease(editor, Qt.Key.Key_Shift)
    elif key.startswith("ctrl+"):
        qtbot.keyClick(editor, key[-1], Qt.KeyboardModifier.ControlModifier)
    elif key in _QT_KEYS:
        qtbot.keyClick(editor, _QT_KEYS[key])
    else:
        qtbot.keyClicks(editor, key)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_typing_case(qtbot, pad, case):
    """The typing cases the IBus engine passes too (tests/typing_cases.py)."""
    text, state = engine_result(case.keys)
    for key in case.keys:
        _type_case_key(qtbot, pad.editor, key)
    assert _doc(pad) == (case.text if case.text is not None else text)
    assert _preedit(pad) == (case.preedit if case.preedit is not None else state.preedit)
    bar = pad.editor.candidate_bar
    assert (bar.texts() if bar.isVisible() else []) == [c.text for c in state.candidates]


def test_wqiy_types_ni(qtbot, pad):
    qtbot.keyClicks(pad.editor, "wqiy")
    if _preedit(pad):  # more than one entry has wqiy: it waits for space
        assert pad.editor.candidate_bar.texts()[0] == "你"
        qtbot.keyClick(pad.editor, Qt.Key.Key_Space)
    assert _doc(pad) == "你"
    assert _preedit(pad) == ""
    assert not pad.editor.candidate_bar.isVisible()


def test_vb_space_types_hao_and_shows_the_candidate_bar_meanwhile(qtbot, pad):
    qtbot.keyClicks(pad.editor, "wqiyvb")
    assert _doc(pad) == "你"
    assert _preedit(pad) == "vb"  # the code is shown inline at the cursor, not in the document
    bar = pad.editor.candidate_bar
    assert bar.isVisible()
    assert bar.texts()[0] == "好"
    assert len(bar.texts()) == 5
    qtbot.keyClick(pad.editor, Qt.Key.Key_Space)
    assert _doc(pad) == "你好"
    assert not bar.isVisible()
    # The learning aid shows the last entry and its keys.
    assert pad.last_label.text() == "好"
    assert pad.last_code.text() == "vb"
    assert pad.keyboard.code() == "vb"


def test_digits_pick_and_clicks_choose(qtbot, pad, wubi_dict):
    qtbot.keyClicks(pad.editor, "khlg")
    shown = pad.editor.candidate_bar.texts()
    assert shown[:2] == ["中国", "跨国"]
    qtbot.keyClicks(pad.editor, "2")
    assert _doc(pad) == "跨国"
    qtbot.keyClicks(pad.editor, "aaaa")
    second = pad.editor.candidate_bar.texts()[1]
    pad.editor.candidate_bar.chosen.emit(1)
    assert _doc(pad) == "跨国" + second


def test_backspace_edits_the_code_then_the_text(qtbot, pad):
    qtbot.keyClicks(pad.editor, "wqiyvb")
    qtbot.keyClick(pad.editor, Qt.Key.Key_Backspace)
    assert _preedit(pad) == "v"
    qtbot.keyClick(pad.editor, Qt.Key.Key_Escape)
    assert _preedit(pad) == "" and _doc(pad) == "你"
    qtbot.keyClick(pad.editor, Qt.Key.Key_Backspace)
    assert _doc(pad) == ""


def test_punctuation_and_shift_for_english(qtbot, pad):
    qtbot.keyClicks(pad.editor, "wqiy,")
    assert _doc(pad) == "你，"
    qtbot.keyClick(pad.editor, Qt.Key.Key_Shift)
    assert "English" in pad.mode_button.text()
    qtbot.keyClicks(pad.editor, "ok,")
    assert _doc(pad) == "你，ok,"
    qtbot.keyClick(pad.editor, Qt.Key.Key_Shift)
    assert "Chinese" in pad.mode_button.text()


def test_the_punctuation_button_switches_chinese_punctuation(qtbot, pad):
    assert "Chinese punctuation" in pad.punctuation_button.text()
    qtbot.mouseClick(pad.punctuation_button, Qt.MouseButton.LeftButton)
    assert "English punctuation" in pad.punctuation_button.text()
    qtbot.keyClicks(pad.editor, "wqiy,")
    assert _doc(pad) == "你,"
    qtbot.mouseClick(pad.punctuation_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(pad.editor, ",")
    assert _doc(pad) == "你,，"


def test_z_looks_up_by_pinyin_with_codes_as_hints(qtbot, pad):
    qtbot.keyClicks(pad.editor, "zni")
    assert "你" in pad.editor.candidate_bar.texts()
    assert "wqiy" in pad.editor.candidate_bar.label.text()


def test_copy_all_and_save(qtbot, pad, tmp_path, error_dialogs):
    qtbot.keyClicks(pad.editor, "wqiyvb ")
    pad.copy_all()
    assert QGuiApplication.clipboard().text() == "你好"
    out = tmp_path / "typed.txt"
    assert pad.save_to(out)
    assert out.read_text(encoding="utf-8") == "你好"
    assert not pad.save_to(tmp_path / "missing" / "typed.txt")
    assert error_dialogs and error_dialogs[0][0] == "File problem"


def test_sample_text_is_a_key_script_and_teaches_nothing(qtbot, pad, wubi_dict):
    pad.set_sample_text("wqiyvb{space}khlg{space}khlg2")
    second = wubi_dict.exact_candidates("khlg")[1].text
    assert _doc(pad) == "你好中国" + second
    assert pad.engine.options.learning
    # Had the script been learned, the second entry would now come first.
    qtbot.keyClicks(pad.editor, "khlg")
    assert pad.editor.candidate_bar.texts()[0] == "中国"


def test_learning_from_real_typing_reorders(qtbot, pad, wubi_dict):
    second = wubi_dict.exact_candidates("khlg")[1].text
    for _ in range(3):
        qtbot.keyClicks(pad.editor, "khlg2")
    qtbot.keyClicks(pad.editor, "khlg")
    assert pad.editor.candidate_bar.texts()[0] == second


def test_options_are_remembered(qtbot, gui_app, gui_data_dir):
    first = ImePadPane()
    qtbot.addWidget(first)
    first.learning_action.setChecked(False)
    next(a for a in first.charset_group.actions() if a.data() == "gb2312").trigger()
    first.save_state()
    first.shutdown()
    second = ImePadPane()
    qtbot.addWidget(second)
    assert not second.engine.options.learning
    assert second.engine.options.charset == "gb2312"
    second.shutdown()


def test_a_damaged_user_database_is_moved_aside_with_one_dialog(qtbot, gui_app, gui_data_dir, error_dialogs):
    from wubitok.ime.userdb import FILENAME

    gui_data_dir.mkdir(parents=True, exist_ok=True)
    corrupt = gui_data_dir / FILENAME
    junk = b"this is not an SQLite database\x00" * 64
    corrupt.write_bytes(junk)
    pad = ImePadPane()  # must not raise
    qtbot.addWidget(pad)
    pad.show()
    qtbot.waitUntil(lambda: bool(error_dialogs), timeout=5_000)
    (aside,) = [p for p in gui_data_dir.iterdir() if p.name.startswith(f"{FILENAME}.corrupt-")]
    assert aside.read_bytes() == junk  # the user's file is kept, under a name that says why
    assert error_dialogs == [("User database replaced", error_dialogs[0][1])]
    assert str(aside) in error_dialogs[0][1] and "damaged" in error_dialogs[0][1]
    assert pad.engine.options.learning and pad.learning_action.isChecked()  # learning goes on, afresh
    qtbot.waitUntil(pad.is_ready, timeout=30_000)
    qtbot.keyClicks(pad.editor, "wqiyvb ")
    assert _doc(pad) == "你好"
    pad.shutdown()
    again = ImePadPane()  # told once: the next start finds the fresh database
    qtbot.addWidget(again)
    qtbot.wait(50)
    assert len(error_dialogs) == 1
    assert again.engine.user_db is not None and again.engine.user_db.count("vb", "好") == 1
    again.shutdown()


def test_a_newer_user_database_is_left_alone_and_typing_goes_on_without_learning(
        qtbot, gui_app, gui_data_dir, error_dialogs):
    import sqlite3

    from wubitok.ime import UserFrequencies

    UserFrequencies().close()
    path = gui_data_dir / "ime_user.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    before = path.read_bytes()
    pad = ImePadPane()
    qtbot.addWidget(pad)
    pad.show()
    qtbot.waitUntil(lambda: bool(error_dialogs), timeout=5_000)
    title, message = error_dialogs[0]
    assert title == "File problem" and "version 99" in message
    assert not pad.engine.options.learning and not pad.learning_action.isChecked()
    qtbot.waitUntil(pad.is_ready, timeout=30_000)
    qtbot.keyClicks(pad.editor, "wqiyvb ")
    assert _doc(pad) == "你好"
    assert path.read_bytes() == before
    pad.shutdown()
