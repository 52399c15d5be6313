"""Lookup pane: typing a search gives rows; the detail panel shows codes, keys and shared codes."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from wubitok.gui.panes.lookup import COL_WEIGHT, LookupPane, compact_number
from wubitok.wubi.query import search


@pytest.fixture
def pane(gui_app, gui_data_dir, qtbot):
    p = LookupPane()
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    return p


def _type(qtbot, pane, text):
    pane.search_box.clear()
    if text.isascii():
        qtbot.keyClicks(pane.search_box, text)
    else:
        # QTest can only press keys of a Latin keyboard; Chinese arrives as
        # committed text from an input method, which insert() stands for.
        pane.search_box.insert(text)
    qtbot.waitUntil(pane.is_ready, timeout=5000)


def _texts(pane):
    return [r.text for r in pane.model.rows()]


def test_typing_characters_gives_a_row_each_and_the_word(qtbot, pane):
    _type(qtbot, pane, "你好")
    assert _texts(pane) == ["你好", "你", "好"]
    assert "characters" in pane.understood.text()
    assert pane.model.rowCount() == 3
    assert pane.model.index(1, 1).data() == "wqiy"


def test_only_the_latest_search_is_shown(qtbot, pane):
    # Searches run in the background; an older one finishing late must not win.
    pane.search_box.setText("a")
    pane.run_search()
    pane.search_box.setText("wqiy")
    pane.run_search()
    qtbot.waitUntil(pane.is_ready, timeout=5000)
    assert _texts(pane)[0] == "你"
    assert pane.result().query.term == "wqiy"


def test_typing_is_debounced_into_one_search(qtbot, pane):
    qtbot.keyClicks(pane.search_box, "wqiy")
    assert not pane.is_ready()  # the timer is waiting for the typing to pause
    qtbot.waitUntil(pane.is_ready, timeout=5000)
    assert _texts(pane)[0] == "你"


def test_code_prefix_and_pinyin(qtbot, pane, wubi_dict):
    assert pane.charset() == "gbk"  # the typing setting's default: 𠉎 (CJK Ext B) is left out
    _type(qtbot, pane, "wqiy")
    assert _texts(pane) == [c.text for c in wubi_dict.exact_candidates("wqiy", charset="gbk")] == ["你", "仰泳"]
    assert "code" in pane.understood.text()
    _type(qtbot, pane, "wq")
    assert _texts(pane) == [r.text for r in search("wq", charset="gbk").rows]
    assert len(_texts(pane)) > 20
    _type(qtbot, pane, "ni3")
    assert "pinyin" in pane.understood.text()
    assert _texts(pane)[0] == "你"
    assert all(any(p.startswith("nǐ") for p in r.pinyin) for r in pane.model.rows())


def test_forcing_pinyin_for_an_ambiguous_text(qtbot, pane):
    _type(qtbot, pane, "ni")
    assert "code" in pane.understood.text()
    pane.mode_box.setCurrentIndex(pane.mode_box.findData("pinyin"))
    qtbot.waitUntil(pane.is_ready, timeout=5000)
    assert "pinyin" in pane.understood.text()
    assert "你" in _texts(pane)


def test_nonsense_says_why_and_shows_nothing(qtbot, pane):
    _type(qtbot, pane, "hello")
    assert pane.model.rowCount() == 0
    assert "Neither" in pane.understood.text()
    assert not pane.detail.body.isVisibleTo(pane)


def test_detail_shows_keys_in_order_and_the_characters_sharing_the_code(qtbot, pane, wubi_dict):
    _type(qtbot, pane, "aaaa")
    assert _texts(pane)[0] == "工"
    detail = pane.detail
    assert detail.glyph.text() == "工"
    assert detail.code_label.text() == "aaaa"
    assert detail.keyboard.positions() == {"A": [1, 2, 3, 4]}
    expected = [c.text for c in wubi_dict.exact_candidates("aaaa") if c.text != "工"]
    assert detail.shared_texts() == expected
    assert "㠭" in detail.shares_label.text()
    # The selector numbers are the ranks + 1, in order.
    assert [c.rank + 1 for c in detail.detail().shares] == list(range(2, 2 + len(expected)))


def test_selecting_another_row_updates_the_detail(qtbot, pane):
    _type(qtbot, pane, "你好")
    pane.table.selectRow(2)
    assert pane.detail.glyph.text() == "好"
    assert pane.detail.keyboard.code() == "vbg"
    assert pane.detail.keyboard.positions() == {"V": [1], "B": [2], "G": [3]}


def test_clicking_a_shared_entry_searches_it(qtbot, pane):
    _type(qtbot, pane, "aaaa")
    first_shared = pane.detail.shared_texts()[0]
    pane.detail.shares_label.linkActivated.emit("0")
    qtbot.waitUntil(pane.is_ready, timeout=5000)
    assert pane.search_box.text() == first_shared
    assert first_shared in _texts(pane)
    assert pane.detail.detail().text == _texts(pane)[0]


def test_copy_buttons(qtbot, pane):
    _type(qtbot, pane, "好")
    qtbot.mouseClick(pane.detail.copy_text, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "好"
    qtbot.mouseClick(pane.detail.copy_code, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "vbg"


def test_sorting_by_frequency(qtbot, pane):
    _type(qtbot, pane, "wq")
    pane.table.sortByColumn(COL_WEIGHT, Qt.SortOrder.DescendingOrder)
    weights = [r.weight for r in pane.model.rows()]
    assert weights == sorted(weights, reverse=True)


def test_mode_is_remembered(qtbot, gui_app, gui_data_dir):
    first = LookupPane()
    qtbot.addWidget(first)
    first.mode_box.setCurrentIndex(first.mode_box.findData("code"))
    first.save_state()
    second = LookupPane()
    qtbot.addWidget(second)
    assert second.mode_box.currentData() == "code"


def test_compact_numbers():
    assert compact_number(999) == "999"
    assert compact_number(1_490_000_000) == "1.49B"
    assert compact_number(70_500_000) == "70.5M"
    # Whole numbers keep their zeros: 100M was shown as 1M, 24,000,000 in Chinese as 24万.
    assert compact_number(100_000_000) == "100M"
    assert compact_number(2_000_000) == "2M"
    assert compact_number(120_000) == "120k"


def test_a_code_that_is_also_a_syllable_offers_the_pinyin_reading(qtbot, pane):
    _type(qtbot, pane, "ni")
    assert pane.result().query.kind == "code"
    assert "href='pinyin'" in pane.understood.text()
    pane.understood.linkActivated.emit("pinyin")  # what a click on the link sends
    qtbot.waitUntil(lambda: pane.is_ready() and pane.result().query.kind == "pinyin", timeout=5000)
    assert {"你", "尼", "泥"} <= set(_texts(pane))
    assert "href" not in pane.understood.text()  # chosen, not guessed: no second offer
    _type(qtbot, pane, "wqiy")  # a code that is no syllable, back in auto mode
    pane.search_as("auto")
    qtbot.waitUntil(pane.is_ready, timeout=5000)
    assert "href" not in pane.understood.text()


def test_compact_numbers_in_chinese_keep_their_zeros():
    from PySide6.QtCore import QLocale

    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China))
    try:
        assert compact_number(24_000_000) == "2400万"
        assert compact_number(6_600_000) == "660万"
        assert compact_number(1_490_000_000) == "14.9亿"
    finally:
        QLocale.setDefault(before)


def test_a_pasted_page_is_searched_up_to_the_boxs_limit(qtbot, pane):
    from wubitok.gui.panes.lookup import SEARCH_MAX_CHARS
    from wubitok.paths import resources_dir

    page = (resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8")[:50_000]
    QGuiApplication.clipboard().setText(page)
    pane.search_box.setFocus()
    pane.search_box.paste()
    qtbot.waitUntil(pane.is_ready, timeout=5000)
    assert pane.search_box.text() == page[:SEARCH_MAX_CHARS]
    assert pane.model.rowCount() == 200  # what a search shows at most (query.ROW_LIMIT), from the kept text
