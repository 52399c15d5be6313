"""The typing pad: keys typed into the editor go through the Wubi engine."""
from __future__ import annotations

import dataclasses
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from typing_cases import CASES, engine_result

from wubitok.gui.panes.ime_pad import ImePadPane
from wubitok.ime import ImeEngine, ImeOptions, load_options, parse_keys, save_options


@pytest.fixture
def pad(gui_data_dir, show_pane):
    p = show_pane(ImePadPane(), timeout=90_000)  # the index and pinyin readings: seconds on a busy machine
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
        name = key.split("+", 1)[1]
        qtbot.keyClick(editor, Qt.Key.Key_Delete if name == "Delete" else name, Qt.KeyboardModifier.ControlModifier)
    elif key in _QT_KEYS:
        qtbot.keyClick(editor, _QT_KEYS[key])
    else:
        qtbot.keyClicks(editor, key)


def choose_option(pad, name, value):
    """Choose a setting in the pad's Options menu, as the typist does."""
    action = pad.options_menu.option_action(name, value)
    if isinstance(value, bool):
        action.setChecked(value)
    else:
        action.trigger()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_typing_case(qtbot, pad, case):
    """The typing cases the IBus engine passes too (tests/typing_cases.py)."""
    text, state = engine_result(case.keys, case.settings)
    for name, value in case.settings:
        choose_option(pad, name, value)
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
    assert pad.aid.last_label.text() == "好"
    assert pad.aid.last_code.text() == "vb"
    assert pad.aid.keyboard.code() == "vb"


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


def test_options_are_saved_in_the_one_settings_store(qtbot, gui_app, gui_data_dir):
    first = ImePadPane()
    qtbot.addWidget(first)
    first.options_menu.learning_action.setChecked(False)
    choose_option(first, "charset", "gb2312")
    choose_option(first, "output", "tw")
    choose_option(first, "page_size", 7)
    choose_option(first, "empty_code", "beep")
    choose_option(first, "top_commit", False)
    saved = load_options()  # what `wubitok type` and the IBus engine read
    assert (saved.learning, saved.charset, saved.output, saved.page_size, saved.empty_code, saved.top_commit) == \
        (False, "gb2312", "tw", 7, "beep", False)
    first.shutdown()
    save_options(dataclasses.replace(load_options(), auto_commit=False))  # as the IBus engine's panel does
    second = ImePadPane()
    qtbot.addWidget(second)
    o = second.engine.options
    assert (o.learning, o.charset, o.output, o.page_size, o.auto_commit) == (False, "gb2312", "tw", 7, False)
    menu = second.options_menu
    assert menu.option_action("page_size", 7).isChecked() and not menu.option_action("page_size", 5).isChecked()
    assert not menu.auto_action.isChecked() and menu.option_action("output", "tw").isChecked()
    choose_option(second, "simplified_first", False)
    assert load_options().auto_commit is False  # a change saves that setting only
    second.shutdown()


def test_the_pads_old_settings_are_taken_over_once(qtbot, gui_app, gui_data_dir):
    from wubitok.gui.support.settings import Settings

    old = Settings("ime")
    old.set("learning", False)
    old.set("charset", "gb2312")
    pad = ImePadPane()
    qtbot.addWidget(pad)
    assert not pad.engine.options.learning and pad.engine.options.charset == "gb2312"
    pad.shutdown()


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
    assert pad.engine.options.learning and pad.options_menu.learning_action.isChecked()  # learning goes on, afresh
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
    assert not pad.engine.options.learning and not pad.options_menu.learning_action.isChecked()
    qtbot.waitUntil(pad.is_ready, timeout=30_000)
    qtbot.keyClicks(pad.editor, "wqiyvb ")
    assert _doc(pad) == "你好"
    assert path.read_bytes() == before
    pad.shutdown()


def test_no_placeholder_under_the_first_preedit(qtbot, pad):
    placeholder = pad.editor.placeholderText()
    assert "wqiy" in placeholder
    qtbot.keyClicks(pad.editor, "wq")
    assert _preedit(pad) == "wq" and pad.editor.placeholderText() == ""
    qtbot.keyClick(pad.editor, Qt.Key.Key_Escape)
    assert pad.editor.placeholderText() == placeholder  # the empty document shows it again
    qtbot.keyClicks(pad.editor, "wq")
    pad.retranslate_ui()  # a language switch while composing does not bring it back
    assert pad.editor.placeholderText() == ""


