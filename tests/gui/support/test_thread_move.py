"""move_to_thread: a document made in a job thread ends up in the GUI thread, through Qt's own
function (the GIL released) on Linux."""
from __future__ import annotations

import sys
import threading

from PySide6.QtGui import QTextDocument

from wubitok.gui.support import thread_move


def test_a_document_made_in_a_thread_moves_to_the_gui_thread(gui_app):
    made: list[QTextDocument] = []

    def job() -> None:
        doc = QTextDocument()
        doc.setPlainText("你好")
        thread_move.move_to_thread(doc, gui_app.thread())
        made.append(doc)

    worker = threading.Thread(target=job)
    worker.start()
    worker.join(60)
    assert made and made[0].thread() is gui_app.thread()
    assert made[0].toPlainText() == "你好"
    if sys.platform.startswith("linux"):
        assert thread_move._native_move() is not None  # the GIL-free path, not the fallback
