"""Edit menu (undo, redo, cut, copy, paste, select all, find), Preferences and the token table's export."""
from __future__ import annotations

import csv
import json

import pytest
from PySide6.QtWidgets import QApplication

from wubitok.ime.options import load_options


@pytest.fixture
def window(open_window):
    return open_window()


@pytest.fixture
def tokenize(window, pane_ready):
    """``tokenize(text)``: the Tokenize pane with ``text`` tokenized."""
    return lambda text: pane_ready(window, "tokenize", text)


def choose(edit, name: str) -> None:
    """Choose an Edit menu item as the mouse does: the menu is shown (its items updated) first."""
    edit.menu.aboutToShow.emit()
    edit.actions[name].trigger()


def test_edit_actions_work_on_the_focused_text_box(window, qtbot, tokenize):
    pane = tokenize("")
    editor = pane.editor
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    editor.textCursor().insertText("明月几时有")  # as typed: one undo step
    edit = window.edit_menu
    edit.update()
    assert edit.actions["undo"].isEnabled() and not edit.actions["copy"].isEnabled()
    choose(edit, "selectAll")
    edit.update()
    assert edit.actions["copy"].isEnabled() and edit.actions["cut"].isEnabled()
    choose(edit, "cut")
    assert editor.toPlainText() == "" and QApplication.clipboard().text() == "明月几时有"
    choose(edit, "paste")
    choose(edit, "paste")
    assert editor.toPlainText() == "明月几时有明月几时有"
    choose(edit, "undo")
    assert editor.toPlainText() == "明月几时有"
    choose(edit, "redo")
    assert editor.toPlainText() == "明月几时有明月几时有"
    # Read-only: nothing to cut or paste.
    pane.id_view.setFocus()
    qtbot.waitUntil(pane.id_view.hasFocus)
    edit.update()
    assert not edit.actions["paste"].isEnabled() and not edit.actions["undo"].isEnabled()


def test_find_selects_each_match_in_turn_and_goes_round(window, qtbot, tokenize):
    pane = tokenize("天上 人间 天上 人间")
    pane.editor.setFocus()
    qtbot.waitUntil(pane.editor.hasFocus)
    dialog = window.find()
    qtbot.addWidget(dialog)
    dialog.field.setText("人间")
    found = []
    for _ in range(3):
        assert dialog.find()
        found.append(pane.editor.textCursor().selectionStart())
    assert found == [3, 9, 3]
    dialog.field.setText("明月")
    assert not dialog.find() and dialog.status.text()


def test_find_in_lookup_is_its_search_box(window, qtbot):
    window.show_pane("lookup")
    pane = window.pane("lookup")
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    pane.table.setFocus()
    assert window.find() is None
    assert pane.search_box.hasFocus()


def test_preferences_gather_theme_language_and_typing(window, qtbot):
    dialog = window.preferences()
    qtbot.addWidget(dialog)
    dialog.theme_box.setCurrentIndex(dialog.theme_box.findData("dark"))
    assert window._theme_actions.checkedAction().data() == "dark"
    dialog.language_box.setCurrentIndex(dialog.language_box.findData("zh_CN"))
    qtbot.waitUntil(lambda: window.file_menu.title() == "文件(&F)" and dialog.windowTitle() != "Preferences")
    dialog.language_box.setCurrentIndex(dialog.language_box.findData("en"))
    qtbot.waitUntil(lambda: dialog.windowTitle() == "Preferences")
    dialog.theme_box.setCurrentIndex(dialog.theme_box.findData("light"))
    dialog.page_spin.setValue(7)
    dialog.switches["learning"].setChecked(False)
    dialog.boxes["charset"].setCurrentIndex(dialog.boxes["charset"].findData("gb2312"))
    saved = load_options()
    assert (saved.page_size, saved.learning, saved.charset) == (7, False, "gb2312")
    # The pad follows, and its Options menu shows it.
    window.show_pane("ime")
    pad = window.pane("ime")
    qtbot.waitUntil(pad.is_ready, timeout=90_000)
    assert pad.engine.options.page_size == 7 and pad.options_menu.option_action("charset", "gb2312").isChecked()
    # A change in the pad shows in the dialog.
    pad.options_menu.option_action("charset", "gbk").trigger()
    assert dialog.boxes["charset"].currentData() == "gbk"


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_token_table_exports_every_row_and_column(window, qtbot, tmp_path, fmt, tokenize):
    text = "明月几时有，把酒问青天。Wubi"
    pane = tokenize(text)
    path = tmp_path / f"tokens.{fmt}"
    job = pane.export_table(path)
    qtbot.waitUntil(lambda: not job.is_running(), timeout=30_000)
    qtbot.waitUntil(lambda: path.exists())
    content = path.read_text(encoding="utf-8")
    rows = json.loads(content) if fmt == "json" else list(csv.DictReader(content.splitlines()))
    model = pane.token_table.token_model
    assert len(rows) == model.rowCount() == pane.token_count() > 0
    assert [int(r["id"]) for r in rows] == pane.token_ids()
    for i, r in enumerate(rows):
        start, end = int(r["start"]), int(r["end"])
        assert (r["token"], r["wubi"], str(r["bytes"])) == (model.cell(i, "token"), model.cell(i, "wubi"),
                                                            model.cell(i, "bytes"))
        assert model.cell(i, "offsets") == f"{start}–{end}"
    assert "".join(text[int(r["start"]):int(r["end"])] for r in rows if int(r["start"]) >= 0).startswith("明")
