"""Compare: 2 to 4 tokenizers on the same text, or measured over corpus files.

Text mode shows each tokenizer's tokens side by side (coloured like the
Tokenize pane, scrolling together) and measures them with
``wubitok.compare.compare``; corpus mode runs the same function over files
in a worker with progress and cancel.  The metrics table, the chart and
the exported reports all show exactly the library's ``CompareResult``s.

This module holds the pane (tokenizer choosers, modes, results, export);
``text_mode``, ``corpus_mode``, ``metrics_table`` and ``chart`` its parts.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Iterator, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ....compare.metrics import CompareResult
from ....compare.report import format_results
from ....errors import InputError
from ....fileio import atomic_write_text
from ...support import errors, live_text
from ...support.document_text import DocumentText
from ...support.fonts import han_font
from ...support.latest_job import LatestJob
from ...support.model_catalog import EntryRole, ModelCatalog, ModelEntry, shared_catalog
from ...support.settings import Settings
from ...support.steps import Steps
from ...support.workers import Job
from ...widgets.long_paste_edit import LongPasteEdit
from ...widgets.report_chart import save_chart_png
from ...widgets.token_view import TokenizedText, make_document, replace_document
from ..base import Pane
from .chart import CompareChart
from .corpus_mode import CorpusPage
from .lm_mode import LmPanel
from .metrics_table import MetricsTable
from .text_mode import TextComparison, TokenColumn, TokenColumns, compare_text

MIN_SLOTS, MAX_SLOTS = 2, 4
DEBOUNCE_MS = 300
REMEMBER_CHARS = 100_000
SAMPLE_TEXT = "床前明月光，疑是地上霜。举头望明月，低头思故乡。\nTokenizers split 中文 text differently."

# Report formats offered for export: (format name of compare.report, file suffix, filter label).
EXPORTS = (("csv", ".csv", "CSV (*.csv)"), ("json", ".json", "JSON (*.json)"), ("md", ".md", "Markdown (*.md)"))


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
        self.results: list[CompareResult] = []
        self._showing = Steps(self)  # a result in steps: a text one (see _show_text), a corpus one (_set_results)
        self.slots: list[_Slot] = []
        self.build(self._parts(), in_steps)

    def _parts(self) -> Iterator[None]:
        # Containers first, then each widget made inside its final parent: with the
        # app's style sheet, moving a built subtree into another parent restyles all
        # of it again, and building bottom-up did that once per level (about half
        # of the pane's build time).
        layout = self.scrolling_layout()
        self._build_choosers(layout.parentWidget())  # first: they come first in Tab order
        self.main_splitter = QSplitter(Qt.Orientation.Vertical, layout.parentWidget())
        self.pages = QStackedWidget(self.main_splitter)
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
        self.set_main_input(self.editor)
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
        self.corpus_page.retranslate_ui()
        self.lm_panel.retranslate_ui()
        self.export_label.setText(self.tr("Export report:"))
        self.export_buttons["png"].setText(self.tr("PNG chart"))
        self.table.setAccessibleName(self.tr("Metrics"))
        self.table.set_results(self.results)
        for slot in self.slots:
            slot.retranslate()
        self._rebuild_columns()
        live_text.refresh(self)

    def _build_choosers(self, content: QWidget) -> None:
        self.slot_row = QHBoxLayout()
        self.tokenizers_label = QLabel(content)
        self.add_button = QPushButton(content)
        self.mode_label = QLabel(content)
        self.text_mode = QRadioButton(content)
        self.corpus_mode = QRadioButton(content)
        self._mode_group = QButtonGroup(self)
        self._mode_group.addButton(self.text_mode, 0)
        self._mode_group.addButton(self.corpus_mode, 1)

    def _build_text_page(self, pages: QStackedWidget) -> None:
        self.text_page = QWidget(pages)
        self.editor = LongPasteEdit(self.text_page)  # a megabyte pasted goes in a piece per turn
        self.editor.setFont(han_font(12))
        self.editor.setMaximumHeight(90)
        # The text, kept in step edit by edit: toPlainText copied the whole document on the GUI
        # thread at each comparison (90-200 ms at 10 MB) and turned no-break spaces into spaces.
        self._document_text = DocumentText(self.editor.document(), self)
        self.columns_splitter = TokenColumns(self.text_page)
        tl = QVBoxLayout(self.text_page)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.editor)
        tl.addWidget(self.columns_splitter, 1)

    def _build_corpus_page(self, pages: QStackedWidget) -> None:
        page = self.corpus_page = CorpusPage(self._settings, pages)
        # The page's parts, as the pane's own (tests and callers reach them here).
        self.picker = page.picker
        self.file_list, self.encoding_box = page.picker.file_list, page.picker.encoding_box
        self.remove_files_button = page.picker.remove_files_button
        self.run_button, self.cancel_button = page.run_button, page.cancel_button
        self.progress_bar, self.progress_label = page.progress_bar, page.progress_label

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
        # The language-model test on the corpus files (lm_mode): with the results, so the corpus page keeps its
        # height; shown in corpus mode only (_mode_toggled).
        self.lm_panel = LmPanel(lambda: (self.entries(), self.picker.text_paths()), box)
        self.lm_panel.setVisible(False)

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
        rl.addWidget(self.lm_panel)

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
        self.run_button.clicked.connect(self.run_corpus)
        self.corpus_page.finished.connect(self._set_results)

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
        self.picker.restore(s.get_list("files"), s.get_list("encodings"))
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
        text = self._document_text.text()
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

    @property
    def columns(self) -> list[TokenColumn]:
        return self.columns_splitter.columns

    def _rebuild_columns(self) -> None:
        self.columns_splitter.set_names(
            [self.catalog.label(e) if e else self.tr("(no tokenizer)") for e in (s.entry() for s in self.slots)])
        self._update_tab_order()

    def _update_tab_order(self) -> None:
        """Tab top to bottom: the choosers, the text or the corpus files, then the results.
        Tokenizer choosers come and go, and Qt's order (that of creation) would put
        a new one last."""
        picker = self.picker
        chain: list[QWidget] = [self.add_button, self.text_mode, self.corpus_mode]
        for slot in self.slots:
            chain += [slot.box, slot.remove_button]
        chain += [self.editor, *(c.view for c in self.columns)]
        chain += [picker.file_list, picker.add_files_button, picker.remove_files_button, picker.encoding_box,
                  self.run_button, self.cancel_button]
        chain += [self.table, *self.export_buttons.values()]
        chain += [self.lm_panel.quick_box, self.lm_panel.seeds_box, self.lm_panel.run_button,
                  self.lm_panel.cancel_button]
        for a, b in zip(chain, chain[1:]):
            QWidget.setTabOrder(a, b)

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
        self._document_text.follow(doc)
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
        self.lm_panel.setVisible(button_id == 1)
        if button_id == 0:
            # On the next turn of the event loop: at the first opening the pane
            # is built and shown before the worker loads the models, not while
            # that worker competes with it for the GIL.
            self._comparing.soon()
        else:
            # Text results still on their way must not replace corpus results.
            self._comparing.cancel()
            self._abandon_showing()
            live_text.clear(self.status_label)

    def recompare(self) -> None:
        """Compare the chosen tokenizers on the text (in the background)."""
        self._abandon_showing()
        text = self._document_text.text()
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
            name, reason = broken[0][0].name, broken[0][1]
            live_text.set_text(self.status_label, lambda: self.tr("{name} could not be loaded: {reason}")
                               .format(name=name, reason=reason))
            self.ready.emit()
            return
        font = self.columns[0].view.font() if self.columns else han_font(14)
        live_text.set_text(self.status_label, lambda: self.tr("Comparing…"))
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
        steps.append(self._show_chart)
        self._showing.start(steps)

    def _show_column(self, col: TokenColumn, data: TokenizedText, doc: QTextDocument, trainer: str | None) -> None:
        col.view.set_tokenized(data, doc)
        col.set_trained_by(trainer)
        self.columns_splitter.align_captions()

    def _abandon_showing(self) -> None:
        """Drop the steps of a text result not fully shown yet."""
        self._showing.clear()

    def _failed(self, error: BaseException | str) -> None:
        live_text.set_text(self.status_label, lambda: self.tr("Comparison failed"))
        errors.show_error(self, error)
        self.ready.emit()

    # -- corpus mode ---------------------------------------------------------
    def files(self) -> list[str]:
        return self.picker.paths()

    def add_files(self, paths: Sequence[str | Path]) -> None:
        self.picker.add(paths)

    def drop_files(self, paths: list[Path]) -> None:
        """Dropped files become corpus files."""
        self.corpus_mode.setChecked(True)
        self.add_files(paths)

    def open_file(self) -> None:
        """File > Open: add corpus files."""
        self.corpus_mode.setChecked(True)
        self.picker.choose_files()

    def run_corpus(self) -> Job | None:
        """Measure the chosen tokenizers over the corpus files (in the background)."""
        entries = self.entries()
        with errors.reported(self):
            files = self.picker.text_paths()
            if len(entries) < MIN_SLOTS:
                raise InputError(f"choose at least {MIN_SLOTS} tokenizers", code="compare.few_tokenizers",
                                 count=MIN_SLOTS)
            return self.corpus_page.run(self.catalog, entries, files)
        return None

    def cancel_corpus(self) -> None:
        self.corpus_page.cancel()

    def is_busy(self) -> bool:
        return self.corpus_page.is_busy()

    def is_ready(self) -> bool:
        return not (self.editor.is_pasting() or self._showing.pending() or self._loading.pending()
                    or self._comparing.pending() or self.is_busy())

    def shutdown(self) -> None:
        self._loading.shutdown()
        self._comparing.shutdown()
        self.corpus_page.shutdown()
        self.lm_panel.shutdown()

    # -- results and export --------------------------------------------------
    def _set_results(self, results: list[CompareResult]) -> None:
        """The table at once, the chart on a later turn of the event loop."""
        self._showing.start([lambda: (self._show_table(results), self._results_shown()),
                             lambda: self.chart.set_results(self.results)])

    def _show_table(self, results: list[CompareResult]) -> None:
        self.results = list(results)
        self.table.set_results(self.results)

    def _show_chart(self) -> None:
        """The last step of a text result."""
        self.chart.set_results(self.results)
        self._results_shown()
        live_text.clear(self.status_label)
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
                # The chart as the pane shows it, in the UI language, with a title (light, for print).
                texts = dataclasses.replace(self.chart.texts(), title=self.tr("Tokenizer comparison"))
                save_chart_png(self.results, path, texts=texts)
            else:
                atomic_write_text(path, format_results(self.results, fmt))
            self._settings.remember_file(path, "reports")
            live_text.set_text(self.status_label, lambda: self.tr("Saved {}").format(path.name))

