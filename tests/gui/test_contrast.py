"""Text contrast in both themes, computed from the palette and the chart's colours:
at least 4.5:1 for text (WCAG 2 AA), 3:1 for the borders of controls."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette

from wubitok.gui.panes.compare import ComparePane
from wubitok.gui.panes.compare.chart import chart_colours
from wubitok.gui.support import theme
from wubitok.services.model_files import bundled_models_dir

R = QPalette.ColorRole
TEXT_ON = [(R.Text, R.Base), (R.Text, R.AlternateBase), (R.WindowText, R.Window), (R.ButtonText, R.Button),
           (R.PlaceholderText, R.Base), (R.Link, R.Base), (R.Link, R.Window), (R.HighlightedText, R.Highlight),
           (R.ToolTipText, R.ToolTipBase)]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_palette_text_and_borders_reach_the_minimum_contrast(dark):
    pal = theme.palette(dark)
    for fg, bg in TEXT_ON:
        ratio = theme.contrast_ratio(pal.color(fg), pal.color(bg))
        assert ratio >= 4.5, f"{fg.name} on {bg.name}: {ratio:.2f}"
    for bg in (R.Base, R.Window):
        assert theme.contrast_ratio(theme.border_colour(pal), pal.color(bg)) >= 3.0


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_chart_text_reaches_the_minimum_contrast(dark):
    colours = chart_colours(theme.palette(dark))
    assert theme.contrast_ratio(colours.text, colours.background) >= 4.5
    assert theme.contrast_ratio(colours.muted, colours.background) >= 4.5
    assert theme.contrast_ratio(colours.text, colours.stripe) >= 4.5


@pytest.mark.parametrize("name", ["light", "dark"])
def test_tokenizer_names_in_their_colours_are_readable(gui_app, gui_data_dir, qtbot, catalog, name):
    theme.apply_theme(name)
    try:
        pane = ComparePane(catalog=catalog)
        qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
        pane.show()
        pane.set_models(sorted(bundled_models_dir().glob("*.json"))[:4])
        pane.set_sample_text("床前明月光")
        qtbot.waitUntil(lambda: pane.is_ready() and pane.table.rowCount() == 4, timeout=60_000)
        base = pane.table.palette().color(R.Base)
        for row in range(4):
            colour = pane.table.item(row, 0).foreground().color()
            assert theme.contrast_ratio(colour, base) >= 4.5, (row, colour.name(), base.name())
    finally:
        theme.apply_theme("light")


def test_a_theme_switch_recolours_the_names(gui_app, gui_data_dir, qtbot, catalog):
    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
    pane.show()
    pane.set_sample_text("床前明月光")
    qtbot.waitUntil(lambda: pane.is_ready() and pane.table.rowCount() == 2, timeout=60_000)
    theme.apply_theme("dark")
    try:
        base = theme.palette(True).color(R.Base)
        qtbot.waitUntil(lambda: theme.contrast_ratio(pane.table.item(0, 0).foreground().color(), base) >= 4.5)
    finally:
        theme.apply_theme("light")
