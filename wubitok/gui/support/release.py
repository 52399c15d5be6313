"""Big results let go of in a background thread, a slice at a time.

Freeing a list of ten million objects is one C call that holds the GIL until the last one is
gone: Convert's result for 10 MB (a ``CodePiece`` per code, a ``Mark`` per shared one) took
584 ms to free, and its last reference went on the GUI thread, when the next conversion
replaced it.  Here the lists are emptied from the end, :data:`SLICE` items per call, in a
thread of their own: between two slices the GIL goes to whoever waits for it.
"""
from __future__ import annotations

import threading
from typing import Any

# Items freed per call: a few milliseconds of the GIL.
SLICE = 50_000


def _empty(lists: tuple[list[Any], ...]) -> None:
    for items in lists:
        while items:
            del items[-SLICE:]


def release_later(*lists: list[Any]) -> None:
    """Empty ``lists`` in a background thread (their holders must no longer read them)."""
    if sum(map(len, lists)) > SLICE:
        threading.Thread(target=_empty, args=(lists,), name="release", daemon=True).start()
