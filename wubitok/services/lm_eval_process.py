"""Compare's language-model run in a process of its own (:func:`~wubitok.services.child_call.call_in_child`):
minutes of PyTorch off the GUI's GIL, with the same progress and a Cancel that ends it."""
from __future__ import annotations

import threading

from ..lm.experiment import LmEvalResult
from ..progress import ProgressCallback
from .child_call import call_in_child
from .lm_eval import LmEvalRequest, run_lm_eval

STOP_WAIT = 5.0  # seconds; the run looks at ``cancel`` every step and every batch it scores


def lm_eval_in_process(request: LmEvalRequest, *, progress: ProgressCallback | None = None,
                       cancel: threading.Event | None = None) -> LmEvalResult:
    return call_in_child(run_lm_eval, request, name="lm-eval", stop_wait=STOP_WAIT, progress=progress, cancel=cancel)
