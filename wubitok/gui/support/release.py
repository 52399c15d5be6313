"""Big results let go of a slice per turn of the event loop.

Freeing a list of ten million objects is one C call that holds the GIL until the last one is
gone: Convert's result for 10 MB (a ``CodePiece`` per code, a ``Mark`` per shared one) took
584 ms to free, and its last reference went on the GUI thread, when the next conversion
replaced it.  Here the lists are emptied from the end, :data:`SLICE` items a step
(:class:`~.steps.Steps`, one per pass of the event loop), on the GUI thread.

A thread of its own did it first (the GIL let go between two slices), and alone it did: no
wait over 5 ms for a thread that slept 1 ms at a time (bench/bench_release.py).  Beside Qt's
event loop it did not: the GUI thread, which takes the GIL for each callback and lets it go
in between, waited 200-480 ms at a time while the thread freed (``convert_keystroke_10m`` in
bench/bench_gui_stalls.py; a slice per turn: no gap over 50 ms from it).
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject

from .steps import Steps

# Items freed per step: a few milliseconds.
SLICE = 50_000


def release_later(owner: QObject, *lists: list[Any]) -> None:
    """Empty ``lists`` a slice per turn of ``owner``'s event loop (their holders must no longer
    read them); short lists at once."""
    if sum(map(len, lists)) <= SLICE:
        for items in lists:
            items.clear()
        return
    steps = Steps(owner)

    def cut(items: list[Any]) -> None:
        del items[-SLICE:]
        if not any(lists):
            steps.deleteLater()

    steps.start([lambda items=items: cut(items) for items in lists for _ in range(0, len(items), SLICE)],
                first_now=False)
