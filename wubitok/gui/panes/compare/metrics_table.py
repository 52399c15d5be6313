"""Compare's metrics table: one row per tokenizer, the columns of ``compare.report``,
with a tooltip on every header saying what the figure means."""
from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from ....compare.metrics import CompareResult
from ....compare.report import COLUMNS
from ....compare.run import DOCUMENT_PART_CHARS
from ...support import theme
from ...widgets.report_chart import PALETTE

# Below this much text (UTF-8 bytes) the table shows no encoding speed.
SPEED_MIN_BYTES = 100_000


def metric_headers() -> dict[str, tuple[str, str]]:
    """Title and tooltip of each column of ``compare.report`` in the UI language.
    (Literal translate() calls, so that lupdate finds the strings.)"""
    return {
        "name": (QCoreApplication.translate("MetricsTable", "tokenizer"),
                 QCoreApplication.translate("MetricsTable", "The tokenizer (its colour in the charts and views)")),
        "kind": (QCoreApplication.translate("MetricsTable", "kind"),
                 QCoreApplication.translate("MetricsTable", "Kind of model: wubi-bpe, bpe, wordpiece, unigram")),
        "tokens": (QCoreApplication.translate("MetricsTable", "tokens"),
                   QCoreApplication.translate("MetricsTable", "Tokens the text was cut into")),
        "chars_per_token": (
            QCoreApplication.translate("MetricsTable", "chars/tok"),
            QCoreApplication.translate("MetricsTable", "Characters per token: higher is a more compact encoding")),
        "bytes_per_token": (QCoreApplication.translate("MetricsTable", "bytes/tok"),
                            QCoreApplication.translate("MetricsTable", "UTF-8 bytes per token")),
        "tokens_per_han": (
            QCoreApplication.translate("MetricsTable", "tok/Han"),
            QCoreApplication.translate("MetricsTable", "Tokens per Han character of the text")),
        "unk_rate": (
            QCoreApplication.translate("MetricsTable", "unk"),
            QCoreApplication.translate("MetricsTable", "Share of unknown tokens: text the vocabulary cannot spell")),
        "roundtrip_rate": (
            QCoreApplication.translate("MetricsTable", "round-trip"),
            QCoreApplication.translate("MetricsTable", "Share of samples that decode back to exactly the same text. "
                                                       "A sample is the whole text; in corpus mode each file "
                                                       "(a long file in parts of about {} million characters)")
            .format(round(DOCUMENT_PART_CHARS / 1e6))),
        "vocab_size": (QCoreApplication.translate("MetricsTable", "vocab"),
                       QCoreApplication.translate("MetricsTable", "Vocabulary size")),
        "vocab_used": (QCoreApplication.translate("MetricsTable", "used"),
                       QCoreApplication.translate("MetricsTable", "Distinct vocabulary entries the text used")),
        "renyi_efficiency": (
            QCoreApplication.translate("MetricsTable", "Rényi(2.5)"),
            QCoreApplication.translate("MetricsTable", "Rényi efficiency (α = 2.5) of the token distribution, 0 to 1: "
                                                       "higher uses the vocabulary more evenly")),
        "encode_mb_per_s": (
            QCoreApplication.translate("MetricsTable", "MB/s"),
            QCoreApplication.translate("MetricsTable", "Encoding speed, megabytes of UTF-8 per second; "
                                                       "— under {} KB of text, too little to time")
            .format(SPEED_MIN_BYTES // 1000)),
        "train_seconds": (QCoreApplication.translate("MetricsTable", "train s"),
                          QCoreApplication.translate("MetricsTable", "Training time in seconds")),
    }


def cell_note(r: CompareResult, key: str, unmeasured: bool) -> str:
    """A note on a figure that would surprise without one ("" for the others)."""
    if key == "encode_mb_per_s" and unmeasured:
        return QCoreApplication.translate(
            "MetricsTable", "Not measured: the text has {n:,} bytes. Under {min} KB the time is mostly the fixed "
            "cost of a call and changes from run to run; compare on corpus files to measure speed."
        ).format(n=r.bytes, min=SPEED_MIN_BYTES // 1000)
    if key == "roundtrip_rate" and r.samples and r.roundtrip_samples < r.samples:
        if r.kind == "wordpiece":
            return QCoreApplication.translate(
                "MetricsTable", "WordPiece is lossy by design: decoding puts one space between words, so the "
                "original spaces and line breaks are lost, and so are upper case, accents and the words it cannot "
                "spell ([UNK]).")
        return QCoreApplication.translate(
            "MetricsTable", "{n} of {m} samples did not decode back to the same text"
        ).format(n=r.samples - r.roundtrip_samples, m=r.samples)
    if key == "unk_rate" and r.unk_tokens:
        return QCoreApplication.translate(
            "MetricsTable", "{n:,} unknown tokens: text this vocabulary cannot spell, lost when decoding"
        ).format(n=r.unk_tokens)
    if key == "tokens_per_han" and not r.han_chars:
        return QCoreApplication.translate("MetricsTable", "The text has no Han characters")
    return ""


class MetricsTable(QTableWidget):
    """One row per tokenizer, the columns of ``compare.report``."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        # Widths are set by _fit_columns: each column as wide as its contents, the spare width of
        # a wide window shared out (at 1920 px two thirds of the table stood empty on the right).
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self._keys: list[str] = []  # headers and rows come with set_results (the pane's retranslate_ui)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # a theme switch: the names' colours again
            for row in range(self.rowCount()):
                item = self.item(row, 0)
                if item is not None:
                    item.setForeground(theme.readable(PALETTE[row % len(PALETTE)],
                                                      self.palette().color(QPalette.ColorRole.Base)))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        self._fit_columns()

    def natural_widths(self) -> list[int]:
        """Each column's width for its header and cells, nothing cut."""
        header = self.horizontalHeader()
        return [max(self.sizeHintForColumn(c), header.sectionSizeHint(c)) for c in range(self.columnCount())]

    def _fit_columns(self) -> None:
        natural = self.natural_widths()
        if not natural:
            return
        spare = max(0, self.viewport().width() - sum(natural))
        share, extra = divmod(spare, len(natural))
        for col, width in enumerate(natural):
            self.horizontalHeader().resizeSection(col, width + share + (1 if col < extra else 0))

    def set_results(self, results: Sequence[CompareResult]) -> None:
        cols = [c for c in COLUMNS if c[0] != "train_seconds" or any(r.train_seconds is not None for r in results)]
        self._keys = [key for key, _, _ in cols]
        self.clear()
        self.setColumnCount(len(cols))
        headers = metric_headers()
        for col, (key, header, _) in enumerate(cols):
            title, tip = headers.get(key, (header, ""))
            item = QTableWidgetItem(title)
            item.setToolTip(tip)
            self.setHorizontalHeaderItem(col, item)
        self.setRowCount(len(results))
        for row, r in enumerate(results):
            data = r.to_json()
            for col, (key, _, fmt) in enumerate(cols):
                value = data[key]
                # A speed measured on a short text is mostly the fixed cost of a call and
                # changed from run to run (0.01, —, 0.22, 1.11 MB/s on one line): no figure.
                unmeasured = value is None or (key == "encode_mb_per_s" and r.bytes < SPEED_MIN_BYTES)
                item = QTableWidgetItem("—" if unmeasured else fmt(value))
                item.setToolTip(cell_note(r, key, unmeasured))
                if isinstance(value, (int, float)):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if col == 0:  # the tokenizer's colour, made readable on the table's background
                    item.setForeground(theme.readable(PALETTE[row % len(PALETTE)],
                                                      self.palette().color(QPalette.ColorRole.Base)))
                self.setItem(row, col, item)
        self._fit_columns()
        # At most four rows: the table is as tall as they are, the charts get the rest.
        rows = max(2, len(results))
        height = self.horizontalHeader().sizeHint().height() + rows * self.verticalHeader().defaultSectionSize()
        self.setFixedHeight(height + 2 * self.frameWidth() + self.horizontalScrollBar().sizeHint().height())

    def cell_text(self, row: int, key: str) -> str:
        return self.item(row, self._keys.index(key)).text()

    def cell_tooltip(self, row: int, key: str) -> str:
        return self.item(row, self._keys.index(key)).toolTip()

    def header_keys(self) -> list[str]:
        return list(self._keys)
