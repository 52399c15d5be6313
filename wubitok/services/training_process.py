"""Training in a process of its own: the trainer's Python off the GUI's GIL.

The Train pane trained in a thread of the GUI process, which shares one GIL
with the GUI thread: the window stalled 73-290 ms at a time while four models
trained (``bench/bench_gui_stalls.py``, ``train_4``).  :func:`train_in_process`
runs :func:`wubitok.services.training.train_to_file` in a spawned process (``spawn``:
a process with Qt's threads must not ``fork``), at the encode workers' lower
priority, and takes the same ``progress`` and ``cancel`` arguments:

* progress comes back over a pipe, at most one report per
  :data:`PROGRESS_INTERVAL` (a new stage and the end always);
* ``cancel`` is passed on to a process-shared event, so the library stops
  at its next check exactly as in a thread, and no file is left behind;
* the result, or the library's error, comes back as it was returned or
  raised; a process that dies without a word is the encode workers'
  "a worker process died" error;
* a child that does not stop within :data:`STOP_WAIT` seconds of a cancel
  (sentencepiece and HF's merges look at ``cancel`` only between their
  native steps) is ended, so Cancel and quitting never wait for a training;
* where a process cannot be started, training runs here, as before.

The child runs the same code on the same request, so the model file is the
one training in this process writes (``tests/test_training_process.py``).
"""
from __future__ import annotations

import threading
import time
import traceback
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from typing import cast

from ..errors import Cancelled, WubitokError
from ..processes import child_setup, child_started, end_process, lower_priority, spawn_context, worker_died
from ..progress import ProgressCallback, ProgressMeter
from .training import TrainRequest, TrainResult, train_to_file

PROGRESS_INTERVAL = 0.05  # seconds; the GUI throttles to the same rate
WAIT_STEP = 0.05  # seconds between looks at ``cancel`` while waiting
STOP_WAIT = 5.0  # seconds a child that was told to stop may take before it is ended


def train_in_process(request: TrainRequest, *, progress: ProgressCallback | None = None,
                     cancel: threading.Event | None = None, create_folder: bool = False) -> TrainResult:
    """:func:`~wubitok.services.training.train_to_file` in a spawned process; see the module doc."""
    ctx = spawn_context()
    receive, send = ctx.Pipe(duplex=False)
    stop = ctx.Event()
    # Not a daemon: a request may count its corpus in worker processes of its own.
    child = ctx.Process(target=_train, args=(request, create_folder, send, stop, child_setup()),
                        name=f"train {request.model_type}")
    try:
        child.start()
    except OSError:  # no processes here (limits, a sandbox): the thread it was always
        receive.close()
        send.close()
        return train_to_file(request, progress=progress, cancel=cancel, create_folder=create_folder)
    send.close()  # the child holds the only sending end now: end of file once it is gone
    lower_priority([child.pid] if child.pid is not None else [])
    cancelled_at: float | None = None
    try:
        while True:
            if cancel is not None and cancel.is_set():
                stop.set()
                cancelled_at = cancelled_at or time.monotonic()
                if time.monotonic() - cancelled_at > STOP_WAIT:
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
                return cast(TrainResult, value)
            else:
                raise value
    finally:
        receive.close()
        # Done, failed, or given up on here (an error in ``progress``, a cancel not
        # heard): a child still training stops at its next check, or is ended.
        stop.set()
        end_process(child, 0.0 if cancelled_at is not None else STOP_WAIT)


def _train(request: TrainRequest, create_folder: bool, send: Connection, stop: Event,
           setup: tuple[int, bool]) -> None:
    child_started(*setup)
    meter = ProgressMeter(interval=PROGRESS_INTERVAL)

    def report(stage: str, done: int, total: int) -> None:
        if meter.update(stage, done, total) is not None:
            send.send(("progress", (stage, done, total)))

    try:
        # The event has threading.Event's is_set(), all the library asks of ``cancel``.
        result = train_to_file(request, progress=report, cancel=cast(threading.Event, stop),
                               create_folder=create_folder)
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
