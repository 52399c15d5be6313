"""Lookup pane: the user's own phrases show first, tagged as the user's, in English and 简体中文."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from wubitok.gui.panes.lookup import COL_FULL, COL_TEXT, COL_WEIGHT, LookupPane
from wubitok.gui.support import i18n
from wubitok.ime import UserFrequencies


@pytest.fixture
def pane(gui_app, gui_data_dir, qtbot):
    i18n.set_language("en")
    p = LookupPane()
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    yield p
    i18n.set_language("en")


def _search(qtbot, pane, text):
    pane.search_box.setText(text)
    pane.run_search()
    qtbot.waitUntil(pane.is_ready, timeout=5000)
    m = pane.model
    return [(m.index(r, COL_TEXT).data(), m.index(r, COL_FULL).data(), m.index(r, COL_WEIGHT).data())
            for r in range(m.rowCount())]


def test_a_phrase_added_as_the_pad_adds_it_shows_as_the_users(qtbot, pane):
    assert _search(qtbot, pane, "ijjj") == []  # no user database yet: nothing, and no error
    db = UserFrequencies()  # the pad's user database (WUBITOK_DATA_DIR); open, as while the pad runs
    db.add_phrase("ijjj", "小明")
    db.add_phrase("wqiy", "你们好")
    assert _search(qtbot, pane, "ijjj") == [("小明", "ijjj", "user")]
    tip = pane.model.index(0, COL_WEIGHT).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == "Your own phrase, typed by ijjj"
    rows = _search(qtbot, pane, "小明")
    assert rows[0] == ("小明", "ijjj", "user")
    assert [r[0] for r in rows[1:]] == ["小明", "小", "明"]  # the word by the rules, then its characters
    assert rows[1][2] == ""  # the computed phrase code row is not the user's
    rows = _search(qtbot, pane, "wqiy")
    assert rows[0] == ("你们好", "wqiy", "user") and [r[0] for r in rows[1:]] == ["你", "仰泳"]
    assert all(r[2] != "user" for r in rows[1:])
    db.forget("wqiy", "你们好")
    db.close()
    assert "你们好" not in [r[0] for r in _search(qtbot, pane, "wqiy")]


def test_the_user_tag_is_translated(qtbot, pane):
    db = UserFrequencies()
    db.add_phrase("ijjj", "小明")
    db.close()
    i18n.set_language("zh_CN")
    pane.retranslate_ui()
    assert _search(qtbot, pane, "ijjj") == [("小明", "ijjj", "用户词")]
    tip = pane.model.index(0, COL_TEXT + 1).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == "你的自造词，编码 ijjj"


def test_a_damaged_user_database_leaves_the_dictionary_rows(qtbot, pane, gui_data_dir):
    gui_data_dir.mkdir(exist_ok=True)  # the pane may have made it for its settings
    (gui_data_dir / "ime_user.sqlite").write_bytes(b"\x00garbage" * 512)
    assert [r[0] for r in _search(qtbot, pane, "wqiy")] == ["你", "仰泳"]  # GBK: the default charset
    assert (gui_data_dir / "ime_user.sqlite").read_bytes() == b"\x00garbage" * 512


def test_the_detail_of_a_user_phrase_shows_its_own_code(qtbot, pane, wubi_dict):
    db = UserFrequencies()
    db.add_phrase("wqiy", "你们好")
    db.close()
    assert wubi_dict.phrase_code("你们好") == "wwvb"  # the code the rules give: not the one the user chose
    _search(qtbot, pane, "你们好")
    detail = pane.detail.detail()
    assert (detail.text, detail.code) == ("你们好", "wqiy")
    assert pane.detail.code_label.text() == "wqiy"
    assert pane.detail.shared_texts() == [c.text for c in wubi_dict.exact_candidates("wqiy")]
    assert "your phrase's code" in pane.detail.codes_label.text()
    assert "selector" not in pane.detail.codes_label.text()
    pane.table.selectRow(1)  # the word by the Wubi rules: the dictionary's detail
    assert pane.detail.detail().code == "wwvb"
