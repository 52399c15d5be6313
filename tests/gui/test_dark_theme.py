"""Dark theme: Compare's charts follow it, unchecked check boxes and radio buttons stay visible."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QCheckBox, QRadioButton, QStyle, QStyleOptionButton

from wubitok.gui.panes.compare import ComparePane
from wubitok.gui.support import theme


@pytest.fixture
def dark(gui_app):
    theme.apply_theme("dark")
    yield
    theme.apply_theme("light")


def _lightness(c: QColor) -> int:
    return c.lightness()


def test_compare_charts_turn_dark_with_the_theme(gui_app, qtbot, catalog, gui_data_dir):
    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane)
    pane.show()
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    light = [c.backgroundBrush().color().lightness() for c in pane.chart.charts()]
    assert all(v > 200 for v in light)
    theme.apply_theme("dark")
    try:
        qtbot.waitUntil(lambda: all(c.backgroundBrush().color().lightness() < 100 for c in pane.chart.charts()))
        # The bars keep the colours that name the tokenizers in the table.
        series = pane.chart.charts()[1].series()[0]
        assert series.barSets()[0].color().name() == "#4e79a7"
    finally:
        theme.apply_theme("light")
    qtbot.waitUntil(lambda: all(c.backgroundBrush().color().lightness() > 200 for c in pane.chart.charts()))


@pytest.mark.parametrize("widget_class", [QCheckBox, QRadioButton])
def test_unchecked_indicators_stand_out_on_a_dark_window(dark, qtbot, widget_class):
    widget = widget_class("x")
    qtbot.addWidget(widget)
    widget.resize(80, 30)
    widget.setChecked(False)
    image: QImage = widget.grab().toImage()
    opt = QStyleOptionButton()
    opt.initFrom(widget)
    element = (QStyle.SubElement.SE_CheckBoxIndicator if widget_class is QCheckBox
               else QStyle.SubElement.SE_RadioButtonIndicator)
    rect = widget.style().subElementRect(element, opt, widget)
    window = widget.palette().color(QPalette.ColorRole.Window).lightness()
    brightest = max(image.pixelColor(x, y).lightness()
                    for x in range(rect.left(), rect.right() + 1) for y in range(rect.top(), rect.bottom() + 1))
    # The outline is at least as bright as mid-grey over the dark window: visible.
    assert brightest - window >= 60
