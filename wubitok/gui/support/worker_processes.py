"""The encode worker processes (:mod:`wubitok.services.encode_pool`) live as long as the app.

They are spawned in the background once the window is up -- spawning and
importing take a second or two, which no pane should wait for -- and
stopped when the application quits, a task still running included.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...services.encode_pool import shared_pool, shutdown_shared_pool
from .workers import Job, run_job

_stops_on_quit = False


def start_in_background() -> Job:
    """Spawn the workers from a pool thread (a no-op once they run); stop them when the app quits."""
    global _stops_on_quit
    app = QCoreApplication.instance()
    if app is not None and not _stops_on_quit:
        app.aboutToQuit.connect(shutdown_shared_pool)
        _stops_on_quit = True
    # Tokenize's pool (versions_pool) starts with its first text, in that job, which the pane waits
    # for as it closes: started here too, the start-up job ran long enough to be running still
    # when the app quit, and a job that outlives the app is a traceback (test_quit_on_signal).
    return run_job(shared_pool().start, pass_progress=False, pass_cancel=False, name="start worker processes")
