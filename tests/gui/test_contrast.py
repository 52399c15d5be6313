"""Text contrast in both themes, computed from the palette and the chart's colours:
at least 4.5:1 for text (WCAG 2 AA), 3:1 for the borders of controls."""
from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor, QPalette

from wubitok.gui.panes.compare import ComparePane
from wubitok.gui.panes.compare.chart import chart_colours
from wubitok.gui.panes.ime_pad import ImePadPane
from wubitok.gui.panes.lookup import LookupPane
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


def _inline_colours(rich_text: str) -> list[QColor]:
    return [QColor(c) for c in re.findall(r"color:\s*([#\w]+)", rich_text)]


@pytest.mark.parametrize("name", ["light", "dark"])
def test_secondary_text_in_rich_labels_is_readable(gui_app, gui_data_dir, show_pane, qtbot, name):
    # Candidate numbers and hints in the pad, entry numbers under Lookup's "Also typed by":
    # CSS gray was 3.9:1 on the light theme's white.
    theme.apply_theme(name)
    try:
        pad = show_pane(ImePadPane(), timeout=90_000)
        pad.editor.setFocus()
        qtbot.keyClicks(pad.editor, "zni")
        bar = pad.editor.candidate_bar
        qtbot.waitUntil(bar.isVisible)
        lookup = show_pane(LookupPane())
        qtbot.keyClicks(lookup.search_box, "aaaa")
        qtbot.waitUntil(lambda: lookup.is_ready() and bool(lookup.detail.shared_texts()), timeout=5000)
        for label, background in ((bar.label, bar.palette().color(R.AlternateBase)),
                                  (lookup.detail.shares_label, lookup.detail.palette().color(R.Window))):
            colours = _inline_colours(label.text())
            assert colours, label.text()
            for colour in colours:
                assert theme.contrast_ratio(colour, background) >= 4.5, (colour.name(), background.name())
        pad.shutdown()
    finally:
        theme.apply_theme("light")
