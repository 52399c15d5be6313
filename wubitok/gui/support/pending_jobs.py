"""Quick background calls whose results a pane is still waiting for.

A pane that runs each search or conversion in the thread pool needs to know
when every result has been *handled* (for ``is_ready()``), not just computed:
a job is done before its ``finished`` signal reaches the GUI thread.  Its
``ended`` signal comes after the results, so a job leaves the set then.
Slots are connected before the job starts, since a quick job can end before
``start()`` returns.
"""
from __future__ import annotations

from typing import Any, Callable

from PySide6.QtWidgets import QWidget

from . import errors
from .workers import Job


class PendingJobs:
    def __init__(self, owner: QWidget):
        self._owner = owner  # parent of the error dialogs
        self._jobs: set[Job] = set()

    def start(self, fn: Callable[..., Any], *args: Any, on_finished: Callable[[Any], None]) -> Job:
        """Run ``fn(*args)`` in the pool; ``on_finished(result)`` on success, a dialog on failure."""
        job = Job(fn, *args, pass_progress=False, pass_cancel=False)
        self._jobs.add(job)
        job.finished.connect(on_finished)
        job.failed.connect(lambda _message: errors.show_error(self._owner, job.error))
        job.ended.connect(lambda: self._jobs.discard(job))
        return job.start()

    def __bool__(self) -> bool:
        return bool(self._jobs)

    def wait(self, timeout: float = 5.0) -> None:
        """Block until running calls return (closing the window)."""
        for job in list(self._jobs):
            job.wait(timeout)
