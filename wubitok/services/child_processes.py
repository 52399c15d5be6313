"""What every process the app spawns for heavy work shares (encode workers, training).

They run at a lower priority than the GUI process, ignore the terminal's
Ctrl+C (the GUI decides), end the same way when they must, and one that
vanishes gives one error, whichever job it was doing.
"""
from __future__ import annotations

import os
import signal
from multiprocessing.process import BaseProcess
from typing import Iterable

from ..errors import WubitokError

WORKER_NICE = 5


def worker_started() -> None:
    # Ctrl+C in the terminal reaches the whole process group: the GUI decides, not its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def lower_priority(pids: Iterable[int]) -> None:
    """Workers yield a core to the GUI process.  Set from here, as soon as they exist:
    their start-up (importing, loading models) is the bulk of their work at first."""
    try:
        niceness = os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICE
        for pid in pids:
            os.setpriority(os.PRIO_PROCESS, pid, niceness)
    except (AttributeError, OSError):  # no priorities on Windows; a worker gone already
        pass


WORKER_DIED = "pool.worker_died"  # the code of worker_died()'s error


def worker_died() -> WubitokError:
    return WubitokError("a worker process died (out of memory or killed); try again", code=WORKER_DIED)


def end_process(process: BaseProcess, timeout: float) -> None:
    """Wait up to ``timeout`` seconds for ``process`` to end, then end it:
    SIGTERM, and SIGKILL for one that cannot take a SIGTERM (stopped, stuck)."""
    process.join(timeout)
    if process.is_alive():
        process.terminate()
        process.join(2.0)
    if process.is_alive():
        process.kill()
        process.join()
