"""Background jobs for the GUI: anything slower than a few ms runs here.

A :class:`Job` wraps a library call and runs it on a ``QThreadPool``.  The
call gets ``progress`` and ``cancel`` keyword arguments exactly as the
library's long operations take them (``progress(stage, done, total)`` and a
``threading.Event``), so the GUI adds no logic of its own to a job.
Progress arrives as :class:`wubitok.progress.Progress` snapshots (rate and
ETA measured by the library's :class:`~wubitok.progress.ProgressMeter`).

Signals are emitted from the pool thread; Qt queues them to the thread the
``Job`` lives in (the GUI thread), so slots may touch widgets.  Progress is
throttled: a library that reports every 1% of a fast loop would otherwise
flood the event queue.
"""
from __future__ import annotations

import sys
import threading
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from ...errors import Cancelled, WubitokError
from ...progress import Progress, ProgressMeter
from . import gc_pauses

# At most one progress signal per this many seconds (stage changes and the
# final "done == total" always go through).
PROGRESS_INTERVAL = 0.05


class _Runnable(QRunnable):
    def __init__(self, job: "Job"):
        super().__init__()
        self._job: Job | None = job
        # The Job object keeps this alive; Qt must not delete the wrapper under Python.
        self.setAutoDelete(False)

    def run(self) -> None:
        job, self._job = self._job, None  # no Job <-> runnable cycle left behind (gc_pauses)
        if job is not None:
            with gc_pauses.paused():
                job._run()


# Jobs that are running; a Job must outlive its runnable even if the caller
# drops its reference (a fire-and-forget model load, for example).
_ACTIVE: set["Job"] = set()


class Job(QObject):
    """Run ``fn(*args, progress=..., cancel=..., **kwargs)`` in the thread pool.

    Exactly one of ``finished(result)``, ``failed(message)`` or ``cancelled()``
    is emitted at the end, followed by ``ended()``.  ``failed`` carries a
    one-line message for a :class:`WubitokError`; any other exception is a bug,
    and its message says so (the traceback goes to stderr).  ``error`` holds
    the exception itself after a failure, for dialogs that want its class.
    """

    progress = Signal(object)  # Progress
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    ended = Signal()

    def __init__(
        self,
        fn: Callable[..., Any],
        *args: Any,
        name: str = "",
        pass_progress: bool = True,
        pass_cancel: bool = True,
        **kwargs: Any,
    ):
        # No Qt parent: a widget closed mid-job must not delete the Job under
        # the pool thread that is about to emit from it.
        super().__init__()
        self.name = name or getattr(fn, "__name__", "job")
        self._fn = fn
        self._args = args
        self._kwargs = kwargs
        self._pass_progress = pass_progress
        self._pass_cancel = pass_cancel
        self.cancel_event = threading.Event()
        self._meter = ProgressMeter(interval=PROGRESS_INTERVAL)
        self._runnable: _Runnable | None = None
        self._done = threading.Event()
        self.error: BaseException | None = None
        self.result: Any = None
        self.last_progress: Progress | None = None

    # -- control (GUI thread) -------------------------------------------------
    def start(self, pool: QThreadPool | None = None) -> "Job":
        if self._runnable is not None:
            raise RuntimeError("a Job runs once")
        _ACTIVE.add(self)
        self.ended.connect(self._release)
        self._runnable = _Runnable(self)
        (pool or QThreadPool.globalInstance()).start(self._runnable)
        return self

    def cancel(self) -> None:
        """Ask the library call to stop; it raises ``Cancelled`` at its next check."""
        self.cancel_event.set()

    def is_running(self) -> bool:
        return self._runnable is not None and not self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the call returns (for shutdown and tests; never in a slot)."""
        return self._done.wait(timeout)

    def _release(self) -> None:
        _ACTIVE.discard(self)

    # -- pool thread ----------------------------------------------------------
    def _report(self, stage: str, done: int, total: int) -> None:
        info = self._meter.update(stage, done, total)
        if info is not None:
            self.last_progress = info
            self.progress.emit(info)

    def _run(self) -> None:
        kwargs = dict(self._kwargs)
        if self._pass_progress:
            kwargs["progress"] = self._report
        if self._pass_cancel:
            kwargs["cancel"] = self.cancel_event
        try:
            result = self._fn(*self._args, **kwargs)
            if self.cancel_event.is_set():
                # Finished before it noticed; the user asked to stop, so say cancelled.
                raise Cancelled("cancelled")
        except Cancelled:
            self._done.set()
            self.cancelled.emit()
        except WubitokError as exc:
            self.error = exc
            self._done.set()
            self.failed.emit(str(exc))
        except Exception as exc:  # a bug: keep the app alive, say so, log the traceback
            self.error = exc
            traceback.print_exc(file=sys.stderr)
            self._done.set()
            self.failed.emit(f"internal error in {self.name}: {type(exc).__name__}: {exc}")
        else:
            self.result = result
            self._done.set()
            self.finished.emit(result)
        self.ended.emit()


def run_job(
    fn: Callable[..., Any],
    *args: Any,
    on_finished: Callable[[Any], None] | None = None,
    on_failed: Callable[[str], None] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    on_cancelled: Callable[[], None] | None = None,
    **kwargs: Any,
) -> Job:
    """Create a :class:`Job`, connect the given slots and start it."""
    job = Job(fn, *args, **kwargs)
    if on_finished:
        job.finished.connect(on_finished)
    if on_failed:
        job.failed.connect(on_failed)
    if on_progress:
        job.progress.connect(on_progress)
    if on_cancelled:
        job.cancelled.connect(on_cancelled)
    return job.start()
