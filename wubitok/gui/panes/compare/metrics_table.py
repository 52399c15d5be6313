"""Compare's metrics table: one row per tokenizer, the columns of ``compare.report``,
with a tooltip on every header saying what the figure means."""
from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from ....compare.metrics import CompareResult
from ....compare.report import COLUMNS
from ....compare.run import DOCUMENT_PART_CHARS
from ...widgets.report_chart import PALETTE


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
                                                       "— when the text is too short to time")),
        "train_seconds": (QCoreApplication.translate("MetricsTable", "train s"),
                          QCoreApplication.translate("MetricsTable", "Training time in seconds")),
    }


class MetricsTable(QTableWidget):
    """One row per tokenizer, the columns of ``compare.report``."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self._keys: list[str] = []  # headers and rows come with set_results (the pane's retranslate_ui)

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
                # A speed that rounds to 0.00 MB/s comes from a text too short to time
                # (the fixed cost of a call dominates): no figure rather than a wrong one.
                unmeasured = value is None or (key == "encode_mb_per_s" and value < 0.005)
                item = QTableWidgetItem("—" if unmeasured else fmt(value))
                if isinstance(value, (int, float)):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if col == 0:
                    item.setForeground(QColor(PALETTE[row % len(PALETTE)]))
                self.setItem(row, col, item)
        # At most four rows: the table is as tall as they are, the charts get the rest.
        rows = max(2, len(results))
        height = self.horizontalHeader().sizeHint().height() + rows * self.verticalHeader().defaultSectionSize()
        self.setFixedHeight(height + 2 * self.frameWidth() + self.horizontalScrollBar().sizeHint().height())

    def cell_text(self, row: int, key: str) -> str:
        return self.item(row, self._keys.index(key)).text()

    def header_keys(self) -> list[str]:
        return list(self._keys)
