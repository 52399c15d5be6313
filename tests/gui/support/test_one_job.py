"""RunsOneJob: a job that ends after its panel was deleted touches none of the panel's widgets."""
from __future__ import annotations

import threading

import shiboken6
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QWidget

from wubitok.gui.support.one_job import RunsOneJob
from wubitok.gui.support.workers import Job


class Panel(QWidget, RunsOneJob):
    def __init__(self):
        super().__init__()
        self._job = None
        self.progress_bar = QProgressBar(self)
        self.progress_label = QLabel(self)
        self.run_button = QPushButton(self)
        self.cancel_button = QPushButton(self)


def test_a_job_ending_after_its_panel_was_deleted_is_quiet(qtbot):
    panel = Panel()
    go = threading.Event()
    results = []
    job = Job(lambda: go.wait(10) and 42, name="outlives its panel", pass_progress=False, pass_cancel=False)
    ended = []
    job.ended.connect(lambda: ended.append(True))
    panel._start(job, results.append)
    shiboken6.delete(panel)  # the panel and its buttons are gone; the job is not
    go.set()
    qtbot.waitUntil(lambda: bool(ended), timeout=10_000)  # no exception in the event loop (pytest-qt fails on one)
    assert results == []
