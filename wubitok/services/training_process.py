"""Training in a process of its own: the trainer's Python off the GUI's GIL.

The Train pane trained in a thread of the GUI process, which shares one GIL
with the GUI thread: the window stalled 73-290 ms at a time while four models
trained (``bench/bench_gui_stalls.py``, ``train_4``).  :func:`train_in_process`
runs :func:`wubitok.services.training.train_to_file` in a spawned process
(:func:`wubitok.services.child_call.call_in_child`: the same progress, cancel,
result and errors as in a thread; a child that does not stop within
:data:`STOP_WAIT` seconds of a cancel, as sentencepiece and HF's merges look at
``cancel`` only between their native steps, is ended; where a process cannot
be started, training runs here, as before).

The child runs the same code on the same request, so the model file is the
one training in this process writes (``tests/test_training_process.py``).
"""
from __future__ import annotations

import threading
from functools import partial

from ..progress import ProgressCallback
from .child_call import call_in_child
from .training import TrainRequest, TrainResult, train_to_file

STOP_WAIT = 5.0  # seconds a child that was told to stop may take before it is ended


def train_in_process(request: TrainRequest, *, progress: ProgressCallback | None = None,
                     cancel: threading.Event | None = None, create_folder: bool = False) -> TrainResult:
    """:func:`~wubitok.services.training.train_to_file` in a spawned process; see the module doc."""
    return call_in_child(partial(train_to_file, create_folder=create_folder), request,
                         name=f"train {request.model_type}", stop_wait=STOP_WAIT, progress=progress, cancel=cancel)
