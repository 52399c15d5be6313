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


class Steps(QObject):
    """Callables run one per pass of the event loop, in order.

    Each next step is started by a timer, not a posted call: a step posted
    from the step before ran in the same pass as the repaint that step
    caused, one stall.  :meth:`start` replaces the steps not run yet (a newer
    result supersedes an older one).
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
            self._timer.start()

    def clear(self) -> None:
        """Drop the steps not run yet."""
        self._timer.stop()
        self._steps = []

    def pending(self) -> bool:
        """Some step has not run yet (the one running counts as run)."""
        return bool(self._steps)

    def _next(self) -> None:
        if self._steps:
            self._steps.pop(0)()
        if self._steps:
            self._timer.start()
