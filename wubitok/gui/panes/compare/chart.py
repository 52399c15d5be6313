"""Compare's chart on screen: the PNG report's chart (``widgets.report_chart``),
painted in a widget with the theme's colours and the UI language's words.

One row per tokenizer (characters per token, and the share of its tokens by
length), each row named, so labels never crowd an axis: the chart reads the
same at 800 and 1920 pixels.  Painting is a few milliseconds; nothing is built
ahead, so a theme or language switch is one repaint.
"""
from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QEvent, QRectF, QSize
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from ....compare.metrics import CompareResult
from ....compare.plot import ChartData, chart_data
from ...widgets.report_chart import ChartColours, ChartLayout, ChartTexts, paint_chart


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved the fraction ``t`` towards ``b``."""
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


def chart_colours(palette: QPalette) -> ChartColours:
    """The chart's colours in a theme: its text on its base; the caption a little
    softer (three quarters of the way from the base to the text)."""
    base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
    return ChartColours(background=base, text=text, muted=_mix(base, text, 0.75), grid=_mix(base, text, 0.2),
                        stripe=_mix(base, text, 0.05))


class CompareChart(QWidget):
    """The comparison chart of the results shown (none: the titles alone)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self._results: list[CompareResult] = []
        self._data = chart_data([])

    def set_results(self, results: Sequence[CompareResult]) -> None:
        self._results = list(results)
        self._data = chart_data(self._results)
        self.updateGeometry()  # as tall as its rows
        self.update()

    def data(self) -> ChartData:
        """What the chart shows (the numbers of ``compare.plot.chart_data``)."""
        return self._data

    def texts(self) -> ChartTexts:
        """The chart's words in the UI language."""
        first = self._results[0] if self._results else None
        caption = (self.tr("%Ln line(s)", "", first.lines) + ", " + self.tr("%Ln character(s)", "", first.chars)
                   if first else "")
        return ChartTexts(
            title="",
            bar_title=self.tr("Characters per token"),
            hist_title=self.tr("Share of tokens by length (characters)"),
            part_note=self.tr("part = a token that is a piece of one character (byte-level) or covers no character"),
            part_label=self.tr("part"),
            caption=caption,
        )

    def layout_for(self, width: int) -> ChartLayout:
        return ChartLayout(self._data, width, self.texts())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(600, self.layout_for(600).height)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(300, self.layout_for(300).height)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt name)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt name)
        return self.layout_for(width).height

    def cut_texts(self) -> list[str]:
        """Texts of the chart that do not fit their boxes at its width (none should)."""
        drawn: list[tuple[QRectF, int, str, QFont]] = []
        image = QImage(max(1, self.width()), max(1, self.height()), QImage.Format.Format_ARGB32)
        painter = QPainter(image)
        try:
            paint_chart(painter, self._data, self.width(), chart_colours(self.palette()), self.texts(), drawn)
        finally:
            painter.end()
        cut = []
        for rect, flags, text, font in drawn:
            need = QFontMetricsF(font).boundingRect(QRectF(rect.x(), rect.y(), rect.width(), 10_000), flags, text)
            if need.width() > rect.width() + 0.5 or need.height() > rect.height() + 0.5:
                cut.append(text)
        return cut

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt name)
        colours = chart_colours(self.palette())
        painter = QPainter(self)
        try:
            painter.fillRect(self.rect(), colours.background)
            paint_chart(painter, self._data, self.width(), colours, self.texts())
        finally:
            painter.end()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt name)
        if event.type() == QEvent.Type.LanguageChange:
            self.updateGeometry()
            self.update()
        super().changeEvent(event)