def _learn_second(qtbot, pad, code):
    qtbot.keyClicks(pad.editor, code + "2")
    qtbot.keyClicks(pad.editor, code)
    return pad.editor.candidate_bar.texts()


def test_ctrl_delete_forgets_the_first_candidate(qtbot, pad, wubi_dict):
    table = [e.text for e in wubi_dict.exact_candidates("khlg")]
    assert _learn_second(qtbot, pad, "khlg")[0] == table[1]  # learned: first now
    qtbot.keyClick(pad.editor, Qt.Key.Key_Delete, Qt.KeyboardModifier.ControlModifier)
    assert pad.editor.candidate_bar.texts()[:2] == table[:2] and _preedit(pad) == "khlg"
    assert pad.engine.user_db.count("khlg", table[1]) == 0
    assert _doc(pad) == table[1]  # the document is untouched


def test_candidate_menu_forgets_and_pins(qtbot, pad, wubi_dict):
    table = [e.text for e in wubi_dict.exact_candidates("khlg")]
    _learn_second(qtbot, pad, "khlg")
    menu = pad.candidate_menu(0)
    forget, pin = menu.actions()
    assert forget.text() == "Forget this choice" and forget.isEnabled() and pin.menu().isEnabled()
    forget.trigger()
    assert pad.editor.candidate_bar.texts()[:2] == table[:2]
    pad.candidate_menu(2).actions()[1].menu().actions()[0].trigger()  # the third to position 1
    assert pad.editor.candidate_bar.texts()[0] == table[2]
    qtbot.keyClick(pad.editor, Qt.Key.Key_Escape)
    qtbot.keyClicks(pad.editor, "khlg")
    assert pad.editor.candidate_bar.texts()[0] == table[2]  # kept: a pin is saved
    qtbot.keyClicks(pad.editor, "zni")
    assert not pad.candidate_menu(0).actions()[0].isEnabled()  # a pinyin hit is nothing learned


def test_a_right_click_on_a_candidate_opens_its_menu(qtbot, pad):
    from PySide6.QtGui import QContextMenuEvent

    qtbot.keyClicks(pad.editor, "khlg")
    bar = pad.editor.candidate_bar
    asked = []
    bar.menu_requested.connect(lambda i, _pos: asked.append(i))
    bar.label.linkHovered.emit("1")  # the mouse over the second candidate
    QGuiApplication.sendEvent(bar, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, bar.rect().center(),
                                                         bar.mapToGlobal(bar.rect().center())))
    assert asked == [1]


