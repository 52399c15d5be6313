"""Keeping Python's cyclic garbage collector from freezing the window.

A full (generation 2) collection walks every container object the process
holds -- the dictionary, the loaded models, the last results -- and holds the
GIL while it does, so the GUI thread stalls for its whole length even when
the collection runs in a worker.  Measured with ``gc.callbacks`` before this
module existed: 280-300 ms collections that freed nothing, during Compare and
training (``bench/bench_gui_stalls.py``).  Two measures keep them short:

* :func:`settle` moves every object alive now to the permanent generation
  (``gc.freeze()``), which collections never walk: called once the window is
  up and after each pane is built.
* :func:`paused` wraps every background job: automatic collection is off
  while any job runs (reference counting still frees nearly everything), and
  what the jobs leave alive is frozen when the last one ends, so no
  collection ever walks what a job built.

The price is that reference cycles made during a job are never reclaimed.
Jobs make few (a :class:`~wubitok.gui.support.workers.Job` breaks its own
cycle with its runnable), and ``gc.collect()`` between jobs stays possible.
"""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_running = 0  # jobs inside paused()


def settle(*, collect: bool = False) -> None:
    """Freeze what is alive now; ``collect`` first frees the garbage (once, at start-up)."""
    with _lock:
        if collect and _running == 0:
            gc.collect()
        gc.freeze()


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection while the block runs (in any thread); see the module doc."""
    global _running
    with _lock:
        if _running == 0:
            gc.disable()
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                # Frozen first: enabled with a huge young generation, the next
                # allocation anywhere would start a collection walking all of it.
                gc.freeze()
                gc.enable()


def jobs_running() -> int:
    """How many jobs are inside :func:`paused` (tests)."""
    return _running
