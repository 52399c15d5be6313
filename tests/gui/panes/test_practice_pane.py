"""The Practice pane (跟打): keys through the engine, errors marked, hints with the split, a scored
session kept in the user's database and plotted, weak characters reviewed."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from wubitok.gui.panes.practice import PracticePane
from wubitok.ime import UserFrequencies
from wubitok.ime.practice import keys_for, replay
from wubitok.ime.practice_history import sessions
from wubitok.ime.practice_lessons import LESSONS
from wubitok.wubi.splits import split_of

QT_KEYS = {"space": Qt.Key.Key_Space, "backspace": Qt.Key.Key_Backspace}


@pytest.fixture
def pane(gui_data_dir, show_pane):
    return show_pane(PracticePane(), 1200, 800)


def _type(qtbot, pane, keys):
    for k in keys:
        if k in QT_KEYS:
            qtbot.keyClick(pane.input, QT_KEYS[k])
        else:
            qtbot.keyClicks(pane.input, k)


def test_a_typed_lesson_is_scored_saved_and_plotted(qtbot, pane, gui_data_dir):
    assert pane.chart.speeds() == [] and "No sessions yet" in pane.chart.accessibleName()
    assert pane.chart.grab().toImage() != _blank_chart(pane.chart)  # the empty chart says why it is empty
    pane.set_sample_text("你好")
    pane.input.setFocus()
    keys = keys_for("你好")
    _type(qtbot, pane, keys)
    run = pane.run()
    assert run.typed == "你好" and run.done
    expected = replay("你好", [(e.t, e.key) for e in run.events]).score()
    assert run.score() == expected
    assert "码长" in pane.result_label.text() and f"{expected.keys_per_char:.2f}" in pane.result_label.text()
    db = UserFrequencies()
    kept = sessions(db)
    db.close()
    assert [r.score for r in kept] == [expected]
    assert pane.chart.speeds() == [expected.speed]
    assert pane.chart.accessibleName().startswith("1 session; the last")


def _blank_chart(chart):
    """The chart as it paints with nothing to say: its frame and axis labels only."""
    said, chart.empty_text = chart.empty_text, ""
    try:
        return chart.grab().toImage()
    finally:
        chart.empty_text = said


def test_a_wrong_character_is_marked_at_once(qtbot, pane):
    pane.set_sample_text("你好")
    _type(qtbot, pane, ["k", "h", "k", "space"])  # 中: not 你
    assert pane.run().errors() == [0]
    assert "<u" in pane.lesson_view.text()
    _type(qtbot, pane, ["backspace"])
    assert pane.run().typed == "" and "<u" not in pane.lesson_view.text()


def test_f1_shows_the_next_characters_code_and_split(qtbot, pane):
    pane.set_sample_text("键")
    qtbot.keyClick(pane.input, Qt.Key.Key_F1)
    assert pane.hint_label.text() == "键 qvfp"
    assert pane.split_row.tile_texts() == [(p.root, p.key) for p in split_of("键").parts]
    assert pane.run().score().missed == (("键", 1),)
    qtbot.keyClick(pane.input, Qt.Key.Key_F1)  # asked again for the same place: counted once
    assert pane.run().score().missed == (("键", 1),)


def test_characters_missed_come_back_in_the_next_lesson(qtbot, pane):
    pane.set_sample_text("你")
    qtbot.keyClick(pane.input, Qt.Key.Key_F1)
    _type(qtbot, pane, keys_for("你"))
    assert pane.run().done
    pane.lesson_box.setCurrentIndex(pane.lesson_box.findData("short1"))
    assert "你" in pane.run().text  # 一级简码 has no 你: it is the review


def test_every_lesson_and_control_has_a_name(pane):
    assert pane.lesson_box.count() == len(LESSONS) + 1
    for i in range(pane.lesson_box.count()):
        assert pane.lesson_box.itemText(i)
    for w in (pane.lesson_box, pane.custom_text, pane.hint_button, pane.input, pane.chart):
        assert w.accessibleName() or w.text()


def test_an_unusable_data_folder_leaves_practice_working_without_history(qtbot, gui_data_dir, show_pane,
                                                                         monkeypatch, tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the data folder should be", encoding="utf-8")
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(blocked))
    pane = show_pane(PracticePane(), 1200, 800)
    pane.set_sample_text("你")
    assert pane.chart.speeds() == [] and pane.run() is not None
    assert pane.run().next_char == "你"
