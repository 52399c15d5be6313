"""The language-model chart: one bar per tokenizer, its bits per character, whiskers for the 95% interval.

Rows, each named, as Compare's own chart: labels never crowd an axis.  Lower
is better; the scale starts at 0 so bar lengths compare honestly.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QFontMetricsF, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ....lm.experiment import LmEvalResult
from .chart import chart_colours

ROW = 28  # pixels per tokenizer
PAD = 8


class LmChart(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.result: LmEvalResult | None = None
        self._describe()

    def set_result(self, result: LmEvalResult | None) -> None:
        self.result = result
        self._describe()
        self.updateGeometry()
        self.update()

    def rows(self) -> list[tuple[str, float, float]]:
        """(tokenizer, mean bits per character, half-width of the interval; 0 without one)."""
        if self.result is None:
            return []
        return [(s.name, s.bits_per_char.mean, s.bits_per_char.half_width or 0.0) for s in self.result.scores]

    def _describe(self) -> None:
        # What the bars say, for a screen reader.
        values = "; ".join(f"{name}: {mean:.3f} ± {half:.3f}" for name, mean, half in self.rows())
        self.setAccessibleName(self.tr("Bits per character chart"))
        self.setAccessibleDescription(values or self.tr("No result yet"))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(400, 2 * PAD + ROW * (len(self.rows()) + 1))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt name)
        if event.type() == QEvent.Type.LanguageChange:
            self._describe()
            self.update()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt name)
        colours = chart_colours(self.palette())
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), colours.background)
        p.setPen(colours.text)
        title = self.tr("Bits per character on the test text (lower is better; whiskers: 95% interval)")
        p.drawText(QRectF(PAD, PAD, self.width() - 2 * PAD, ROW), Qt.AlignmentFlag.AlignVCenter, title)
        rows = self.rows()
        if not rows:
            return
        metrics = QFontMetricsF(self.font())
        label_w = max(metrics.horizontalAdvance(name) for name, _, _ in rows) + PAD
        value_w = metrics.horizontalAdvance("00.000 ± 0.000") + PAD
        left, right = PAD + label_w, self.width() - PAD - value_w
        top = max(mean + half for _, mean, half in rows) or 1.0
        scale = max(1.0, right - left) / top
        bar = self.palette().color(QPalette.ColorRole.Highlight)
        for i, (name, mean, half) in enumerate(rows):
            y = PAD + ROW * (i + 1)
            p.setPen(colours.text)
            p.drawText(QRectF(PAD, y, label_w, ROW), Qt.AlignmentFlag.AlignVCenter, name)
            p.fillRect(QRectF(left, y + 6, mean * scale, ROW - 12), bar)
            if half:
                p.setPen(QPen(colours.text, 1.5))
                lo, hi, mid = left + (mean - half) * scale, left + (mean + half) * scale, y + ROW / 2
                p.drawLine(QPointF(lo, mid), QPointF(hi, mid))
                p.drawLine(QPointF(lo, mid - 5), QPointF(lo, mid + 5))
                p.drawLine(QPointF(hi, mid - 5), QPointF(hi, mid + 5))
            p.setPen(colours.muted)
            p.drawText(QRectF(right + PAD, y, value_w, ROW), Qt.AlignmentFlag.AlignVCenter,
                       f"{mean:.3f} ± {half:.3f}")
