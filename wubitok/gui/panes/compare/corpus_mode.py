"""Compare's corpus mode: the corpus picker, Run and Cancel, progress, and the
worker that measures the chosen tokenizers over the files (in the worker
processes, batch by batch, with the library's ``compare_tokenizers``)."""
from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from ....compare import compare_tokenizers
from ....compare.metrics import CompareResult
from ....fileio import TextPath
from ....services.encode_pool import ModelRef, measure_corpus_batch, shared_pool
from ...support import live_text
from ...support.model_catalog import ModelCatalog, ModelEntry
from ...support.one_job import RunsOneJob
from ...support.settings import Settings
from ...support.workers import Job
from ...widgets.corpus_picker import CorpusPicker
from .text_mode import model_summaries


def compare_files(
    catalog: ModelCatalog, entries: Sequence[ModelEntry], files: Sequence[str], *, progress, cancel
) -> list[CompareResult]:
    """Worker body of corpus mode: batches are measured in the worker processes."""
    pairs = model_summaries(catalog, entries, cancel)
    refs = [(name, ModelRef.of(e.path, e.kind)) for (name, _), e in zip(pairs, entries)]
    pool = shared_pool()

    def measure(batches, unit):
        return pool.map(measure_corpus_batch, (refs, unit), batches, cancel=cancel)

    return compare_tokenizers(pairs, files=files, progress=progress, cancel=cancel, measure=measure)



class CorpusPage(RunsOneJob, QWidget):
    """Files, Run/Cancel, a progress bar and line; ``finished`` with the results."""

    finished = Signal(list)  # list[CompareResult]

    def __init__(self, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.picker = CorpusPicker(settings, self)
        self.run_button = QPushButton(self)
        self.cancel_button = QPushButton(self)
        self.cancel_button.setEnabled(False)
        self.picker.add_button(self.run_button)
        self.picker.add_button(self.cancel_button)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setValue(0)
        self.progress_label = QLabel(self)
        self.progress_label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.picker, 1)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.progress_label)
        self.cancel_button.clicked.connect(self.cancel)
        self._job: Job | None = None

    def retranslate_ui(self) -> None:
        self.picker.retranslate_ui()
        self.run_button.setText(self.tr("Run comparison"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.progress_bar.setAccessibleName(self.tr("Comparison progress"))
        live_text.refresh(self)

    def run(self, catalog: ModelCatalog, entries: Sequence[ModelEntry], files: Sequence[TextPath | str]) -> Job:
        return self._start(Job(compare_files, catalog, entries, files, name="compare corpus"), self._finished)

    def _finished(self, results: list[CompareResult]) -> None:
        self.progress_bar.setValue(1000)
        lines, chars = (results[0].lines, results[0].chars) if results else (0, 0)
        live_text.set_text(self.progress_label, lambda: self.tr("Done: %Ln line(s)", "", lines) + ", "
                           + self.tr("%Ln character(s)", "", chars))
        self.finished.emit(results)
