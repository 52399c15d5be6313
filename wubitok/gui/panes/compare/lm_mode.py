"""Compare's language-model run (corpus mode): one small model per chosen tokenizer on the corpus files.

The same run as ``wubitok lm-eval`` (:mod:`wubitok.services.lm_eval`), in a
process of its own (:mod:`wubitok.services.lm_eval_process`) so the window
never waits for PyTorch: a progress bar, a Cancel that ends it, and a chart of
bits per character with its interval.  The corpus files train; the last tenth
of their text is the test text.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ....fileio import TextPath
from ....lm.experiment import LmConfig, LmEvalResult
from ....services.lm_eval import LmEvalRequest
from ....services.lm_eval_process import lm_eval_in_process
from ...support import errors, live_text
from ...support.model_catalog import ModelEntry
from ...support.one_job import RunsOneJob
from ...support.workers import Job
from .lm_chart import LmChart

# What the run needs from the pane: its tokenizers and its corpus files (raising the user's error when none).
Sources = Callable[[], tuple[Sequence[ModelEntry], Sequence[TextPath | str]]]


class LmPanel(RunsOneJob, QGroupBox):
    def __init__(self, sources: Sources, parent: QWidget | None = None):
        super().__init__(parent)
        self._sources = sources
        self.quick_box = QCheckBox(self)
        self.quick_box.setChecked(True)
        self.seeds_label = QLabel(self)
        self.seeds_box = QSpinBox(self)
        self.seeds_box.setRange(1, 10)
        self.seeds_box.setValue(3)
        self.seeds_label.setBuddy(self.seeds_box)
        self.run_button = QPushButton(self)
        self.cancel_button = QPushButton(self)
        self.cancel_button.setEnabled(False)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setRange(0, 1000)
        self.progress_label = QLabel(self)
        self.progress_label.setWordWrap(True)
        self.chart = LmChart(self)
        row = QHBoxLayout()
        for w in (self.quick_box, self.seeds_label, self.seeds_box, self.run_button, self.cancel_button):
            row.addWidget(w)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.chart)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.config = LmConfig()  # the model and its training, without Quick (seeds from the box)
        self._job: Job | None = None
        self.result: LmEvalResult | None = None
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.setTitle(self.tr("Language-model test: does a tokenizer help a model predict the text?"))
        self.quick_box.setText(self.tr("Quick"))
        self.quick_box.setToolTip(self.tr("300 steps, 64-character windows, the first million characters: minutes"))
        self.quick_box.setAccessibleName(self.tr("Quick language-model test"))
        self.seeds_label.setText(self.tr("Seeds:"))
        self.seeds_box.setAccessibleName(self.tr("Seeds"))
        # Tab lands in the spin box's own text field: a screen reader says that one's name.
        self.seeds_box.findChild(QLineEdit).setAccessibleName(self.tr("Seeds"))
        self.run_button.setText(self.tr("Train language models"))
        self.run_button.setToolTip(self.tr(
            "One small model per tokenizer, the same shape, training characters and steps for each; the last "
            "tenth of the corpus is the test text"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setAccessibleName(self.tr("Cancel the language-model test"))
        self.progress_bar.setAccessibleName(self.tr("Language-model test progress"))
        live_text.refresh(self)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt name)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)

    def request(self) -> LmEvalRequest:
        entries, files = self._sources()
        config = replace(self.config, seeds=tuple(range(self.seeds_box.value())))
        request = LmEvalRequest([str(e.path) for e in entries], list(files), config=config)
        return request.quick() if self.quick_box.isChecked() else request

    def run(self) -> Job | None:
        with errors.reported(self):
            return self._start(Job(lm_eval_in_process, self.request(), name="lm-eval"), self._finished)
        return None

    def _finished(self, result: LmEvalResult) -> None:
        self.result = result
        self.progress_bar.setValue(1000)
        chars = result.test_chars
        live_text.set_text(self.progress_label, lambda: self.tr(
            "Done: %Ln test character(s). Held equal: the model's shape without embeddings, the training "
            "characters per step, the steps and the seeds.", "", chars))
        self.chart.set_result(result)
