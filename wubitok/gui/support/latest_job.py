""""Latest request wins": the background call behind a pane's live view.

A pane that searches, converts or tokenizes as the user types starts a new
background call on every edit.  Only the newest one matters: the call before
it is cancelled (if it takes ``cancel``) and its result, should it still
arrive, is dropped, so an old answer never replaces a newer one.  Bursts of
keys are debounced: :meth:`LatestJob.schedule` restarts a timer, and only when
typing pauses does the pane's ``start`` callback read its inputs and call
:meth:`LatestJob.run`.

::

    self._search = LatestJob(self, debounce_ms=150, start=self.run_search)
    self.search_box.textChanged.connect(self._search.schedule)

    def run_search(self):
        self._search.run(search, self.search_box.text(), on_result=self._show)

    def is_ready(self):
        return not self._search.pending()

A failure of the newest call shows the error dialog (or goes to ``on_failed``).
``pending()`` stays True until the newest result has been *handled*, not just
computed: screenshots and tests wait for what the pane shows.
"""
from __future__ import annotations

from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

from . import errors
from .workers import Job


class LatestJob(QObject):
    """One stream of requests of a pane; see the module doc."""

    def __init__(self, owner: QWidget, *, debounce_ms: int = 0, start: Callable[[], None] | None = None):
        super().__init__(owner)
        self._owner = owner  # parent of the error dialogs
        self._current: Job | None = None  # the newest job, until its result is handled
        self._running: set[Job] = set()  # every job not ended yet, stale ones included (for shutdown)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._debounce_ms = debounce_ms
        if start is not None:
            self._timer.timeout.connect(start)

    def schedule(self, *_signal_args: Any) -> None:
        """Call ``start`` once the debounce interval passes without another schedule().

        The request running now answers an older input: it is cancelled at once.
        """
        self.cancel()
        self._timer.start(self._debounce_ms)

    def soon(self) -> None:
        """Call ``start`` on the next turn of the event loop (no debounce), superseding any earlier call.

        For a request made while the GUI thread still has work of its own to
        finish (building and showing a pane): the worker starts after it, not
        while it runs, competing for the GIL.
        """
        self.cancel()
        self._timer.start(0)

    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], None],
        on_failed: Callable[[BaseException | str], None] | None = None,
        cancellable: bool = True,
        name: str = "",
    ) -> Job:
        """Run ``fn(*args)`` now (``cancel=`` too when ``cancellable``), superseding any earlier call.

        ``on_result(result)`` gets the result if no newer run() came meanwhile;
        a failure goes to ``on_failed(error)`` or else to an error dialog.
        """
        self.cancel()
        job = Job(fn, *args, name=name, pass_progress=False, pass_cancel=cancellable)
        # Connected before start(): a quick job can end before start() returns.
        job.finished.connect(lambda result: self._handle(job, on_result, result))
        job.failed.connect(lambda message: self._handle(job, on_failed or self._show_error, job.error or message))
        job.cancelled.connect(lambda: self._handle(job, None, None))
        job.ended.connect(lambda: self._running.discard(job))
        self._current = job
        self._running.add(job)
        return job.start()

    def _handle(self, job: Job, slot: Callable[[Any], None] | None, value: Any) -> None:
        if job is not self._current:
            return  # superseded: a newer request's answer is on its way (or none is wanted)
        if not shiboken6.isValid(self._owner):
            return  # the pane was closed and deleted while the job ran: nothing left to show it in
        self._current = None
        if slot is not None:
            slot(value)

    def _show_error(self, error: BaseException | str) -> None:
        errors.show_error(self._owner, error)

    def cancel(self) -> None:
        """Forget the pending request: stop the timer, cancel the running call, drop its result."""
        self._timer.stop()
        if self._current is not None:
            self._current.cancel()
            self._current = None

    def pending(self) -> bool:
        """True while a request waits for the timer or its result has not been handled yet."""
        return self._timer.isActive() or self._current is not None

    def shutdown(self, timeout: float = 10.0) -> None:
        """Cancel, and wait for every call still running (closing the pane)."""
        self.cancel()
        for job in list(self._running):
            job.cancel()
            job.wait(timeout)
