"""``QObject.moveToThread`` from a job thread without holding the GIL.

PySide6 (6.11) calls ``moveToThread`` with the GIL held.  Inside, Qt locks the mutexes of the
object's signal-slot data; Qt picks those from one small pool by address, so the GUI thread may
hold the same mutex in an unrelated ``QObject::disconnect`` while it waits for the GIL to ask a
Python subclass for an override (``disconnectNotify``).  The job thread then waits for the
mutex and the GUI thread for the GIL: a deadlock, seen as a test run that stopped for good in
``make_document``.  Calling Qt's own function through ctypes releases the GIL for the call, so
the GUI thread can take it, finish, and let go of the mutex.  Where the symbol cannot be found
(another platform or Qt build), the PySide call is used as before.
"""
from __future__ import annotations

import ctypes
import sys
from functools import lru_cache
from typing import Any, Callable

from PySide6.QtCore import QObject, QThread

# void QObject::moveToThread(QThread *) — kept in Qt 6 for binary compatibility.
_SYMBOL = "_ZN7QObject12moveToThreadEP7QThread"


@lru_cache(maxsize=1)
def _native_move() -> Callable[[int, int], Any] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import shiboken6  # noqa: F401  (PySide6's own, always there beside it)

        func = getattr(ctypes.CDLL("libQt6Core.so.6"), _SYMBOL)  # already loaded: the same library
    except (OSError, AttributeError, ImportError):
        return None
    func.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    func.restype = None
    return func


def move_to_thread(obj: QObject, thread: QThread) -> None:
    """``obj.moveToThread(thread)``, the GIL released while Qt moves it (see the module doc)."""
    native = _native_move()
    if native is None:
        obj.moveToThread(thread)
        return
    import shiboken6

    native(shiboken6.getCppPointer(obj)[0], shiboken6.getCppPointer(thread)[0])
