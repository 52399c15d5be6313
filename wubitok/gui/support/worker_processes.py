"""The encode worker processes (:mod:`wubitok.services.encode_pool`) live as long as the app.

They are spawned in the background once the window is up -- spawning and
importing take a second or two, which no pane should wait for -- and
stopped when the application quits, a task still running included.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...services.encode_pool import EncodePool, shared_pool, shutdown_shared_pool, versions_pool
from .workers import Job, run_job

_stops_on_quit = False


def start_in_background() -> Job:
    """Spawn the workers (both pools) from a pool thread (a no-op once they run); stop them when the app quits."""
    global _stops_on_quit
    app = QCoreApplication.instance()
    if app is not None and not _stops_on_quit:
        app.aboutToQuit.connect(shutdown_shared_pool)
        _stops_on_quit = True
    # The pools are taken here, not in the job: once the app quits, a pool asked for anew would be a
    # fresh one, spawned while the app exits (the job then outlived its QObject: a traceback on quit).
    pools = (shared_pool(), versions_pool())  # the second is Tokenize's, which keeps its text's versions
    return run_job(_start_all, pools, pass_progress=False, pass_cancel=False, name="start worker processes")


def _start_all(pools: tuple[EncodePool, ...]) -> None:
    for pool in pools:
        pool.start()
