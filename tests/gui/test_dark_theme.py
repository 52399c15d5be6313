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


def test_the_compare_chart_turns_dark_with_the_theme(gui_app, qtbot, catalog, gui_data_dir):
    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane)
    pane.show()
    qtbot.waitUntil(pane.is_ready, timeout=60_000)

    def background() -> int:
        return pane.chart.grab().toImage().pixelColor(2, 2).lightness()

    assert background() > 200
    theme.apply_theme("dark")
    try:
        qtbot.waitUntil(lambda: background() < 100)
    finally:
        theme.apply_theme("light")
    qtbot.waitUntil(lambda: background() > 200)


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


def test_the_style_sheet_is_on_its_widgets_only_and_follows_the_theme(gui_app, gui_data_dir, qtbot):
    # An application style sheet sends every widget of every pane through Qt's slower style sheet style.
    from PySide6.QtWidgets import QApplication

    from wubitok.gui.main_window import MainWindow

    window = MainWindow(restore=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert QApplication.instance().styleSheet() == ""
    pane_list = window.pane_list

    def right_border() -> str:
        return pane_list.grab().toImage().pixelColor(pane_list.width() - 1, pane_list.height() // 2).name()

    assert right_border() == theme.palette(dark=False).color(QPalette.ColorRole.Mid).name()
    theme.apply_theme("dark")
    try:
        assert right_border() == theme.palette(dark=True).color(QPalette.ColorRole.Mid).name()
    finally:
        theme.apply_theme("light")
    assert right_border() == theme.palette(dark=False).color(QPalette.ColorRole.Mid).name()


def test_headings_are_bold_and_their_text_is_not(gui_app, gui_data_dir, qtbot):
    from wubitok.gui.panes.lookup import LookupPane

    pane = LookupPane()
    qtbot.addWidget(pane)
    detail = pane.detail
    assert detail.codes_title.font().bold() and detail.shares_title.font().bold()
    assert not detail.codes_label.font().bold()
