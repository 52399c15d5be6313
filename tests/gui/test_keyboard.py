"""Keyboard: Tab leaves every text box (Ctrl+Tab types a tab), and every control has an accessible name."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from wubitok.gui.main_window import MainWindow
from wubitok.paths import resources_dir


@pytest.fixture
def window(open_window, pane_ready):
    w = open_window()
    for key in w.pane_keys():
        pane_ready(w, key)
    return w


def _editors(window: MainWindow, key: str) -> list[QPlainTextEdit | QTextEdit]:
    pane = window.pane(key)
    return [e for e in [*pane.findChildren(QPlainTextEdit), *pane.findChildren(QTextEdit)]
            if e.isVisibleTo(pane) and e.focusPolicy() & Qt.FocusPolicy.TabFocus]


def test_tab_moves_the_focus_out_of_every_text_box(window, qtbot):
    checked = 0
    for key in window.pane_keys():
        window.show_pane(key)
        for editor in _editors(window, key):
            editor.setFocus()
            qtbot.waitUntil(editor.hasFocus)
            before = editor.toPlainText()
            qtbot.keyClick(editor, Qt.Key.Key_Tab)
            assert not editor.hasFocus(), f"{key}: Tab stayed in {type(editor).__name__}"
            assert editor.toPlainText() == before
            checked += 1
    assert checked >= 6  # Lookup has none; Convert two, Tokenize three, Compare three, Type Wubi one


def test_ctrl_tab_types_a_tab_where_text_is_edited(window, qtbot):
    window.show_pane("tokenize")
    editor = window.pane("tokenize").editor
    editor.setFocus()
    editor.setPlainText("a")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    qtbot.keyClick(editor, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert editor.toPlainText() == "a\t" and editor.hasFocus()


def _named(widget: QWidget) -> bool:
    if widget.accessibleName():
        return True
    if isinstance(widget, QAbstractButton) and widget.text().strip("&"):
        return True
    # A label's buddy is named by the label (Qt's accessibility does this).
    top = widget.window()
    return any(label.buddy() is widget and label.text() for label in top.findChildren(QLabel))


def _inside_combo_or_spin(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QComboBox, QAbstractSpinBox)):
            return True
        parent = parent.parentWidget()
    return False


def test_every_control_has_an_accessible_name(window):
    missing = []
    # The typing pad (Type Wubi) is another helper's; it is left to them.
    for key in [k for k in window.pane_keys() if k != "ime"]:
        pane = window.pane(key)
        for w in pane.findChildren(QWidget):
            if not (w.focusPolicy() & Qt.FocusPolicy.TabFocus):
                continue
            if not isinstance(w, (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox, QAbstractItemView,
                                  QPlainTextEdit, QTextEdit)):
                continue
            if _inside_combo_or_spin(w):
                continue  # a combo box's or spin box's line edit and popup list: the outer control is named
            if not _named(w):
                missing.append(f"{key}: {type(w).__name__} {w.objectName()!r} "
                               f"{getattr(w, 'placeholderText', lambda: '')()!r}")
    assert not missing, "controls without an accessible name:\n" + "\n".join(missing)


def test_abbreviated_headers_have_tooltips(window):
    compare = window.pane("compare")
    headers = {compare.table.horizontalHeaderItem(c).text(): compare.table.horizontalHeaderItem(c).toolTip()
               for c in range(compare.table.columnCount())}
    for short in ("Rényi(2.5)", "unk", "tok/Han", "chars/tok", "MB/s"):
        assert headers[short], short
    assert QApplication.instance() is not None


def test_tab_goes_through_tokenize_top_to_bottom_the_file_bar_before_the_text(window, qtbot, tmp_path):
    # The pane's widgets are made inside their final parents; made in another order, Tab follows that order.
    pane = window.pane("tokenize")
    window.show_pane("tokenize")
    text = tmp_path / "poem.txt"
    text.write_text("明月几时有", encoding="utf-8")
    pane.open_text_file(text)
    qtbot.waitUntil(lambda: pane.file_bar.isVisible() and pane.is_ready(), timeout=30_000)
    pane.colour_box.setFocus()
    qtbot.waitUntil(pane.colour_box.hasFocus)
    visited = []
    for _ in range(4):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        visited.append(QApplication.focusWidget())
    assert visited == [pane.encoding_box, pane.close_file_button, pane.editor, pane.token_view]


def test_tab_goes_through_train_top_to_bottom(window, qtbot):
    pane = window.pane("train")
    window.show_pane("train")
    pane.add_files([resources_dir() / "samples" / "tang300.txt"])
    pane.file_list.setCurrentRow(0)
    pane.file_list.setFocus()
    qtbot.waitUntil(pane.file_list.hasFocus)
    expected = [pane.picker.add_files_button, pane.remove_files_button, pane.encoding_box,
                *pane.algorithm_boxes.values(), pane.vocab_spin, pane.min_freq_spin, pane.special_edit,
                pane.backend_box, pane.codec_box, pane.pre_tokens_box, pane.folder_edit, pane.folder_button,
                pane.name_edit, pane.train_button]
    visited = []
    for _ in expected:
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        visited.append(QApplication.focusWidget())
    # A spin box passes the focus to its line edit: compare the spin box.
    assert [w.parentWidget() if isinstance(w.parentWidget(), QAbstractSpinBox) else w for w in visited] == expected
