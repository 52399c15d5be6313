"""The PySide6 desktop app: a thin client of the wubitok library.

Only this package imports Qt.  ``wubitok gui`` (``wubitok.gui.app.main``)
starts it; ``main_window.PANES`` lists the panes.
"""
import sys


def _make_singletons_immortal() -> None:
    """Keep PySide6's missing references to None and True from crashing Python < 3.12.

    PySide6 6.12.0 returns None from void methods (QLabel.setText,
    QWidget.setEnabled, ...) and True from ``Signal.emit`` without taking a
    new reference.  On Python 3.12+ these objects are immortal and nothing
    happens; on older Pythons every such call takes one reference away, and
    after a few thousand calls - minutes of using the app - the interpreter
    aborts with "deallocating None" (or True).  Giving them a reference count
    no session can use up is what Python 3.12 does.
    """
    if sys.version_info >= (3, 12):
        return
    import ctypes

    for obj in (None, True, False):
        # ob_refcnt is the first field of every object (a Py_ssize_t).
        ctypes.c_ssize_t.from_address(id(obj)).value += 1 << 40


_make_singletons_immortal()
