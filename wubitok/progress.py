"""Progress of long operations as numbers: stage, done / total, rate, ETA.

Long library calls (training, corpus comparisons, encoding a corpus) take a
``progress(stage, done, total)`` callback; ``total`` is 0 when unknown, and a
new ``stage`` string starts a new phase (counting, merging, ...).  A
:class:`ProgressMeter` turns those calls into :class:`Progress` snapshots with
the rate and ETA of the current stage, so that every front end only draws
them: the CLI as a line on stderr (:class:`wubitok.cli.common.ProgressLine`),
the GUI as a progress bar and a status text (``gui/support/workers.py``).

::

    meter = ProgressMeter(interval=0.1)
    def progress(stage, done, total):
        snapshot = meter.update(stage, done, total)
        if snapshot is not None:          # None: too soon after the last one
            draw(snapshot)

The formatting helpers at the end are shared by those renderers.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable

from .errors import Cancelled

# What long library calls accept as ``progress``: (stage, done, total); ``total``
# may be 0 when unknown.  Stages are short words ("counting", "merging", ...).
ProgressCallback = Callable[[str, int, int], None]


def check_cancel(cancel: threading.Event | None) -> None:
    """Raise :class:`~wubitok.errors.Cancelled` once ``cancel`` is set: long calls run it at safe points."""
    if cancel is not None and cancel.is_set():
        raise Cancelled("cancelled")


@dataclass(frozen=True)
class Progress:
    """One progress report, measured over its stage."""

    stage: str
    done: int
    total: int  # 0 when unknown
    rate: float  # units of ``done`` per second in this stage; 0.0 until measurable
    eta: float | None  # seconds left in this stage; None when unknown, 0.0 when finished
    elapsed: float  # seconds since this stage's first report

    @property
    def fraction(self) -> float | None:
        """done / total clamped to [0, 1]; None when the total is unknown."""
        if self.total <= 0:
            return None
        return min(1.0, max(0.0, self.done / self.total))

    @property
    def finished(self) -> bool:
        """The stage has reached its known total."""
        return self.total > 0 and self.done >= self.total

    def describe(self) -> str:
        """Short text for a status line: 'merging · 1,200 / 5,000 · 830/s · ETA 5 s'."""
        parts = [self.stage, f"{self.done:,} / {self.total:,}" if self.total > 0 else f"{self.done:,}"]
        if self.rate > 0:
            parts.append(f"{human_rate(self.rate)}/s")
        if self.eta is not None:
            parts.append(f"ETA {human_seconds(self.eta)}")
        return " · ".join(parts)


class ProgressMeter:
    """Measures ``(stage, done, total)`` reports: rate and ETA per stage, optional throttling.

    The rate counts from the first report of the current stage, so a stage
    that starts half-way (resumed counts) is not credited with work done
    before it.  With ``interval`` > 0, :meth:`update` returns None for a report
    that comes sooner than that after the last one returned, unless it starts
    a stage or finishes one: a library that reports every 1% of a fast loop
    would otherwise flood a terminal or an event queue.
    """

    def __init__(self, interval: float = 0.0, clock: Callable[[], float] = time.monotonic):
        self.interval = interval
        self._clock = clock
        self._stage: str | None = None
        self._t0 = 0.0
        self._done0 = 0
        self._last_report = float("-inf")
        self.last: Progress | None = None  # the most recent snapshot, returned or not

    def measure(self, stage: str, done: int, total: int) -> Progress:
        """The snapshot for this report (never throttled)."""
        return self._measure(stage, done, total, self._clock())

    def update(self, stage: str, done: int, total: int) -> Progress | None:
        """The snapshot, or None if it is too soon after the last one (see the class doc)."""
        now = self._clock()
        new_stage = stage != self._stage
        snapshot = self._measure(stage, done, total, now)
        if not (new_stage or snapshot.finished or now - self._last_report >= self.interval):
            return None
        self._last_report = now
        return snapshot

    def _measure(self, stage: str, done: int, total: int, now: float) -> Progress:
        if stage != self._stage:
            self._stage, self._t0, self._done0 = stage, now, done
        elapsed = now - self._t0
        rate = (done - self._done0) / elapsed if elapsed > 0 and done > self._done0 else 0.0
        eta = (total - done) / rate if rate > 0 and total > 0 else None
        if total > 0 and done >= total:
            eta = 0.0
        self.last = Progress(stage, done, total, rate, eta, elapsed)
        return self.last


# -- formatting, shared by the renderers -------------------------------------
def human_rate(rate: float) -> str:
    """830 -> '830', 12345 -> '12k', 3.2e6 -> '3.2M' (for '/s' after it)."""
    if rate >= 1e6:
        return f"{rate / 1e6:.1f}M"
    if rate >= 1e4:
        return f"{rate / 1e3:.0f}k"
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}"


def human_seconds(seconds: float) -> str:
    """'5 s', '3 min 07 s', '2 h 05 min'."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def si(n: float) -> str:
    """A count in at most five characters: 950, 1.0k, 2.5M, 1.2G."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return f"{n:.0f}"


def clock(seconds: float) -> str:
    """'0:07', '12:34', '1:02:03'."""
    s = int(seconds + 0.5)
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
