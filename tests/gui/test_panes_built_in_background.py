"""Panes built in the background once the window is shown, so a first click only shows one."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, Qt

from wubitok.gui.main_window import MainWindow
from wubitok.gui.panes.base import Pane
from wubitok.services.earlyinit import PANE_KEYS

TEXT = "五笔字型输入法是王永民在1983年发明的。Wubi-BPE learns merges."


def _window(qtbot, *, shown: bool) -> MainWindow:
    window = MainWindow(restore=False)
    qtbot.addWidget(window)
    if shown:
        window.show()
        qtbot.waitExposed(window)
    return window


@pytest.fixture
def settled(gui_app, gui_data_dir, qtbot):
    window = _window(qtbot, shown=True)
    qtbot.waitUntil(window.start_up_finished, timeout=60_000)
    yield window
    window.shutdown()


def test_every_pane_is_built_and_laid_out_hidden_after_start_up(settled):
    window = settled
    assert sorted(window._panes) == sorted(PANE_KEYS) and window.pane_errors == {}
    assert window.current_pane_key() == "lookup" and window.stack.currentWidget() is window.pane("lookup")
    for key in PANE_KEYS:
        pane = window.pane(key)
        assert isinstance(pane, Pane) and window.stack.indexOf(pane) == PANE_KEYS.index(key)
        if key != "lookup":
            # At the size the stack will show it, and not shown (nor started what a first show starts).
            assert not pane.isVisible() and pane.size() == window.stack.size()


def test_a_window_never_shown_builds_nothing_in_the_background(gui_app, gui_data_dir, qtbot):
    window = _window(qtbot, shown=False)
    qtbot.wait(300)
    assert list(window._panes) == ["lookup"] and not window.start_up_finished()


def test_a_pane_asked_for_before_the_background_reaches_it_is_built_at_once_and_kept(gui_app, gui_data_dir, qtbot):
    window = _window(qtbot, shown=True)
    last = PANE_KEYS[-1]
    assert last not in window._panes  # the background builds one pane per turn, from the top
    pane = window.pane(last)
    assert isinstance(pane, Pane)
    qtbot.waitUntil(window.start_up_finished, timeout=60_000)
    assert window.pane(last) is pane and window.stack.indexOf(pane) == PANE_KEYS.index(last)
    window.shutdown()


def _tokenized(qtbot, window: MainWindow) -> tuple[str, list[str]]:
    window.show_pane("tokenize")
    pane = window.pane("tokenize")
    with qtbot.waitSignal(pane.ready, timeout=60_000):
        pane.set_sample_text(TEXT)
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    return pane.count_label.text(), [pane.model_box.itemText(i) for i in range(pane.model_box.count())]


def test_tokenize_prebuilt_or_built_on_demand_shows_the_same(gui_app, gui_data_dir, qtbot, settled):
    prebuilt = _tokenized(qtbot, settled)
    on_demand = _tokenized(qtbot, _window(qtbot, shown=False))
    assert prebuilt == on_demand and int(prebuilt[0]) > 0


def test_type_wubi_loads_its_index_when_first_shown_not_when_prebuilt(settled, qtbot):
    pad = settled.pane("ime")
    assert pad._preload is None  # built, never shown: nothing loading
    settled.show_pane("ime")
    assert not pad.is_ready()  # the loading starts once the pane's first paint is done
    qtbot.waitUntil(lambda: pad._preload is not None, timeout=5_000)
    qtbot.waitUntil(pad.is_ready, timeout=90_000)
    pad.editor.setFocus()
    qtbot.keyClicks(pad.editor, "wqiy")
    if pad.editor.candidate_bar.isVisible():  # more than one entry has wqiy: it waits for space
        qtbot.keyClick(pad.editor, Qt.Key.Key_Space)
    assert pad.editor.toPlainText() == "你"


class _Paints(QObject):
    """Counts the paint events ``widget`` gets."""

    def __init__(self, widget):
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def test_a_hidden_pane_that_shows_a_new_result_is_painted_again_in_the_background(settled, qtbot):
    # So that opening it paints what it has laid out once already (Tokenize: 40-55 ms
    # of the GUI thread for that first show before, 19-25 after).
    pane = settled.pane("tokenize")
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    qtbot.waitUntil(lambda: not settled._steps, timeout=10_000)  # its first result painted in the background
    paints = _Paints(pane.token_table.viewport())
    qtbot.wait(200)
    assert paints.count == 0 and not pane.isVisible()
    with qtbot.waitSignal(pane.ready, timeout=60_000):
        pane.set_sample_text(TEXT + " 新的结果")
    qtbot.waitUntil(lambda: paints.count > 0, timeout=5_000)
    assert not pane.isVisible() and settled.current_pane_key() == "lookup"
    # A shown pane paints itself: nothing is queued for it.
    settled.show_pane("tokenize")
    with qtbot.waitSignal(pane.ready, timeout=60_000):
        pane.set_sample_text(TEXT)
    assert not settled._steps


def test_the_background_builds_a_pane_a_part_per_turn_and_asking_for_it_finishes_it(gui_app, gui_data_dir, qtbot):
    # A whole constructor was one turn of 15-40 ms at start-up.
    window = _window(qtbot, shown=True)
    qtbot.waitUntil(lambda: "compare" in window._panes, timeout=60_000)
    compare = window._panes["compare"]
    assert isinstance(compare, Pane) and not compare.is_built()  # the background is part way through it
    assert window.pane("compare") is compare and compare.is_built()
    assert compare.editor is compare.main_input()  # its last part ran
    qtbot.waitUntil(window.start_up_finished, timeout=60_000)
    assert window.pane_errors == {}
    window.shutdown()


def test_a_pane_whose_building_fails_part_way_shows_the_error_in_its_place(gui_app, gui_data_dir, qtbot, monkeypatch):
    from wubitok.gui.panes.train import TrainPane

    def broken(self, content):
        raise RuntimeError("a bug while building Train")

    monkeypatch.setattr(TrainPane, "_build_run", broken)
    window = _window(qtbot, shown=True)
    qtbot.waitUntil(window.start_up_finished, timeout=60_000)
    assert "a bug while building Train" in window.pane_errors["train"]
    shown = window.pane("train")
    assert not isinstance(shown, Pane) and "could not be loaded" in shown.text()
    assert window.stack.indexOf(shown) == PANE_KEYS.index("train")
    window.show_pane("train")  # and the window goes on working
    assert window.stack.currentWidget() is shown
    window.shutdown()
