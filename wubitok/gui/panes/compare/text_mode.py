"""Compare's text mode: the worker that encodes and measures a text with every
chosen tokenizer, and the token views side by side, scrolling together."""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QResizeEvent, QTextDocument
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from ....compare.metrics import CompareResult
from ....compare.run import finish_figures
from ....progress import check_cancel
from ....services.encode_pool import ModelRef, ModelSummary, encode_text, measure_text, shared_pool
from ...support import progress_text
from ...support.fonts import han_font
from ...support.model_catalog import ModelCatalog, ModelEntry
from ...widgets.report_chart import PALETTE
from ...widgets.token_view import TokenizedText, TokenTextView, make_document


@dataclass
class TextComparison:
    results: list[CompareResult]
    views: list[tuple[TokenizedText, QTextDocument]]
    trained_by: list[str | None]  # engines that can be trained two ways say which


def unique_names(entries: Sequence[ModelEntry]) -> list[str]:
    """Entry names, with " #2", " #3" added where the same model is chosen twice."""
    names: list[str] = []
    for e in entries:
        name, n = e.name, 2
        while name in names:
            name, n = f"{e.name} #{n}", n + 1
        names.append(name)
    return names


def model_summaries(catalog: ModelCatalog, entries: Sequence[ModelEntry], cancel) -> list[tuple[str, ModelSummary]]:
    return [(name, catalog.summary(entry, cancel=cancel)) for name, entry in zip(unique_names(entries), entries)]


def compare_text(
    catalog: ModelCatalog, entries: Sequence[ModelEntry], text: str, font: QFont, *, cancel
) -> TextComparison:
    """Worker body of text mode: metrics plus one prepared view per tokenizer.

    The tokenizers encode and are measured in the worker processes
    (``encode_pool``), each text once, and summarised there (display forms of
    tokens, vocabulary sizes); this thread builds the documents of the views,
    which only this process can use.
    """
    pairs = model_summaries(catalog, entries, cancel)
    refs = [ModelRef.of(e.path, e.kind) for e in entries]
    pool = shared_pool()
    sent = pool.share(text, cancel=cancel)  # one copy for every model's task, not one pickled per task
    # Not text.strip(): on a text that starts or ends with whitespace it copies the whole (10 MB:
    # one call holding the GIL ~10 ms); isspace() stops at the first character that is not.
    if text and not text.isspace():
        measured = pool.call_all([(measure_text, ref, name, sent) for ref, (name, _) in zip(refs, pairs)],
                                 cancel=cancel)
        encoded = [(enc, spans) for enc, spans, _ in measured]
        results = finish_figures(pairs, [figures for _, _, figures in measured])
    else:
        encoded = [(enc, spans) for enc, spans, _ in pool.call_all([(encode_text, ref, sent) for ref in refs],
                                                                    cancel=cancel)]
        results = []
    views = []
    for (_, model), (enc, spans) in zip(pairs, encoded):
        check_cancel(cancel)
        data = TokenizedText.of_model(text, enc, spans, model)
        views.append((data, make_document(text[: data.shown_chars], font)))
    return TextComparison(results, views, [model.trained_by for _, model in pairs])



class TokenColumn(QWidget):
    """A header line over one tokenizer's token view."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.header = QLabel(self)
        self.trained_by = QLabel(self)
        self.trained_by.setWordWrap(True)
        self.trained_by.hide()
        self.view = TokenTextView(self)
        self.view.setFont(han_font(14))
        # Four lines at least: with four tokenizers the table and the chart took the rest
        # and left each view two lines (1200x800); the pane scrolls instead.
        self.view.setMinimumHeight(4 * self.view.fontMetrics().lineSpacing() + 2 * self.view.frameWidth() + 8)
        self._trainer: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.trained_by)
        layout.addWidget(self.view, 1)

    def set_trained_by(self, trained_by: str | None) -> None:
        """The caption; its height is set by :meth:`TokenColumns.align_captions`."""
        self._trainer = trained_by
        self.trained_by.setText(self.tr("trained by {}").format(progress_text.trainer_name(trained_by))
                                if trained_by else "")

    def retranslate(self, name: str) -> None:
        self.set_trained_by(self._trainer)
        self.view.setAccessibleName(self.tr("Tokens of {}").format(name))


class TokenColumns(QSplitter):
    """One :class:`TokenColumn` per tokenizer; scrolling one scrolls the others to the same place."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.columns: list[TokenColumn] = []
        self._syncing = False
        self.splitterMoved.connect(lambda *_: self.align_captions())

    def align_captions(self) -> None:
        """Every caption line as tall as the tallest, so that the views start at one height:
        a "trained by" caption under some headers pushed only their views down."""
        height = max((c.trained_by.heightForWidth(c.width()) for c in self.columns if c.trained_by.text()),
                     default=0)
        for c in self.columns:
            c.trained_by.setFixedHeight(max(0, height))
            c.trained_by.setVisible(height > 0)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        self.align_captions()

    def set_names(self, names: Sequence[str]) -> None:
        """One column per name, headed by it in its tokenizer's colour."""
        while len(self.columns) < len(names):
            col = TokenColumn(self)
            col.view.verticalScrollBar().valueChanged.connect(lambda v, c=col: self._sync_scroll(c, v))
            self.columns.append(col)
            self.addWidget(col)
        while len(self.columns) > len(names):
            col = self.columns.pop()
            col.setParent(None)
            col.deleteLater()
        for i, (name, col) in enumerate(zip(names, self.columns)):
            # The same colour as the tokenizer's row in the table and its bars.
            col.header.setText(f"<b style='color:{PALETTE[i % len(PALETTE)]}'>■</b> " + html.escape(name))
            col.retranslate(name)
        self.align_captions()

    def _sync_scroll(self, source: TokenColumn, value: int) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            bar = source.view.verticalScrollBar()
            fraction = value / bar.maximum() if bar.maximum() else 0.0
            for col in self.columns:
                if col is not source:
                    other = col.view.verticalScrollBar()
                    other.setValue(round(fraction * other.maximum()))
        finally:
            self._syncing = False
