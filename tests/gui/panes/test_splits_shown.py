"""Splits (字根拆分) where lookup is: the Lookup detail and the typing pad's learning aid (issue #42)."""
from __future__ import annotations

import pytest

from wubitok.gui.panes.ime_pad import ImePadPane
from wubitok.gui.panes.lookup import LookupPane
from wubitok.wubi.dictionary import default_dictionary
from wubitok.wubi.splits import all_splits, split_of


@pytest.fixture
def lookup(gui_data_dir, show_pane):
    return show_pane(LookupPane(), 1200, 800)


def _select(qtbot, pane, text):
    pane.set_sample_text(text)
    qtbot.waitUntil(pane.is_ready, timeout=10_000)
    qtbot.waitUntil(lambda: pane.detail.detail() is not None and pane.detail.detail().text == text, timeout=10_000)
    return pane.detail


def test_lookup_draws_each_root_on_its_key_and_in_a_row(qtbot, lookup):
    detail = _select(qtbot, lookup, "键")
    assert detail.split_row.tile_texts() == [("钅", "q"), ("彐", "v"), ("二", "f"), ("廴", "p")]
    assert detail.keyboard.code() == "qvfp"
    assert detail.keyboard.roots() == {"Q": "钅", "V": "彐", "F": "二", "P": "廴"}
    assert "钅 q" in detail.split_row.accessibleName()


def test_lookup_says_when_no_split_is_verified(qtbot, lookup):
    d = default_dictionary()
    missing = next(c for c in "我非母兆臣" if c not in all_splits() and d.full_code(c))
    detail = _select(qtbot, lookup, missing)
    assert detail.split_row.tile_texts() == []
    assert detail.split_row.note.isVisible() and missing in detail.split_row.note.text()
    assert detail.keyboard.roots() == {}


@pytest.fixture
def pad(gui_data_dir, show_pane):
    p = show_pane(ImePadPane(), timeout=90_000)
    p.editor.setFocus()
    yield p
    p.shutdown()


def test_the_pad_shows_the_split_of_the_character_looked_up_by_pinyin(qtbot, pad):
    qtbot.keyClicks(pad.editor, "zjian")
    bar = pad.editor.candidate_bar
    qtbot.waitUntil(bar.isVisible, timeout=10_000)
    first = bar.texts()[0]
    split = split_of(first)
    assert split is not None  # the first reading of jian has a verified split
    assert pad.aid.split_row.tile_texts() == [(p.root, p.key) for p in split.parts]
    assert pad.aid.keyboard.code() == split.code
    assert set(pad.aid.keyboard.roots()) <= set(split.code.upper())
