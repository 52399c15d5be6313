"""Compare's metrics table: translated headers with tooltips, '—' for a speed too short to measure."""
from __future__ import annotations

from wubitok.gui.panes.compare import ComparePane


def test_a_speed_too_short_to_measure_is_a_dash_not_zero(gui_app, qtbot, catalog, gui_data_dir):
    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
    pane.set_sample_text("床前明月光")
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    assert pane.results
    for row, result in enumerate(pane.results):
        cell = pane.table.cell_text(row, "encode_mb_per_s")
        assert cell != "0.00"
        assert (cell == "—") == (result.encode_mb_per_s < 0.005)
    keys = pane.table.header_keys()
    tips = [pane.table.horizontalHeaderItem(c).toolTip() for c in range(len(keys))]
    assert all(tips), dict(zip(keys, tips))
