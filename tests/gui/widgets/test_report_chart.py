"""The comparison chart: bars in proportion, one row per tokenizer, Han names drawn with a Han font."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QFont, QFontDatabase, QImage, QRawFont

from wubitok.compare import CompareResult
from wubitok.compare.plot import chart_data
from wubitok.gui.support import fonts
from wubitok.gui.widgets.report_chart import PALETTE, ROW_HEIGHT, ChartLayout, chart_image, save_chart_png


@pytest.fixture(scope="module")
def results():
    # Characters per token: 8 / 7 = 1.143 and 8 / 16 = 0.5 (the figures of the metrics test's fixture).
    return [CompareResult("贪心分词", "toy", 7, lines=3, chars=8, tokens=7, token_lengths={1: 6, 2: 1}),
            CompareResult("bytes", "toy", 256, lines=3, chars=8, tokens=16, token_lengths={0: 12, 1: 4})]


def _bar_length(image: QImage, y: int, x0: int, x1: int, colour: str) -> int:
    target = QColor(colour).rgb()
    return sum(1 for x in range(x0, x1) if image.pixel(x, y) == target)


def test_bars_are_in_proportion_and_rows_coloured(qapp, results):
    scale = 1.0
    image = chart_image(results, width=900, scale=scale)
    lay = ChartLayout(chart_data(results), 900)
    assert (image.width(), image.height()) == (900, lay.height)
    lengths = []
    for i in range(2):
        y = int(lay.top + i * ROW_HEIGHT + ROW_HEIGHT / 2)
        lengths.append(_bar_length(image, y, int(lay.bar_x), int(lay.bar_x + lay.bar_w), PALETTE[i]))
    assert lengths[0] > 0 and lengths[1] / lengths[0] == pytest.approx(0.5 / (8 / 7), abs=0.02)


def test_han_names_get_a_font_with_han_glyphs(qapp, results, tmp_path):
    path = tmp_path / "chart.png"
    save_chart_png(results, path)
    image = QImage(str(path))
    assert not image.isNull() and image.width() == 2000  # 1000 logical pixels drawn at 2x
    family = fonts.han_family()
    assert family is not None
    raw = QRawFont.fromFont(QFont(family), QFontDatabase.WritingSystem.SimplifiedChinese)
    # Glyph 0 is the "missing" box; supportsCharacter() misreports some of this font's glyphs.
    assert raw.isValid() and 0 not in raw.glyphIndexesForString("贪心分词")
