"""Work for the GUI thread cut into steps, one per pass of the event loop.

Showing a large result (a token view laying out 200 KB, a chart) or redrawing
charts after a theme or language switch took tens of milliseconds per part;
all parts in one turn froze the window for as long as their sum
(``bench/bench_gui_stalls.py``).  Between two steps, input and repaints get
their turn.
"""
from __future__ import annotations

from typing import Callable, Sequence

from PySide6.QtCore import QObject, QTimer


def start_after_this_pass(timer: QTimer) -> None:
    """Start ``timer`` once the event loop has run what is due now.

    A timer started during a long callback counts its interval from that
    moment: a 1 ms timer started at the beginning of a 25 ms language switch
    came due before the timers and input that had waited through the switch,
    and ran ahead of them, one stall with it (a chart step of 4-14 ms more,
    ``bench/bench_gui_stalls.py``, ``switch_language``).  Started from a 0 ms
    call, it counts from the end of what is due now, behind what waited.
    """
    QTimer.singleShot(0, timer, timer.start)


class Steps(QObject):
    """Callables run one per pass of the event loop, in order.

    Each next step is started by a timer, not a posted call: a step posted
    from the step before ran in the same pass as the repaint that step
    caused, one stall; the timer starts after the pass (:func:`start_after_this_pass`).
    :meth:`start` replaces the steps not run yet (a newer result supersedes an
    older one).
    """

    def __init__(self, parent: QObject):
        super().__init__(parent)
        self._steps: list[Callable[[], object]] = []
        self._timer = QTimer(self, singleShot=True, interval=1)
        self._timer.timeout.connect(self._next)

    def start(self, steps: Sequence[Callable[[], object]], *, first_now: bool = True) -> None:
        """Run ``steps`` from now on (the first one at once unless ``first_now`` is false)."""
        self._steps = list(steps)
        if first_now:
            self._next()
        else:
            start_after_this_pass(self._timer)

    def clear(self) -> None:
        """Drop the steps not run yet."""
        self._timer.stop()
        self._steps = []

    def finish(self) -> None:
        """Run the steps not run yet, now (what follows builds on all of them)."""
        self._timer.stop()
        while self._steps:
            self._steps.pop(0)()

    def pending(self) -> bool:
        """Some step has not run yet (the one running counts as run)."""
        return bool(self._steps)

    def _next(self) -> None:
        if self._steps:
            self._steps.pop(0)()
        if self._steps:
            start_after_this_pass(self._timer)
