"""Compare's language-model test (corpus mode): the library's numbers, a chart with one bar per tokenizer,
a progress bar, a Cancel that ends the worker process."""
from __future__ import annotations

import multiprocessing

import pytest

from wubitok.gui.panes.compare import ComparePane
from wubitok.lm.experiment import LmConfig
from wubitok.paths import resources_dir
from wubitok.services.lm_eval import LmEvalRequest, run_lm_eval
from wubitok.services.model_files import bundled_models_dir

POEMS = resources_dir() / "samples" / "tang300.txt"
MODELS = [bundled_models_dir() / "wubi-bpe-6000.json", bundled_models_dir() / "bpe-6000.json"]
TINY = LmConfig(n_layer=1, n_head=2, d_model=16, context_chars=16, batch=4, steps=8)


@pytest.fixture(autouse=True)
def app(gui_app):
    return gui_app


@pytest.fixture
def pane(catalog, show_pane):
    pane = show_pane(ComparePane(catalog=catalog), 1100, 900, timeout=120_000)
    pane.set_models(MODELS)
    pane.corpus_mode.setChecked(True)
    pane.add_files([POEMS])
    panel = pane.lm_panel
    panel.quick_box.setChecked(False)
    panel.seeds_box.setValue(2)
    panel.config = TINY
    return pane


def test_the_run_shows_the_library_numbers_as_bars_with_intervals(qtbot, pane):
    panel = pane.lm_panel
    seen = []
    job = panel.run()
    job.progress.connect(seen.append)
    with qtbot.waitSignal(job.ended, timeout=300_000):
        pass
    qtbot.waitUntil(lambda: panel.run_button.isEnabled() and not panel.is_busy(), timeout=10_000)
    expected = run_lm_eval(LmEvalRequest([str(p) for p in MODELS], [str(POEMS)],
                                         config=LmConfig(**{**TINY.__dict__, "seeds": (0, 1)})))
    rows = panel.chart.rows()
    assert [name for name, _, _ in rows] == ["wubi-bpe-6000", "bpe-6000"]
    assert [(m, h) for _, m, h in rows] == [(s.bits_per_char.mean, s.bits_per_char.half_width)
                                            for s in expected.scores]
    assert panel.progress_bar.value() == panel.progress_bar.maximum() and seen
    assert "wubi-bpe-6000" in panel.chart.accessibleDescription()


def test_cancel_ends_the_worker_process(qtbot, pane):
    panel = pane.lm_panel
    panel.config = LmConfig(**{**TINY.__dict__, "steps": 100_000})
    job = panel.run()
    qtbot.waitUntil(lambda: "training" in panel.progress_label.text(), timeout=120_000)
    with qtbot.waitSignal(job.cancelled, timeout=60_000):
        panel.cancel_button.click()
    qtbot.waitUntil(lambda: not panel.is_busy() and panel.run_button.isEnabled(), timeout=10_000)
    assert panel.progress_label.text() == "Cancelled"
    assert panel.chart.rows() == []
    assert not [p for p in multiprocessing.active_children() if p.name == "lm-eval"]


def test_every_control_has_an_accessible_name(pane):
    panel = pane.lm_panel
    for w in (panel.quick_box, panel.seeds_box, panel.run_button, panel.cancel_button, panel.progress_bar,
              panel.chart):
        assert w.accessibleName() or w.text()
