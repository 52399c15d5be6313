"""The comparison chart, drawn with QPainter: the PNG of ``--plot`` and of Compare's
export, and Compare's chart on screen (``gui.panes.compare.chart`` paints it in a
widget with the theme's colours and the UI language's titles).  One renderer, so
that the picture a user saves is the one they saw.

One row per tokenizer: its name, a bar of characters per token with the
value at its end, and beside it a small histogram of token lengths on a scale
shared by all rows.  Colours identify tokenizers, but every row carries its
own name, so nothing needs a legend.  What is drawn comes from
``wubitok.compare.plot.chart_data``; this module only paints it.

It works without a window: a QImage is painted offscreen.  The CLI has no
application object, so one is made on the offscreen platform (a QApplication,
so that widgets can still be made later in the same process).  Han text uses
an installed CJK font, or the bundled one (``gui.support.fonts``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Sequence

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QGuiApplication, QImage, QPainter, QPen

from ...compare.metrics import CompareResult
from ...compare.plot import BAR_TITLE, HIST_TITLE, PART_NOTE, ChartData, chart_data
from ...errors import FileError
from ...fileio import atomic_write_bytes
from ..support import fonts

# Colour-blind-friendly, distinguishable in print (Tableau 10).
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
           "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")


@dataclass(frozen=True)
class ChartColours:
    background: QColor
    text: QColor
    muted: QColor  # the caption and the note
    grid: QColor
    stripe: QColor  # every other row


# The PNG's colours: dark text on white, for print.
LIGHT = ChartColours(QColor("white"), QColor("#222222"), QColor("#666666"), QColor("#dddddd"), QColor("#f4f4f4"))


@dataclass(frozen=True)
class ChartTexts:
    """The words of the chart (English in the PNG; the pane passes its UI language's)."""

    title: str = "Tokenizer comparison"  # "" leaves the title line out (on screen the pane says what it is)
    bar_title: str = BAR_TITLE
    hist_title: str = HIST_TITLE
    part_note: str = PART_NOTE
    part_label: str = "part"  # the bucket of tokens shorter than one character
    caption: str | None = None  # what was measured; None: chart_data's English caption


MARGIN = 24
ROW_HEIGHT = 60
GAP = 36

_app_keepalive: list[QGuiApplication] = []


def _ensure_app() -> QGuiApplication:
    app = QGuiApplication.instance()
    if app is None:
        from PySide6.QtWidgets import QApplication

        app = QApplication(["wubitok", "-platform", "offscreen"])
        _app_keepalive.append(app)
    if fonts.han_family() is None:
        fonts.ensure_han_font(app)
    return app


def _font(pixels: int, bold: bool = False) -> QFont:
    font = QFont(QGuiApplication.font())
    font.setPixelSize(pixels)
    font.setBold(bold)
    return font


WRAP = Qt.TextFlag.TextWordWrap


def _wrapped_height(font: QFont, width: float, text: str) -> float:
    return QFontMetricsF(font).boundingRect(QRectF(0, 0, max(1.0, width), 10_000), WRAP, text).height()


class ChartLayout:
    """Where everything goes, for a chart ``width`` logical pixels wide.

    Column titles, names and the note wrap onto more lines where the width is
    short (an 800-pixel window, Chinese titles): the chart grows taller instead
    of cutting them.
    """

    def __init__(self, data: ChartData, width: int, texts: ChartTexts = ChartTexts()):
        self.title_font, self.font, self.small = _font(18, True), _font(13), _font(11)
        fm = QFontMetricsF(self.font)
        self.name_w = min(max((fm.horizontalAdvance(r.name) for r in data.rows), default=0) + 24, 0.22 * width)
        self.title_h = 30 if texts.title else 0
        inner = width - 2 * MARGIN - self.name_w
        self.bar_x = MARGIN + self.name_w
        self.bar_w = 0.38 * (inner - GAP)
        self.hist_x = self.bar_x + self.bar_w + GAP
        self.hist_w = inner - GAP - self.bar_w
        self.heads_h = max(26.0, _wrapped_height(self.font, self.bar_w, texts.bar_title),
                           _wrapped_height(self.font, self.hist_w, texts.hist_title)) + 4
        self.top = MARGIN + self.title_h + 22 + self.heads_h        # title, caption, column titles
        self.rows_bottom = self.top + ROW_HEIGHT * len(data.rows)
        self.note_h = max(22.0, _wrapped_height(self.small, width - 2 * MARGIN, texts.part_note))
        self.height = int(self.rows_bottom + 24 + self.note_h + MARGIN)  # bucket labels, note


def paint_chart(painter: QPainter, data: ChartData, width: int, colours: ChartColours = LIGHT,
                texts: ChartTexts = ChartTexts(), drawn: list[tuple[QRectF, int, str, QFont]] | None = None) -> int:
    """Paint the chart at the painter's origin; returns the height used.  ``drawn``
    collects each text with its box, flags and font (a test measures them)."""
    lay = ChartLayout(data, width, texts)

    def text(rect: QRectF, flags, string: str, full: str | None = None) -> None:
        """painter.drawText, noting the text (``full``: before eliding) and its box."""
        painter.drawText(rect, flags, string)
        if drawn is not None:
            drawn.append((QRectF(rect), int(flags), string if full is None else full, QFont(painter.font())))
    TEXT, MUTED, GRID, STRIPE = colours.text, colours.muted, colours.grid, colours.stripe  # noqa: N806
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)

    painter.setPen(TEXT)
    if texts.title:
        painter.setFont(lay.title_font)
        text(
            QRectF(MARGIN, MARGIN, width - 2 * MARGIN, 30),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            texts.title,
        )
    painter.setFont(lay.small)
    painter.setPen(MUTED)
    text(
        QRectF(MARGIN, MARGIN + lay.title_h, width - 2 * MARGIN, 22),
        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        data.caption if texts.caption is None else texts.caption,
    )
    painter.setFont(lay.font)
    painter.setPen(TEXT)
    heads_y = lay.top - lay.heads_h
    text(
        QRectF(lay.bar_x, heads_y, lay.bar_w, lay.heads_h - 4),
        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom | WRAP,
        texts.bar_title,
    )
    text(
        QRectF(lay.hist_x, heads_y, lay.hist_w, lay.heads_h - 4),
        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom | WRAP,
        texts.hist_title,
    )

    n_buckets = len(data.bucket_labels)
    slot = lay.hist_w / n_buckets if n_buckets else 0
    fm, small_fm = QFontMetricsF(lay.font), QFontMetricsF(lay.small)
    value_w = fm.horizontalAdvance("00.00") + 8
    for i, row in enumerate(data.rows):
        y = lay.top + i * ROW_HEIGHT
        colour = QColor(PALETTE[i % len(PALETTE)])
        if i % 2 == 0:
            painter.fillRect(QRectF(MARGIN - 8, y, width - 2 * MARGIN + 16, ROW_HEIGHT), STRIPE)
        # Name, with a swatch of the row's colour.
        painter.fillRect(QRectF(MARGIN, y + ROW_HEIGHT / 2 - 6, 12, 12), colour)
        painter.setFont(lay.font)
        painter.setPen(TEXT)
        # A long name wraps (at any character: model names have no spaces); past two lines it is elided.
        name_box = QRectF(MARGIN + 18, y, lay.name_w - 18, ROW_HEIGHT)
        wrap_anywhere = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWrapAnywhere
        name = row.name
        if fm.boundingRect(name_box, wrap_anywhere, name).height() > 2.2 * fm.height():
            name = fm.elidedText(row.name, Qt.TextElideMode.ElideRight, 2 * name_box.width() - 12)
        text(name_box, wrap_anywhere, name, row.name)
        # Characters per token.
        span = lay.bar_w - value_w
        length = span * row.chars_per_token / data.max_chars_per_token if data.max_chars_per_token else 0
        painter.fillRect(QRectF(lay.bar_x, y + 12, length, ROW_HEIGHT - 24), colour)
        text(
            QRectF(lay.bar_x + length + 6, y, value_w, ROW_HEIGHT),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            f"{row.chars_per_token:.2f}",
        )
        # Token lengths: bars rise from the row's baseline; labels above the ones that matter.
        base = y + ROW_HEIGHT - 6
        room = ROW_HEIGHT - 6 - 16
        painter.setPen(QPen(GRID, 1))
        painter.drawLine(QPointF(lay.hist_x, base), QPointF(lay.hist_x + lay.hist_w, base))
        painter.setFont(lay.small)
        for j, share in enumerate(row.length_shares):
            if share <= 0:
                continue
            h = max(1.0, room * share / data.max_share) if data.max_share else 0
            x = lay.hist_x + j * slot
            painter.fillRect(QRectF(x + slot * 0.15, base - h, slot * 0.7, h), colour)
            if share >= 0.01:
                label = f"{100 * share:.0f}%"
                if small_fm.horizontalAdvance(label) <= slot:
                    painter.setPen(TEXT)
                    text(
                        QRectF(x, base - h - 15, slot, 14),
                        Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
                        label,
                    )

    painter.setFont(lay.small)
    painter.setPen(TEXT)
    for j, label in enumerate(data.bucket_labels):
        text(
            QRectF(lay.hist_x + j * slot, lay.rows_bottom + 2, slot, 20),
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
            texts.part_label if label == "part" else label,
        )
    painter.setPen(MUTED)
    text(
        QRectF(MARGIN, lay.rows_bottom + 24, width - 2 * MARGIN, lay.note_h),
        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | WRAP,
        texts.part_note,
    )
    return lay.height


def chart_image(results: Sequence[CompareResult], width: int = 1000, scale: float = 2.0,
                texts: ChartTexts = ChartTexts()) -> QImage:
    """The chart as an image ``width`` logical pixels wide, drawn at ``scale`` for sharp text."""
    _ensure_app()
    data = chart_data(results)
    height = ChartLayout(data, width, texts).height
    image = QImage(int(width * scale), int(height * scale), QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(scale)
    image.fill(LIGHT.background)
    painter = QPainter(image)
    try:
        paint_chart(painter, data, width, texts=texts)
    finally:
        painter.end()
    return image


def save_chart_png(results: Sequence[CompareResult], path: str | os.PathLike, width: int = 1000,
                   texts: ChartTexts = ChartTexts()) -> None:
    """Write the chart as a PNG, atomically."""
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not chart_image(results, width, texts=texts).save(buf, "PNG"):
        raise FileError(f"{path}: could not encode the chart as PNG")
    buf.close()
    atomic_write_bytes(path, bytes(data.data()))
