"""Files dropped on a pane, text boxes included: Tokenize opens them, Compare and Train add them to the corpus."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QWidget

from wubitok.gui.main_window import MainWindow


def drop(target: QWidget, *paths) -> bool:
    """Drag local files over ``target`` and drop them; True if the drop was accepted."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    enter = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, enter)
    if not enter.isAccepted():
        return False
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, event)
    return event.isAccepted()


@pytest.fixture
def window(gui_app, gui_data_dir, qtbot):
    w = MainWindow(restore=False)
    qtbot.addWidget(w, before_close_func=lambda x: x.shutdown())
    w.show()
    return w


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "dropped.txt"
    path.write_text("拖放的文件。\n", encoding="utf-8")
    return path


def test_a_text_file_dropped_on_tokenizes_editor_is_opened(window, qtbot, text_file):
    window.show_pane("tokenize")
    pane = window.pane("tokenize")
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    assert drop(pane.editor.viewport(), text_file)
    qtbot.waitUntil(lambda: pane.is_ready() and pane.text() == "拖放的文件。\n", timeout=30_000)


def test_files_dropped_on_compare_and_train_join_the_corpus(window, qtbot, text_file, tmp_path):
    other = tmp_path / "second.txt"
    other.write_text("第二个。", encoding="utf-8")
    window.show_pane("compare")
    compare = window.pane("compare")
    qtbot.waitUntil(compare.is_ready, timeout=30_000)
    assert drop(compare.editor.viewport(), text_file, other)
    assert compare.files() == [str(text_file), str(other)] and compare.corpus_mode.isChecked()
    window.show_pane("train")
    train = window.pane("train")
    assert drop(train.file_list.viewport(), text_file)
    assert train.files() == [str(text_file)] and train.train_button.isEnabled()


def test_a_drop_of_text_is_left_to_the_text_box(window, qtbot):
    window.show_pane("tokenize")
    pane = window.pane("tokenize")
    mime = QMimeData()
    mime.setText("not a file")
    enter = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(pane.editor.viewport(), enter)
    assert enter.isAccepted()  # the editor's own text drop, untouched
