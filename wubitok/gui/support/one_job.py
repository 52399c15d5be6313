"""A panel that runs one :class:`~.workers.Job` at a time behind a Run and a Cancel button, with a
progress bar and label (Compare's corpus mode and its language-model test): the one place that
starts the job, shows its progress, cancels it, says what a failure shows, when the buttons come
back and what busy means.  The panel gives the job and what its result does."""
from __future__ import annotations

from typing import Callable

import shiboken6
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QWidget

from ...progress import Progress
from . import errors, live_text, progress_text
from .workers import Job


class RunsOneJob:
    """Mixed into a QWidget that sets these four attributes."""

    _job: Job | None
    progress_bar: QProgressBar
    progress_label: QLabel
    run_button: QPushButton
    cancel_button: QPushButton

    def _start(self, job: Job, on_result: Callable[..., None]) -> Job:
        # Each slot first asks whether the panel is still there: a job can end after the panel
        # was deleted (a test's teardown, the window closed), and then its buttons are gone.
        job.progress.connect(lambda p: self._alive() and self._progress(p))
        job.finished.connect(lambda result: self._alive() and on_result(result))
        job.failed.connect(lambda msg, j=job: self._alive() and self._failed(j, msg))
        job.cancelled.connect(lambda: self._alive() and live_text.set_text(
            self.progress_label, lambda: QCoreApplication.translate("RunsOneJob", "Cancelled")))
        job.ended.connect(lambda j=job: self._alive() and self._ended(j))
        self._job = job
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress_bar.setValue(0)
        live_text.set_text(self.progress_label, lambda: QCoreApplication.translate("RunsOneJob", "Starting…"))
        return job.start()

    def _alive(self) -> bool:
        """The panel and its buttons are not deleted yet."""
        return all(shiboken6.isValid(w) for w in (self, self.run_button, self.cancel_button, self.progress_label))

    def cancel(self) -> None:
        if self._job is not None:
            self._job.cancel()
            live_text.set_text(self.progress_label, lambda: QCoreApplication.translate("RunsOneJob", "Cancelling…"))

    def _progress(self, p: Progress) -> None:
        if p.fraction is not None:
            self.progress_bar.setValue(round(p.fraction * 1000))
        live_text.set_text(self.progress_label, lambda: progress_text.describe(p))

    def _failed(self, job: Job, message: str) -> None:
        live_text.set_text(self.progress_label,
                           lambda: QCoreApplication.translate("RunsOneJob", "Failed: {}").format(message))
        assert isinstance(self, QWidget)
        errors.show_error(self, job.error or message)

    def _ended(self, job: Job) -> None:
        if job is self._job:
            self._job = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def is_busy(self) -> bool:
        # Until its end has been handled here, not until its thread returned: the
        # results arrive by a queued signal after that (a caller reading them as
        # soon as the thread was done could see the previous ones).
        return self._job is not None

    def shutdown(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job.wait(10)
