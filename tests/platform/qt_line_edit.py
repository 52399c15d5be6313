"""An application for tests/platform/test_ibus_qt_xvfb.py: one QLineEdit on the X display, its
input method whatever QT_IM_MODULE says.  Prints its window id once shown, then each text the
line edit holds, and exits when it holds EXPECTED (or after TIMEOUT seconds)."""
from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLineEdit

expected, timeout = sys.argv[1], float(sys.argv[2])
app = QApplication(sys.argv[:1])
edit = QLineEdit()
edit.resize(400, 60)
edit.show()
edit.activateWindow()
edit.setFocus()
app.processEvents()
print("window", int(edit.winId()), flush=True)


def changed(text: str) -> None:
    print("text", text, flush=True)
    if text == expected:
        app.quit()


edit.textChanged.connect(changed)
QTimer.singleShot(int(timeout * 1000), app.quit)
app.exec()
