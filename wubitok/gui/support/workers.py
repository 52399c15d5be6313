"""Background jobs for the GUI: anything slower than a few ms runs here.

A :class:`Job` wraps a library call and runs it on a ``QThreadPool``.  The
call gets ``progress`` and ``cancel`` keyword arguments exactly as the
library's long operations take them (``progress(stage, done, total)`` and a
``threading.Event``), so the GUI adds no logic of its own to a job.

Signals are emitted from the pool thread; Qt queues them to the thread the
``Job`` lives in (the GUI thread), so slots may touch widgets.  Progress is
throttled: a library that reports every 1% of a fast loop would otherwise
flood the event queue.
"""
from __future__ import annotations

import sys
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from ...errors import Cancelled, WubitokError

# At most one progress signal per this many seconds (stage changes and the
# final "done == total" always go through).
PROGRESS_INTERVAL = 0.05


@dataclass(frozen=True)
class Progress:
    """One progress report, with the rate and ETA of its stage."""

    stage: str
    done: int
    total: int  # 0 when unknown
    rate: float  # units of ``done`` per second in this stage; 0.0 until measurable
    eta: float | None  # seconds left in this stage, None when unknown

    @property
    def fraction(self) -> float | None:
        if self.total <= 0:
            return None
        return min(1.0, max(0.0, self.done / self.total))

    def describe(self) -> str:
        """Short text for a status line: 'merging 1,200 / 5,000 · 830/s · ETA 5 s'."""
        parts = [self.stage]
        parts.append(f"{self.done:,} / {self.total:,}" if self.total > 0 else f"{self.done:,}")
        if self.rate > 0:
            parts.append(f"{_human_rate(self.rate)}/s")
        if self.eta is not None:
            parts.append(f"ETA {_human_seconds(self.eta)}")
        return " · ".join(parts)


def _human_rate(rate: float) -> str:
    if rate >= 1e6:
        return f"{rate / 1e6:.1f}M"
    if rate >= 1e4:
        return f"{rate / 1e3:.0f}k"
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}"


def _human_seconds(seconds: float) -> str:
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class ProgressMeter:
    """Turns raw ``(stage, done, total)`` calls into :class:`Progress` with rate and ETA.

    Rate is measured from the first report of the current stage, so a stage
    that starts half-way (resumed counts) is not credited with work done
    before it.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._stage: str | None = None
        self._t0 = 0.0
        self._done0 = 0

    def update(self, stage: str, done: int, total: int) -> Progress:
        now = self._clock()
        if stage != self._stage:
            self._stage, self._t0, self._done0 = stage, now, done
        elapsed = now - self._t0
        rate = (done - self._done0) / elapsed if elapsed > 0 and done > self._done0 else 0.0
        eta = (total - done) / rate if rate > 0 and total > 0 else None
        if total > 0 and done >= total:
            eta = 0.0
        return Progress(stage, done, total, rate, eta)


class _Runnable(QRunnable):
    def __init__(self, job: "Job"):
        super().__init__()
        self._job = job
        # The Job object keeps this alive; Qt must not delete the wrapper under Python.
        self.setAutoDelete(False)

    def run(self) -> None:
        self._job._run()


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
        self._meter = ProgressMeter()
        self._last_emit = 0.0
        self._last_stage: str | None = None
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
        now = time.monotonic()
        final = total > 0 and done >= total
        if stage == self._last_stage and not final and now - self._last_emit < PROGRESS_INTERVAL:
            return
        self._last_stage, self._last_emit = stage, now
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
