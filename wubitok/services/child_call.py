"""A long library call in a process of its own: its Python off the GUI's GIL.

:func:`call_in_child` runs ``body(request, progress=..., cancel=...)`` in a
spawned process (``spawn``: a process with Qt's threads must not ``fork``), at
the encode workers' lower priority, and takes the same ``progress`` and
``cancel`` arguments as the call itself:

* progress comes back over a pipe, at most one report per
  :data:`PROGRESS_INTERVAL` (a new stage and the end always);
* ``cancel`` is passed on to a process-shared flag, so the library stops
  at its next check exactly as in a thread, and no file is left behind (a
  byte of shared memory, not a ``multiprocessing.Event``: an Event's
  ``is_set`` takes a lock, and a child stopped or killed while holding it
  would leave the parent's ``set`` waiting for ever);
* the result, or the library's error, comes back as it was returned or
  raised; a process that dies without a word is the encode workers'
  "a worker process died" error;
* a child that does not stop within ``stop_wait`` seconds of a cancel
  (native code that looks at ``cancel`` only between its steps) is ended,
  so Cancel and quitting never wait for it;
* where a process cannot be started, the call runs here.

Train's :mod:`training_process` and Compare's language-model run
(:mod:`lm_eval_process`) are two bodies of it.  ``body`` is pickled into the
child: a module-level function, or a ``functools.partial`` of one.
"""
from __future__ import annotations

import ctypes
import threading
import time
import traceback
from multiprocessing.connection import Connection
from typing import Any, Callable, TypeVar, cast

from ..errors import Cancelled, WubitokError
from ..processes import child_setup, child_started, end_process, lower_priority, spawn_context, worker_died
from ..progress import ProgressCallback, ProgressMeter

PROGRESS_INTERVAL = 0.05  # seconds; the GUI throttles to the same rate
WAIT_STEP = 0.05  # seconds between looks at ``cancel`` while waiting

R = TypeVar("R")


class StopFlag:
    """The ``cancel`` a child sees: ``threading.Event``'s ``is_set``/``set`` over one shared byte,
    read and written without a lock (see the module doc)."""

    def __init__(self, ctx: Any) -> None:
        self._value = ctx.RawValue(ctypes.c_bool, False)

    def set(self) -> None:
        self._value.value = True

    def is_set(self) -> bool:
        return bool(self._value.value)


def call_in_child(body: Callable[..., R], request: Any, *, name: str, stop_wait: float,
                  progress: ProgressCallback | None = None, cancel: threading.Event | None = None) -> R:
    """``body(request, progress=, cancel=)`` in a spawned process named ``name``; see the module doc."""
    ctx = spawn_context()
    receive, send = ctx.Pipe(duplex=False)
    stop = StopFlag(ctx)
    # Not a daemon: a body may start worker processes of its own.
    child = ctx.Process(target=_run, args=(body, request, send, stop, child_setup()), name=name)
    try:
        child.start()
    except OSError:  # no processes here (limits, a sandbox): the thread it was always
        receive.close()
        send.close()
        return body(request, progress=progress, cancel=cancel)
    send.close()  # the child holds the only sending end now: end of file once it is gone
    lower_priority([child.pid] if child.pid is not None else [])
    cancelled_at: float | None = None
    try:
        while True:
            if cancel is not None and cancel.is_set():
                stop.set()
                cancelled_at = cancelled_at or time.monotonic()
                if time.monotonic() - cancelled_at > stop_wait:
                    raise Cancelled("cancelled")  # ``finally`` ends the child that did not listen
            if not receive.poll(WAIT_STEP):
                continue
            try:
                kind, value = receive.recv()
            except EOFError:  # it died without a word: killed, or out of memory
                raise worker_died() from None
            if kind == "progress":
                if progress is not None:
                    progress(*value)
            elif kind == "done":
                return cast(R, value)
            else:
                raise value
    finally:
        receive.close()
        # Done, failed, or given up on here (an error in ``progress``, a cancel not
        # heard): a child still working stops at its next check, or is ended.
        stop.set()
        end_process(child, 0.0 if cancelled_at is not None else stop_wait)


def _run(body: Callable[..., Any], request: Any, send: Connection, stop: StopFlag, setup: tuple[int, bool]) -> None:
    child_started(*setup)
    meter = ProgressMeter(interval=PROGRESS_INTERVAL)

    def report(stage: str, done: int, total: int) -> None:
        if meter.update(stage, done, total) is not None:
            send.send(("progress", (stage, done, total)))

    try:
        # The flag has threading.Event's is_set(), all the library asks of ``cancel``.
        result = body(request, progress=report, cancel=cast(threading.Event, stop))
    except Exception as exc:
        if not isinstance(exc, WubitokError):  # a bug: its traceback where the app's go
            traceback.print_exc()
        try:
            send.send(("error", exc))
        except Exception:  # an error that does not pickle: its text
            send.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
    else:
        send.send(("done", result))
    finally:
        send.close()
