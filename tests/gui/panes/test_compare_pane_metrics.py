"""Compare's metrics table: translated headers with tooltips, '—' for a speed on too little text,
and a note on every figure that would surprise."""
from __future__ import annotations

from wubitok.gui.panes.compare import ComparePane


def test_a_speed_too_short_to_measure_is_a_dash_not_zero(gui_app, qtbot, catalog, gui_data_dir):
    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
    pane.set_sample_text("床前明月光")
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    assert pane.results
    for row in range(len(pane.results)):
        # Five characters: no speed, and the cell says why.
        assert pane.table.cell_text(row, "encode_mb_per_s") == "—"
        assert "Not measured: the text has 15 bytes" in pane.table.cell_tooltip(row, "encode_mb_per_s")
    keys = pane.table.header_keys()
    tips = [pane.table.horizontalHeaderItem(c).toolTip() for c in range(len(keys))]
    assert all(tips), dict(zip(keys, tips))


def test_wordpiece_round_trip_says_what_it_loses_and_speed_shows_on_enough_text(gui_app, qtbot, catalog,
                                                                                gui_data_dir):
    from wubitok.gui.panes.compare.metrics_table import SPEED_MIN_BYTES
    from wubitok.paths import resources_dir
    from wubitok.services.model_files import bundled_models_dir

    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
    models = sorted(bundled_models_dir().glob("*.json"))
    pane.set_models([next(p for p in models if p.stem.startswith(k)) for k in ("wubi-bpe", "wordpiece")])
    text = "".join((resources_dir() / "samples" / name).read_text(encoding="utf-8")
                   for name in ("tang300.txt", "song100.txt"))
    assert len(text.encode()) >= SPEED_MIN_BYTES
    pane.set_sample_text(text)
    qtbot.waitUntil(lambda: pane.is_ready() and pane.results and pane.results[0].chars == len(text), timeout=60_000)
    wubi, wordpiece = pane.results
    assert wordpiece.roundtrip_samples == 0 and wubi.roundtrip_samples == 1
    note = pane.table.cell_tooltip(1, "roundtrip_rate")
    assert "lossy by design" in note and "line breaks" in note
    assert pane.table.cell_tooltip(0, "roundtrip_rate") == ""  # nothing to explain at 100%
    for row in range(2):
        assert pane.table.cell_text(row, "encode_mb_per_s") != "—"
        assert pane.table.cell_tooltip(row, "encode_mb_per_s") == ""


def test_the_columns_fill_a_wide_table_and_keep_their_contents_in_a_narrow_one(gui_app, qtbot, catalog,
                                                                                  gui_data_dir):
    # At 1920 px the columns once took a third of the table, the rest stood empty.
    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
    pane.resize(1900, 900)
    pane.show()
    pane.set_sample_text("床前明月光")
    qtbot.waitUntil(lambda: pane.is_ready() and bool(pane.results), timeout=60_000)
    table, header = pane.table, pane.table.horizontalHeader()
    widths = lambda: [header.sectionSize(c) for c in range(table.columnCount())]  # noqa: E731
    assert abs(sum(widths()) - table.viewport().width()) <= 1
    assert all(w >= n for w, n in zip(widths(), table.natural_widths()))
    pane.resize(700, 700)
    qtbot.waitUntil(lambda: sum(widths()) > table.viewport().width())  # scrolls, nothing cut
    assert widths() == table.natural_widths()
