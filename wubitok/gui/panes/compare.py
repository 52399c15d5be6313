"""Compare: 2 to 4 tokenizers on the same text, or measured over corpus files.

Text mode shows each tokenizer's tokens side by side (coloured like the
Tokenize pane, scrolling together) and measures them with
``wubitok.compare.compare``; corpus mode runs the same function over files
in a worker with progress and cancel.  The metrics table, the bar charts and
the exported reports all show exactly the library's ``CompareResult``s.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from PySide6.QtCharts import QBarCategoryAxis, QBarSeries, QBarSet, QChart, QChartView, QValueAxis
from PySide6.QtCore import QCoreApplication, QEvent, QMargins, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...compare import compare_tokenizers
from ...compare.metrics import CompareResult
from ...compare.plot import chart_data
from ...compare.report import COLUMNS, format_results
from ...compare.run import DOCUMENT_PART_CHARS, finish_figures
from ...errors import InputError
from ...fileio import atomic_write_text
from ...progress import Progress, check_cancel
from ...services.encode_pool import ModelRef, ModelSummary, encode_text, measure_corpus_batch, measure_text, shared_pool
from ..support import errors, progress_text
from ..support.fonts import han_font
from ..support.latest_job import LatestJob
from ..support.model_catalog import EntryRole, ModelCatalog, ModelEntry, shared_catalog
from ..support.settings import Settings
from ..support.steps import Steps
from ..support.workers import Job
from ..widgets.corpus_list import CorpusList
from ..widgets.encoding_box import EncodingBox
from ..widgets.report_chart import PALETTE, save_chart_png
from ..widgets.token_view import TokenizedText, TokenTextView, make_document, replace_document
from .base import Pane

MIN_SLOTS, MAX_SLOTS = 2, 4
DEBOUNCE_MS = 300
REMEMBER_CHARS = 100_000
SAMPLE_TEXT = "床前明月光，疑是地上霜。举头望明月，低头思故乡。\nTokenizers split 中文 text differently."

# Report formats offered for export: (format name of compare.report, file suffix, filter label).
EXPORTS = (("csv", ".csv", "CSV (*.csv)"), ("json", ".json", "JSON (*.json)"), ("md", ".md", "Markdown (*.md)"))


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


def _summaries(catalog: ModelCatalog, entries: Sequence[ModelEntry], cancel) -> list[tuple[str, ModelSummary]]:
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
    pairs = _summaries(catalog, entries, cancel)
    refs = [ModelRef.of(e.path, e.kind) for e in entries]
    pool = shared_pool()
    if text.strip():
        measured = pool.call_all([(measure_text, ref, name, text) for ref, (name, _) in zip(refs, pairs)],
                                 cancel=cancel)
        encoded = [(enc, spans) for enc, spans, _ in measured]
        results = finish_figures(pairs, [figures for _, _, figures in measured])
    else:
        encoded = [(enc, spans) for enc, spans, _ in pool.call_all([(encode_text, ref, text) for ref in refs],
                                                                    cancel=cancel)]
        results = []
    views = []
    for (_, model), (enc, spans) in zip(pairs, encoded):
        check_cancel(cancel)
        data = TokenizedText(text, enc, spans, model.display_token)
        views.append((data, make_document(text[: data.shown_chars], font)))
    return TextComparison(results, views, [model.trained_by for _, model in pairs])


def compare_files(
    catalog: ModelCatalog, entries: Sequence[ModelEntry], files: Sequence[str], *, progress, cancel
) -> list[CompareResult]:
    """Worker body of corpus mode: batches are measured in the worker processes."""
    pairs = _summaries(catalog, entries, cancel)
    refs = [(name, ModelRef.of(e.path, e.kind)) for (name, _), e in zip(pairs, entries)]
    pool = shared_pool()

    def measure(batches, unit):
        return pool.map(measure_corpus_batch, (refs, unit), batches, cancel=cancel)

    return compare_tokenizers(pairs, files=files, progress=progress, cancel=cancel, measure=measure)


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


def _bar_chart(title: str, categories: list[str], sets: list[tuple[str, list[float]]], axis_title: str,
               ceiling: float | None = None, *, palette: QPalette | None = None) -> QChart:
    chart = QChart()
    pal = palette or QPalette()
    dark = pal.color(QPalette.ColorRole.Window).lightness() < 128
    # The theme first: it resets colours, and the bars get the table's colours after it.
    chart.setTheme(QChart.ChartTheme.ChartThemeDark if dark else QChart.ChartTheme.ChartThemeLight)
    chart.setBackgroundBrush(pal.color(QPalette.ColorRole.Base))
    chart.setTitleBrush(pal.color(QPalette.ColorRole.Text))
    chart.legend().setLabelColor(pal.color(QPalette.ColorRole.Text))
    chart.setTitle(title)
    chart.setMargins(QMargins(4, 4, 4, 4))
    chart.setBackgroundRoundness(0)
    chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
    series = QBarSeries()
    top = 0.0
    for i, (name, values) in enumerate(sets):
        bar = QBarSet(name)
        bar.setColor(QColor(PALETTE[i % len(PALETTE)]))
        bar.append(values)
        top = max([top, *values])
        series.append(bar)
    chart.addSeries(series)
    axis_x = QBarCategoryAxis()
    axis_x.append(categories)
    chart.addAxis(axis_x, Qt.AlignmentFlag.AlignBottom)
    series.attachAxis(axis_x)
    axis_y = QValueAxis()
    axis_y.setRange(0, top * 1.1 if top > 0 else 1.0)
    axis_y.applyNiceNumbers()
    if ceiling is not None and axis_y.max() > ceiling:
        axis_y.setRange(0, ceiling)
        axis_y.setTickCount(5)
    axis_y.setTitleText(axis_title)
    for axis in (axis_x, axis_y):
        axis.setLabelsColor(pal.color(QPalette.ColorRole.Text))
        axis.setTitleBrush(pal.color(QPalette.ColorRole.Text))
    chart.addAxis(axis_y, Qt.AlignmentFlag.AlignLeft)
    series.attachAxis(axis_y)
    return chart


class CompareChart(QWidget):
    """Two QtCharts bar charts: characters per token, and tokens by length
    (the numbers of ``compare.plot.chart_data``, as the PNG report draws them).

    Colours match the metrics table's tokenizer names (``report_chart.PALETTE``).
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.cpt_view = QChartView(self)
        self.length_view = QChartView(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for v, stretch in ((self.cpt_view, 1), (self.length_view, 2)):
            v.setRenderHint(QPainter.RenderHint.Antialiasing)
            v.setMinimumHeight(160)
            layout.addWidget(v, stretch)
        self._results: list[CompareResult] = []
        # Building the two charts costs 15-30 ms: not while the pane opens. The
        # pane draws them on a later turn of the event loop (the first result
        # does); until then the views are blank, in the theme's colours.
        self._drawn = False
        self._redrawing = Steps(self)  # after a theme or language switch
        self._blank()

    def _blank(self) -> None:
        for view in (self.cpt_view, self.length_view):
            view.chart().setBackgroundBrush(self.palette().color(QPalette.ColorRole.Base))

    def is_drawn(self) -> bool:
        return self._drawn

    def set_results(self, results: Sequence[CompareResult]) -> None:
        self.draw_cpt(results)
        self.draw_lengths(results)

    # Each chart on its own: a pane can draw them on two turns of the event loop
    # (building and painting one takes 15-25 ms).
    def draw_cpt(self, results: Sequence[CompareResult]) -> None:
        self._results = list(results)
        self._drawn = True
        data = chart_data(results)
        cpt = _bar_chart(
            self.tr("Characters per token"), [self.tr("chars/token")],
            [(row.name, [row.chars_per_token]) for row in data.rows], "", palette=self.palette(),
        )
        # Too narrow for a legend of four names; the colours are named by the
        # table rows and the legend of the chart beside it.
        cpt.legend().hide()
        self._replace(self.cpt_view, cpt)

    def draw_lengths(self, results: Sequence[CompareResult]) -> None:
        self._results = list(results)
        self._drawn = True
        data = chart_data(results)
        shares = [(row.name, [100.0 * share for share in row.length_shares]) for row in data.rows]
        # "part": tokens that are a piece of one character (byte-level) or cover none.
        labels = [self.tr("part") if label == "part" else label for label in data.bucket_labels]
        lengths = _bar_chart(self.tr("Tokens by length (characters)"), labels, shares,
                             self.tr("% of tokens"), ceiling=100.0, palette=self.palette())
        self.length_view.setToolTip(self.tr("part = a token that is a piece of one character (byte-level) "
                                            "or covers no character"))
        self._replace(self.length_view, lengths)

    @staticmethod
    def _replace(view: QChartView, chart: QChart) -> None:
        old = view.chart()
        view.setChart(chart)
        if old is not None:
            old.deleteLater()

    def charts(self) -> tuple[QChart, QChart]:
        return self.cpt_view.chart(), self.length_view.chart()

    def redraw_pending(self) -> bool:
        """A theme or language switch asked for the charts again and they are not all drawn yet."""
        return self._redrawing.pending()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt name)
        # A theme switch or a language switch: draw the same results again, one
        # chart per later turn of the event loop.  In the switch's own turn
        # they cost 13-31 ms on top of every pane's retranslation and the
        # window's relayout (bench/bench_gui_stalls.py switch_language).
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.LanguageChange):
            if self._drawn:
                self._redrawing.start([lambda: self.draw_cpt(self._results), lambda: self.draw_lengths(self._results)],
                                      first_now=False)
            else:
                self._blank()
        super().changeEvent(event)