def test_add_phrase_from_a_selection_with_the_standard_code(qtbot, pad, wubi_dict):
    qtbot.keyClicks(pad.editor, "wqiy ")
    qtbot.keyClicks(pad.editor, "tgmy")  # 你 + an auto-committed character
    text = _doc(pad)
    pad.editor.selectAll()
    dialog = pad.open_phrase_dialog(pad.editor.textCursor().selectedText())
    assert dialog.phrase_edit.text() == text
    code = wubi_dict.phrase_code(text)
    assert dialog.standard_code == code and code in dialog.code_edit.placeholderText()
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    assert not dialog.isVisible()
    assert text in pad.status_label.text() and code in pad.status_label.text()
    pad.editor.moveCursor(pad.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(pad.editor, code)
    bar = pad.editor.candidate_bar.texts()
    assert text in bar
    menu = pad.candidate_menu(bar.index(text))
    assert menu.actions()[0].text() == f"Forget my phrase “{text}”"
    menu.actions()[0].trigger()
    assert text not in pad.editor.candidate_bar.texts()


def test_add_phrase_with_an_explicit_code_and_bad_input_as_dialogs(qtbot, pad, error_dialogs):
    dialog = pad.open_phrase_dialog("你好")
    dialog.code_edit.setText("vvvv")
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    assert pad.engine.user_db.phrase_texts("vvvv") == ["你好"]
    for phrase, code, message in [("hello", "", "Chinese characters only"), ("", "", "empty phrase"),
                                  ("你好", "v1", "not a Wubi code")]:
        dialog = pad.open_phrase_dialog(phrase)
        dialog.code_edit.setText(code)
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
        assert message in error_dialogs[-1][1]
        assert dialog.isVisible()  # stays open, with what was typed, to be corrected
        dialog.reject()
    assert len(error_dialogs) == 3
    assert pad.engine.user_db.phrases() == [("vvvv", "你好", "manual")]  # nothing half-written


def test_the_editor_context_menu_offers_the_selection_as_a_phrase(qtbot, pad):
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication

    qtbot.keyClicks(pad.editor, "wqiyvb ")
    pad.editor.selectAll()
    asked = []
    pad.editor.add_phrase_requested.connect(asked.append)
    at = pad.editor.rect().center()
    QApplication.sendEvent(pad.editor.viewport(), QContextMenuEvent(
        QContextMenuEvent.Reason.Keyboard, at, pad.editor.mapToGlobal(at)))
    menu = QApplication.activePopupWidget()
    assert menu is not None
    action = next(a for a in menu.actions() if a.text() == "Add “你好” as a phrase…")
    action.trigger()
    menu.close()
    assert asked == ["你好"]


def test_an_empty_code_beeps_under_the_beep_rule(qtbot, pad):
    beeps = []
    pad.editor.alerted.connect(lambda: beeps.append(_preedit(pad)))
    qtbot.keyClicks(pad.editor, "wqiu ")
    assert beeps == [] and _preedit(pad) == ""  # the default rule clears the code, silently
    choose_option(pad, "empty_code", "beep")
    qtbot.keyClicks(pad.editor, "wqiu ")
    assert beeps == ["wqiu"] and _preedit(pad) == "wqiu" and _doc(pad) == ""


def test_a_choice_whose_part_is_missing_is_greyed_and_a_stored_one_falls_back(qtbot, gui_app, gui_data_dir,
                                                                              monkeypatch):
    import wubitok.ime.engine
    from wubitok.gui.support.errors import reporter

    monkeypatch.setitem(sys.modules, "opencc", None)  # this process without OpenCC
    monkeypatch.setattr(wubitok.ime.engine, "_SAID", set())
    told = []
    reporter().shown.connect(lambda title, message: told.append((title, message)))
    save_options(ImeOptions(output="traditional"))  # chosen where OpenCC was installed
    pad = ImePadPane()
    qtbot.addWidget(pad)
    for value in ("simplified", "traditional", "tw", "hk"):
        action = pad.options_menu.option_action("output", value)
        assert not action.isEnabled() and "needs OpenCC" in action.text()
        assert action.toolTip() == "Needs OpenCC: pip install opencc"
    assert pad.options_menu.option_action("output", "unchanged").isChecked()
    qtbot.waitUntil(lambda: bool(told))
    assert told == [("A setting is not available", "output traditional needs OpenCC: pip install opencc;"
                                                   " typing with output unchanged meanwhile")]
    for key in "wqiyvb ":
        pad.editor.feed_key("space" if key == " " else key)
    assert pad.editor.toPlainText() == "你好"
    reporter().last_dialog.close()


def test_the_keyboard_follows_the_code_being_typed_and_the_last_entry_keeps_its_selector(qtbot, pad, wubi_dict):
    qtbot.keyClicks(pad.editor, "wqiyvb ")  # the last entry: 好 (vb)
    assert pad.aid.keyboard.code() == "vb"
    # A pinyin lookup: the keys shown are the first candidate's (你 wqiy), not the last entry's.
    qtbot.keyClicks(pad.editor, "zni")
    first = next(c for c in pad.engine.state.candidates)
    assert first.text == "你" and pad.aid.keyboard.code() == "wqiy"
    qtbot.keyClick(pad.editor, Qt.Key.Key_Escape)
    assert pad.aid.keyboard.code() == "vb"
    # The 2nd entry of ggtt: the last entry line gives the keys that type it again, selector included.
    qtbot.keyClicks(pad.editor, "ggtt2")
    second = wubi_dict.exact_candidates("ggtt")[1].text
    assert second == "来来往往" and _doc(pad).endswith(second)
    assert pad.aid.last_label.text() == second and pad.aid.last_code.text() == "ggtt2"


def test_the_chinese_mode_button_reads_once_in_chinese(gui_app):
    from PySide6.QtCore import QCoreApplication, QTranslator

    from wubitok.gui.support.i18n import translations_dir

    tr = QTranslator()
    assert tr.load(str(translations_dir() / "wubitok_zh_CN.qm"))
    QCoreApplication.installTranslator(tr)
    try:
        assert QCoreApplication.translate("ImePadPane", "中 Chinese") == "中文"  # not "中 中文"
        assert QCoreApplication.translate("ImePadPane", "A English") == "英文"
    finally:
        QCoreApplication.removeTranslator(tr)
