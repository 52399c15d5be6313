"""Every Qt class the app can meet, created before its window is.

Qt for Python creates a class, and the Python enum classes inside it, the
first time the class is used.  First used inside a turn of the event loop,
that cost is a frozen window: the main window's first frame created dozens
of them (the first gap was 95-150 ms), and the first ``findChildren()`` over
a pane, meeting Qt's private widget classes, made shiboken create dozens of
unrelated public classes while it looked for the nearest one (a 47-72 ms
turn; ``bench/bench_gui_stalls.py`` startup, 2-core machine).  Creating
every class of the modules the app uses costs about 150 ms once, before
there is a window to freeze, and the first frame loses most of its own.
"""
from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

MODULES = (QtCore, QtGui, QtWidgets)
_created = False


def create_all() -> None:
    """Create every class of :data:`MODULES` (once per process)."""
    global _created
    if _created:
        return
    for module in MODULES:
        for name in dir(module):
            if name.startswith("Q"):
                getattr(module, name)
    _created = True