class _Slot(QWidget):
    """One tokenizer chooser with a remove button."""

    removed = Signal(object)

    def __init__(self, catalog: ModelCatalog, parent: QWidget | None = None):
        super().__init__(parent)
        self.box = QComboBox(self)
        self.box.setModel(catalog)
        # Four choosers side by side must fit an 800-pixel window.
        self.box.setMinimumContentsLength(6)
        self.box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.remove_button = QToolButton(self)
        self.remove_button.setText("×")
        self.retranslate()
        self.remove_button.clicked.connect(lambda: self.removed.emit(self))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box, 1)
        layout.addWidget(self.remove_button)

    def retranslate(self) -> None:
        self.remove_button.setToolTip(self.tr("Remove this tokenizer"))
        self.remove_button.setAccessibleName(self.tr("Remove this tokenizer"))
        self.box.setAccessibleName(self.tr("Tokenizer"))

    def entry(self) -> ModelEntry | None:
        return self.box.currentData(EntryRole)


class _Column(QWidget):
    """A header line over one tokenizer's token view."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.header = QLabel(self)
        self.trained_by = QLabel(self)
        self.trained_by.setWordWrap(True)
        self.trained_by.hide()
        self.view = TokenTextView(self)
        self.view.setFont(han_font(14))
        self._trainer: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.trained_by)
        layout.addWidget(self.view, 1)

    def set_trained_by(self, trained_by: str | None) -> None:
        self._trainer = trained_by
        self.trained_by.setText(self.tr("trained by {}").format(trained_by) if trained_by else "")
        self.trained_by.setVisible(bool(trained_by))

    def retranslate(self, name: str) -> None:
        self.set_trained_by(self._trainer)
        self.view.setAccessibleName(self.tr("Tokens of {}").format(name))


class ComparePane(Pane):
    """Tokenizers side by side on a text, or measured over corpus files."""

    ready = Signal()
    resultsChanged = Signal(list)

    def __init__(self, parent: QWidget | None = None, *, catalog: ModelCatalog | None = None,
                 in_steps: bool = False):
        super().__init__(parent)
        self.setObjectName("compare")
        self.catalog = catalog or shared_catalog()
        self._settings = Settings("compare")
        self._comparing = LatestJob(self, debounce_ms=DEBOUNCE_MS, start=self.recompare)
        self._loading = LatestJob(self)  # the editor's document for set_sample_text, built in a worker
        self._corpus_job: Job | None = None
        self.results: list[CompareResult] = []
        self._showing = Steps(self)  # a result in steps: a text one (see _show_text), a corpus one (_set_results)
        self._charts_pending = False  # the blank charts of corpus mode are drawn on a later turn
        self._syncing = False
        self.slots: list[_Slot] = []
        self.columns: list[_Column] = []
        self.build(self._parts(), in_steps)

    def _parts(self) -> Iterator[None]:
        # Containers first, then each widget made inside its final parent: with the
        # app's style sheet, moving a built subtree into another parent restyles all
        # of it again, and building bottom-up did that once per level (about half
        # of the pane's build time).
        layout = self.scrolling_layout()
        self.main_splitter = QSplitter(Qt.Orientation.Vertical, layout.parentWidget())
        self.pages = QStackedWidget(self.main_splitter)
        self._build_choosers()
        yield
        self._build_text_page(self.pages)
        yield
        self._build_corpus_page(self.pages)
        yield
        self._build_results(QWidget(self.main_splitter))
        yield
        self._build_layout(layout)
        self.retranslate_ui()
        yield
        self._connect()
        self.setFocusProxy(self.editor)
        self._restore()

    def retranslate_ui(self) -> None:
        """Every visible text in the current language; texts, choices and results stay."""
        self.tokenizers_label.setText(self.tr("Tokenizers:"))
        self.add_button.setText(self.tr("Add tokenizer"))
        self.mode_label.setText(self.tr("Compare on:"))
        self.text_mode.setText(self.tr("Text"))
        self.corpus_mode.setText(self.tr("Corpus files"))
        self.editor.setPlaceholderText(self.tr("Type or paste a text to compare the tokenizers on"))
        self.editor.setAccessibleName(self.tr("Text to compare the tokenizers on"))
        self.file_list.setAccessibleName(self.tr("Corpus files"))
        self.encoding_label.setText(self.tr("&Encoding:"))
        self.encoding_box.setToolTip(self.tr("The encoding the selected files are read in (detected when added); "
                                             "choose another to read them in it"))
        self.add_files_button.setText(self.tr("Add files…"))
        self.remove_files_button.setText(self.tr("Remove"))
        self.run_button.setText(self.tr("Run comparison"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.progress_bar.setAccessibleName(self.tr("Comparison progress"))
        self.export_label.setText(self.tr("Export report:"))
        self.export_buttons["png"].setText(self.tr("PNG chart"))
        self.table.setAccessibleName(self.tr("Metrics"))
        self.table.set_results(self.results)
        for slot in self.slots:
            slot.retranslate()
        self._rebuild_columns()

    def _build_choosers(self) -> None:
        self.slot_row = QHBoxLayout()
        self.add_button = QPushButton()
        self.text_mode = QRadioButton()
        self.corpus_mode = QRadioButton()
        self.tokenizers_label = QLabel()
        self.mode_label = QLabel()
        self._mode_group = QButtonGroup(self)
        self._mode_group.addButton(self.text_mode, 0)
        self._mode_group.addButton(self.corpus_mode, 1)

    def _build_text_page(self, pages: QStackedWidget) -> None:
        self.text_page = QWidget(pages)
        self.editor = QPlainTextEdit(self.text_page)
        self.editor.setFont(han_font(12))
        self.editor.setMaximumHeight(90)
        self.columns_splitter = QSplitter(Qt.Orientation.Horizontal, self.text_page)
        tl = QVBoxLayout(self.text_page)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.editor)
        tl.addWidget(self.columns_splitter, 1)

    def _build_corpus_page(self, pages: QStackedWidget) -> None:
        page = self.corpus_page = QWidget(pages)
        self.file_list = CorpusList(page)
        self.encoding_label = QLabel(page)
        self.encoding_box = EncodingBox(page)
        self.file_list.attach(self.encoding_box)
        self.encoding_label.setBuddy(self.encoding_box)
        self.add_files_button = QPushButton(page)
        self.remove_files_button = QPushButton(page)
        self.run_button = QPushButton(page)
        self.cancel_button = QPushButton(page)
        self.cancel_button.setEnabled(False)
        self.progress_bar = QProgressBar(page)
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setValue(0)
        self.progress_label = QLabel(page)
        self.progress_label.setWordWrap(True)
        buttons = QVBoxLayout()
        for b in (self.add_files_button, self.remove_files_button, self.encoding_label, self.encoding_box,
                  self.run_button, self.cancel_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        files_row = QHBoxLayout()
        files_row.addWidget(self.file_list, 1)
        files_row.addLayout(buttons)
        cl = QVBoxLayout(page)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addLayout(files_row, 1)
        cl.addWidget(self.progress_bar)
        cl.addWidget(self.progress_label)

    def _build_results(self, box: QWidget) -> None:
        self.results_box = box
        self.table = MetricsTable(box)
        self.chart = CompareChart(box)
        self.export_buttons: dict[str, QPushButton] = {}
        self.export_row = QHBoxLayout()
        self.export_label = QLabel(box)
        self.export_row.addWidget(self.export_label)
        for fmt, label in (("csv", "CSV"), ("json", "JSON"), ("md", "Markdown"), ("png", "")):
            b = QPushButton(label, box)
            b.setEnabled(False)
            self.export_row.addWidget(b)
            self.export_buttons[fmt] = b
        self.export_row.addStretch(1)
        self.status_label = QLabel(box)
        self.status_label.setWordWrap(True)
        self.export_row.addWidget(self.status_label)

    def _build_layout(self, layout: QVBoxLayout) -> None:
        # The choosers get a line of their own: four of them must fit an 800-pixel window.
        chooser = QHBoxLayout()
        chooser.addWidget(self.tokenizers_label)
        chooser.addWidget(self.add_button)
        chooser.addSpacing(24)
        chooser.addWidget(self.mode_label)
        chooser.addWidget(self.text_mode)
        chooser.addWidget(self.corpus_mode)
        chooser.addStretch(1)

        mode_row = QHBoxLayout()
        mode_row.addLayout(self.slot_row, 1)

        self.pages.addWidget(self.text_page)
        self.pages.addWidget(self.corpus_page)

        rl = QVBoxLayout(self.results_box)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.table)
        rl.addWidget(self.chart, 1)
        rl.addLayout(self.export_row)

        main_split = self.main_splitter
        main_split.addWidget(self.pages)
        main_split.addWidget(self.results_box)
        main_split.setStretchFactor(0, 3)
        main_split.setStretchFactor(1, 2)
        # The first split, 3 : 5, whatever the charts hold yet: shared out by size
        # hints, the blank charts (drawn with the first result) left the results the
        # smaller part and each chart a plot 91 px high, its axis labels cut to "..."
        # (1200x800); 3 : 5 is the split the drawn charts' hints gave before.
        main_split.setSizes([3000, 5000])

        # In a scroll area (``layout``): four tokenizers' table, views and charts are
        # taller than a 600-pixel window leaves.
        layout.addLayout(chooser)
        layout.addLayout(mode_row)
        layout.addWidget(main_split, 1)

    def _connect(self) -> None:
        self.add_button.clicked.connect(lambda: self.add_slot())
        for fmt, b in self.export_buttons.items():
            b.clicked.connect(lambda _=False, f=fmt: self._choose_export(f))
        self.editor.textChanged.connect(self._text_edited)
        self._mode_group.idToggled.connect(self._mode_toggled)
        self.add_files_button.clicked.connect(self._choose_files)
        self.remove_files_button.clicked.connect(self._remove_selected_files)
        self.run_button.clicked.connect(self.run_corpus)
        self.cancel_button.clicked.connect(self.cancel_corpus)

    # -- state ---------------------------------------------------------------
    def _restore(self) -> None:
        s = self._settings
        names = s.get_list("models")
        entries = [e for e in (self.catalog.find(n) for n in names) if e is not None]
        if len(entries) < MIN_SLOTS:
            entries = self._default_entries()
        for e in entries[:MAX_SLOTS]:
            self.add_slot(e, compare=False)
        while len(self.slots) < MIN_SLOTS:
            self.add_slot(compare=False)
        self.file_list.restore(s.get_list("files"), s.get_list("encodings"))
        self.editor.blockSignals(True)
        self.editor.setPlainText(s.get_str("text", SAMPLE_TEXT) if s.contains("text") else SAMPLE_TEXT)
        self.editor.blockSignals(False)
        self._rebuild_columns()
        corpus = s.get_str("mode", "text") == "corpus"
        # Checking the text mode compares at once (_mode_toggled): once, with the columns built.
        (self.corpus_mode if corpus else self.text_mode).setChecked(True)

    def _default_entries(self) -> list[ModelEntry]:
        bundled = [e for e in self.catalog.entries() if e.source == "bundled"]
        order = ("wubi-bpe", "bpe", "unigram", "wordpiece")

        def rank(e: ModelEntry) -> int:
            return next((i for i, p in enumerate(order) if e.name.startswith(p)), len(order))

        bundled.sort(key=rank)
        return (bundled or self.catalog.entries())[:MIN_SLOTS]

    def save_state(self) -> None:
        s = self._settings
        s.set("models", [e.name for e in self.entries()])
        s.set("files", self.files())
        s.set("encodings", self.file_list.encodings())
        s.set("mode", "corpus" if self.corpus_mode.isChecked() else "text")
        text = self.editor.toPlainText()
        if len(text) <= REMEMBER_CHARS:
            s.set("text", text)
        s.sync()

    # -- slots ---------------------------------------------------------------
    def add_slot(self, entry: ModelEntry | str | None = None, *, compare: bool = True) -> _Slot | None:
        if len(self.slots) >= MAX_SLOTS:
            return None
        slot = _Slot(self.catalog, self.main_splitter.parentWidget())
        if isinstance(entry, str):
            entry = self.catalog.find(entry)
        if entry is None:
            used = {e for e in self.entries()}
            entry = next((e for e in self.catalog.entries() if e not in used), None)
        if entry is not None:
            slot.box.setCurrentIndex(self.catalog.row_of(entry))
        slot.box.currentIndexChanged.connect(self._models_changed)
        slot.removed.connect(self.remove_slot)
        self.slots.append(slot)
        self.slot_row.addWidget(slot, 1)
        self._update_slot_buttons()
        if compare:
            self._models_changed()
        return slot

    def remove_slot(self, slot: _Slot) -> None:
        if len(self.slots) <= MIN_SLOTS or slot not in self.slots:
            return
        self.slots.remove(slot)
        slot.setParent(None)
        slot.deleteLater()
        self._update_slot_buttons()
        self._models_changed()

    def _update_slot_buttons(self) -> None:
        self.add_button.setEnabled(len(self.slots) < MAX_SLOTS)
        for s in self.slots:
            s.remove_button.setEnabled(len(self.slots) > MIN_SLOTS)

    def set_models(self, keys: Sequence[ModelEntry | str]) -> None:
        """Choose the tokenizers (2 to 4) by entry, name or path."""
        if not MIN_SLOTS <= len(keys) <= MAX_SLOTS:
            raise InputError(f"compare takes {MIN_SLOTS} to {MAX_SLOTS} tokenizers, not {len(keys)}")
        entries = [k if isinstance(k, ModelEntry) else self.catalog.find(k) for k in keys]
        if any(e is None for e in entries):
            raise InputError(f"unknown tokenizer among {', '.join(map(str, keys))}")
        while len(self.slots) < len(entries):
            self.add_slot(compare=False)
        while len(self.slots) > len(entries):
            self.remove_slot(self.slots[-1])
        for slot, e in zip(self.slots, entries):
            slot.box.blockSignals(True)
            slot.box.setCurrentIndex(self.catalog.row_of(e))
            slot.box.blockSignals(False)
        self._models_changed()

    def entries(self) -> list[ModelEntry]:
        return [e for e in (s.entry() for s in self.slots) if e is not None]

    def _models_changed(self, *_args) -> None:
        self._rebuild_columns()
        if self.text_mode.isChecked():
            self._schedule()

    def _rebuild_columns(self) -> None:
        n = len(self.slots)
        while len(self.columns) < n:
            col = _Column(self.columns_splitter)
            col.view.verticalScrollBar().valueChanged.connect(lambda v, c=col: self._sync_scroll(c, v))
            self.columns.append(col)
            self.columns_splitter.addWidget(col)
        while len(self.columns) > n:
            col = self.columns.pop()
            col.setParent(None)
            col.deleteLater()
        for i, (slot, col) in enumerate(zip(self.slots, self.columns)):
            e = slot.entry()
            # The same colour as the tokenizer's row in the table and its bars.
            name = self.catalog.label(e) if e else self.tr("(no tokenizer)")
            col.header.setText(f"<b style='color:{PALETTE[i % len(PALETTE)]}'>■</b> " + html.escape(name))
            col.retranslate(name)

    def _sync_scroll(self, source: _Column, value: int) -> None:
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

    # -- text mode -----------------------------------------------------------
    def set_sample_text(self, text: str) -> None:
        """Put ``text`` in the editor and compare on it; done once is_ready().

        The editor's document is built in a worker: on 200 KB, setPlainText and
        the layout after it took 25-60 ms of the GUI thread, a given document 5 ms.
        """
        self.text_mode.setChecked(True)
        self._comparing.cancel()
        self._abandon_showing()  # what is being shown is of the text replaced
        self._loading.run(make_document, text, self.editor.font(), cancellable=False,
                          on_result=self._text_loaded, name="compare text")

    def _text_loaded(self, doc: QTextDocument) -> None:
        self.editor.blockSignals(True)
        replace_document(self.editor, doc)
        self.editor.blockSignals(False)
        if self.text_mode.isChecked():
            self._comparing.soon()  # on the next turn: not with the editor's layout

    def _text_edited(self) -> None:
        if self.text_mode.isChecked():
            self._schedule()

    def _schedule(self) -> None:
        self._comparing.schedule()

    def _mode_toggled(self, button_id: int, checked: bool) -> None:
        if not checked:
            return
        self.pages.setCurrentIndex(button_id)
        if button_id == 0:
            # On the next turn of the event loop: at the first opening the pane
            # is built and shown before the worker loads the models, not while
            # that worker competes with it for the GIL.
            self._comparing.soon()
        else:
            # Text results still on their way must not replace corpus results.
            self._comparing.cancel()
            self._abandon_showing()
            self.status_label.clear()
            if not self.chart.is_drawn():
                # Not while the pane opens (see CompareChart): on the next turn.
                self._charts_pending = True
                QTimer.singleShot(0, self, self._draw_charts)

    def recompare(self) -> None:
        """Compare the chosen tokenizers on the text (in the background)."""
        self._abandon_showing()
        text = self.editor.toPlainText()
        if len(text) <= REMEMBER_CHARS:
            self._settings.set("text", text)  # nothing typed is lost, even if the app is killed
        entries = self.entries()
        if len(entries) < MIN_SLOTS:
            self._comparing.cancel()
            self._set_results([])
            self.ready.emit()
            return
        broken = [(e, self.catalog.broken_reason(e)) for e in entries]
        broken = [(e, reason) for e, reason in broken if reason is not None]
        if broken:
            # Said once in a dialog when it failed; later edits just say it here.
            self._comparing.cancel()
            self.status_label.setText(self.tr("{name} could not be loaded: {reason}")
                                      .format(name=broken[0][0].name, reason=broken[0][1]))
            self.ready.emit()
            return
        font = self.columns[0].view.font() if self.columns else han_font(14)
        self.status_label.setText(self.tr("Comparing…"))
        self._comparing.run(compare_text, self.catalog, entries, text, font,
                           on_result=self._show_text, on_failed=self._failed, name="compare")

    def _show_text(self, result: TextComparison) -> None:
        # One step per turn of the event loop: each token view lays out its
        # new document (tens of milliseconds on 200 KB), and each of the two
        # charts is rebuilt; all of it in one turn froze the window for as long
        # as their sum.
        steps: list[Callable[[], None]] = [
            lambda col=col, data=data, doc=doc, trainer=trainer: self._show_column(col, data, doc, trainer)
            for col, (data, doc), trainer in zip(self.columns, result.views, result.trained_by)
        ]
        steps.append(lambda: self._show_table(result.results))
        steps.append(lambda: self.chart.draw_cpt(self.results))
        steps.append(self._show_lengths_chart)
        self._showing.start(steps)

    @staticmethod
    def _show_column(col: _Column, data: TokenizedText, doc: QTextDocument, trainer: str | None) -> None:
        col.view.set_tokenized(data, doc)
        col.set_trained_by(trainer)

    def _draw_charts(self) -> None:
        self._charts_pending = False
        if not self.chart.is_drawn():
            self.chart.set_results(self.results)

    def _abandon_showing(self) -> None:
        """Drop the steps of a text result not fully shown yet."""
        self._showing.clear()

    def _failed(self, error: BaseException | str) -> None:
        self.status_label.setText(self.tr("Comparison failed"))
        errors.show_error(self, error)
        self.ready.emit()

    # -- corpus mode ---------------------------------------------------------
    def files(self) -> list[str]:
        return self.file_list.paths()

    def add_files(self, paths: Sequence[str | Path]) -> None:
        self.file_list.add(paths)

    def _choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Corpus files"), self._settings.last_dir(), self.tr("Text files (*.txt);;All files (*)")
        )
        if paths:
            self._settings.remember_file(paths[0], "corpus")
            self.add_files(paths)

    def drop_files(self, paths: list[Path]) -> None:
        """Dropped files become corpus files."""
        self.corpus_mode.setChecked(True)
        self.add_files(paths)

    def open_file(self) -> None:
        """File > Open: add corpus files."""
        self.corpus_mode.setChecked(True)
        self._choose_files()

    def _remove_selected_files(self) -> None:
        self.file_list.remove_selected()

    def run_corpus(self) -> Job | None:
        """Measure the chosen tokenizers over the corpus files (in the background)."""
        files = self.files()
        entries = self.entries()
        if not files:
            errors.show_error(self, InputError("add at least one corpus file", code="compare.no_files"))
            return None
        if len(entries) < MIN_SLOTS:
            errors.show_error(self, InputError(f"choose at least {MIN_SLOTS} tokenizers",
                                               code="compare.few_tokenizers", count=MIN_SLOTS))
            return None
        job = Job(compare_files, self.catalog, entries, self.file_list.text_paths(), name="compare corpus")
        job.progress.connect(self._corpus_progress)
        job.finished.connect(self._corpus_finished)
        job.failed.connect(lambda msg, j=job: self._corpus_failed(j, msg))
        job.cancelled.connect(self._corpus_cancelled)
        job.ended.connect(lambda j=job: self._corpus_ended(j))
        self._corpus_job = job
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress_bar.setValue(0)
        self.progress_label.setText(self.tr("Starting…"))
        return job.start()

    def cancel_corpus(self) -> None:
        if self._corpus_job is not None:
            self._corpus_job.cancel()
            self.progress_label.setText(self.tr("Cancelling…"))

    def _corpus_progress(self, p: Progress) -> None:
        if p.fraction is not None:
            self.progress_bar.setValue(round(p.fraction * 1000))
        self.progress_label.setText(progress_text.describe(p))

    def _corpus_finished(self, results: list[CompareResult]) -> None:
        self.progress_bar.setValue(1000)
        lines, chars = (results[0].lines, results[0].chars) if results else (0, 0)
        self.progress_label.setText(self.tr("Done: %Ln line(s)", "", lines) + ", "
                                    + self.tr("%Ln character(s)", "", chars))
        self._set_results(results)

    def _corpus_failed(self, job: Job, message: str) -> None:
        self.progress_label.setText(self.tr("Failed: {}").format(message))
        errors.show_error(self, job.error or message)

    def _corpus_cancelled(self) -> None:
        self.progress_label.setText(self.tr("Cancelled"))

    def _corpus_ended(self, job: Job) -> None:
        if job is self._corpus_job:
            self._corpus_job = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def is_busy(self) -> bool:
        # Until its end has been handled here, not until its thread returned: the
        # results arrive by a queued signal after that (a caller reading them as
        # soon as the thread was done could see the previous ones).
        return self._corpus_job is not None

    def is_ready(self) -> bool:
        return not (self._showing.pending() or self._loading.pending() or self._comparing.pending() or self.is_busy()
                    or self._charts_pending or self.chart.redraw_pending())

    def shutdown(self) -> None:
        self._loading.shutdown()
        self._comparing.shutdown()
        if self._corpus_job is not None:
            self._corpus_job.cancel()
            self._corpus_job.wait(10)

    # -- results and export --------------------------------------------------
    def _set_results(self, results: list[CompareResult]) -> None:
        """The table at once, each chart on a later turn of the event loop: all three
        in one turn took 17-33 ms when a corpus comparison ended
        (``bench/bench_gui_stalls.py``, ``compare_corpus_737k``)."""
        self._showing.start([lambda: (self._show_table(results), self._results_shown()),
                             lambda: self.chart.draw_cpt(self.results), lambda: self.chart.draw_lengths(self.results)])

    def _show_table(self, results: list[CompareResult]) -> None:
        self.results = list(results)
        self.table.set_results(self.results)

    def _show_lengths_chart(self) -> None:
        """The last step of a text result (the step before drew the other chart)."""
        self.chart.draw_lengths(self.results)
        self._results_shown()
        self.status_label.clear()
        self.ready.emit()

    def _results_shown(self) -> None:
        for b in self.export_buttons.values():
            b.setEnabled(bool(self.results))
        self.resultsChanged.emit(self.results)

    def save_file(self) -> None:
        """File > Save: export the report."""
        self._choose_export("md")

    def _choose_export(self, fmt: str) -> None:
        if not self.results:
            return
        filters = {f: label for f, _, label in EXPORTS}
        filters["png"] = self.tr("PNG image (*.png)")
        suffix = {f: sfx for f, sfx, _ in EXPORTS} | {"png": ".png"}
        start = str(Path(self._settings.last_dir()) / f"comparison{suffix[fmt]}")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export report"), start, filters[fmt])
        if path:
            self.export(path, fmt)

    def export(self, path: str | Path, fmt: str | None = None) -> None:
        """Write the report (csv, json, md) or the chart (png), atomically."""
        path = Path(path)
        if fmt is None:
            fmt = {".csv": "csv", ".json": "json", ".md": "md", ".png": "png"}.get(path.suffix.lower(), "md")
        with errors.reported(self):
            if not self.results:
                raise InputError("nothing to export yet: run a comparison first", code="compare.nothing_to_export")
            if fmt == "png":
                save_chart_png(self.results, path)
            else:
                atomic_write_text(path, format_results(self.results, fmt))
            self._settings.remember_file(path, "reports")
            self.status_label.setText(self.tr("Saved {}").format(path.name))

