"""The end of a job for a panel that runs one :class:`~.workers.Job` at a time behind a Run and a
Cancel button with a progress label (Compare's corpus mode and its language-model test): the one
place that says what a failure shows, when the buttons come back and what busy means."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from . import errors, live_text
from .workers import Job


class RunsOneJob:
    """Mixed into a QWidget that sets these four attributes."""

    _job: Job | None
    progress_label: QLabel
    run_button: QPushButton
    cancel_button: QPushButton

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
