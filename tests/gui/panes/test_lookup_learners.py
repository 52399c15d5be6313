"""Lookup for learners (issue #30): numbers sort largest first, the detail follows the selected row,
the order is a visible column or said in words, one charset setting with the typing pad, and a first
screen of examples to click."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from wubitok.gui.panes.ime_pad import ImePadPane
from wubitok.gui.panes.lookup import COL_RANK, COL_TEXT, COL_WEIGHT, LookupPane
from wubitok.ime import load_options


@pytest.fixture
def pane(gui_data_dir, show_pane):
    return show_pane(LookupPane(), 1200, 800)


def _search(qtbot, pane, text):
    pane.set_sample_text(text)
    qtbot.waitUntil(pane.is_ready, timeout=10_000)
    return [r.text for r in pane.model.rows()]


def _click_header(pane, column):
    header = pane.table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=header.rect().center().__class__(x, 5))


@pytest.mark.parametrize("column", [COL_WEIGHT, COL_RANK])
def test_numeric_columns_sort_largest_first_on_the_first_click(qtbot, pane, column):
    _search(qtbot, pane, "wqiy vbg")  # characters: in the order typed, no column sorted
    _search(qtbot, pane, "你好们中国")
    _click_header(pane, column)
    header = pane.table.horizontalHeader()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (column, Qt.SortOrder.DescendingOrder)
    values = [r.weight if column == COL_WEIGHT else r.rank if r.rank is not None else 99 for r in pane.model.rows()]
    assert values == sorted(values, reverse=True)
    _click_header(pane, COL_TEXT)  # text still starts from A (and 一)
    assert header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder


def test_the_detail_follows_the_selected_row_when_the_table_is_sorted(qtbot, pane):
    _search(qtbot, pane, "不录你好中")
    pane.table.selectRow(2)
    chosen = pane.model.row_at(2).text
    assert pane.detail.detail().text == chosen
    _click_header(pane, COL_WEIGHT)
    current = pane.table.currentIndex().row()
    assert pane.model.row_at(current).text == chosen  # the selection moved with its entry
    selected = [i.row() for i in pane.table.selectionModel().selectedRows()]
    assert selected == [current]
    assert pane.detail.detail().text == chosen
    # And choosing another row after the sort shows that one.
    other = (current + 1) % pane.model.rowCount()
    pane.table.selectRow(other)
    assert pane.detail.detail().text == pane.model.row_at(other).text


def test_the_default_order_is_a_visible_column_or_said_in_words(qtbot, pane):
    header = pane.table.horizontalHeader()
    _search(qtbot, pane, "zz")
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (COL_WEIGHT, Qt.SortOrder.DescendingOrder)
    weights = [r.weight for r in pane.model.rows()]
    assert weights == sorted(weights, reverse=True)
    assert pane.detail.detail().text == pane.model.row_at(0).text
    _search(qtbot, pane, "zhong")
    assert header.sortIndicatorSection() == COL_WEIGHT
    _search(qtbot, pane, "你好")
    assert header.sortIndicatorSection() == -1 and "in the order typed" in pane.count_label.text()
    _search(qtbot, pane, "wq")
    assert header.sortIndicatorSection() == -1 and "entries first" in pane.count_label.text()


def test_one_charset_setting_for_lookup_and_the_pad(qtbot, pane, show_pane):
    assert "國" in _search(qtbot, pane, "guo2")  # GBK, the default, has the traditional form
    pad = show_pane(ImePadPane(), timeout=90_000)
    try:
        pane.charset_box.setCurrentIndex(pane.charset_box.findData("gb2312"))
        qtbot.waitUntil(pane.is_ready, timeout=10_000)
        assert "国" in [r.text for r in pane.model.rows()] and "國" not in [r.text for r in pane.model.rows()]
        assert load_options().charset == "gb2312"  # the typing setting itself
        assert pad.engine.options.charset == "gb2312"
        assert pad.options_menu.option_action("charset", "gb2312").isChecked()
        pad.options_menu.option_action("charset", "all").trigger()  # and back, from the pad's Options menu
        qtbot.waitUntil(pane.is_ready, timeout=10_000)
        assert pane.charset() == "all" and "國" in [r.text for r in pane.model.rows()]
    finally:
        pad.shutdown()


def test_the_first_screen_offers_examples_instead_of_an_empty_table(qtbot, pane):
    assert pane.results_stack.currentWidget() is pane.welcome and not pane.table.isVisible()
    for example in ("wqiy", "你好", "zhong"):
        assert f"href='{example}'" in pane.welcome.text()
    pane.welcome.linkActivated.emit("wqiy")
    qtbot.waitUntil(pane.is_ready, timeout=10_000)
    assert pane.search_box.text() == "wqiy" and pane.table.isVisible()
    assert pane.detail.detail().text == "你"
    _search(qtbot, pane, "")
    assert pane.results_stack.currentWidget() is pane.welcome
