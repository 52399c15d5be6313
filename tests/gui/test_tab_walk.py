"""Tab through every pane as a keyboard user would: every control is reached, top to
bottom, a table or list is left in one press, and every stop shows that it has the
focus, in the light and the dark theme."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QImage
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QLabel, QLineEdit, QWidget

from wubitok.gui.main_window import MainWindow
from wubitok.gui.support import theme

SAMPLES = {"lookup": "wqiy", "tokenize": "明月几时有，把酒问青天。", "compare": "明月几时有，把酒问青天。"}


@pytest.fixture(params=["light", "dark"])
def window(request, open_window):
    theme.apply_theme(request.param)
    yield open_window()
    theme.apply_theme("light")


def _show(window: MainWindow, key: str, qtbot, pane_ready) -> QWidget:
    pane = pane_ready(window, key, SAMPLES.get(key))
    if key == "lookup":
        pane.table.selectRow(0)  # the detail with its links and Copy buttons
        qtbot.waitUntil(lambda: pane.detail.copy_text.isVisible())
    return pane


def _stop(w: QWidget) -> QWidget:
    """A combo box's or spin box's line edit stands for the box."""
    parent = w.parentWidget()
    return parent if isinstance(parent, (QComboBox, QAbstractSpinBox)) else w


def _controls(pane: QWidget) -> set[QWidget]:
    """What Tab must reach: every visible, enabled widget that takes Tab focus."""
    found = set()
    for w in pane.findChildren(QWidget):
        if not (w.isVisible() and w.isEnabled() and w.focusPolicy() & Qt.FocusPolicy.TabFocus):
            continue
        if _stop(w) is not w or (isinstance(w, QLabel) and "href" not in w.text()):
            continue
        if any(isinstance(p, QComboBox) for p in _ancestors(w)):
            continue  # a combo box's popup list
        found.add(w)
    return found


def _ancestors(w: QWidget):
    p = w.parentWidget()
    while p is not None:
        yield p
        p = p.parentWidget()


def _walk(window: MainWindow, qtbot) -> list[tuple[QWidget, QImage]]:
    """Tab from the pane list round to it again: each stop with its picture while focused."""
    window.pane_list.setFocus()
    qtbot.waitUntil(window.pane_list.hasFocus)
    stops: list[tuple[QWidget, QImage]] = []
    for _ in range(120):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        focused = QApplication.focusWidget()
        if focused is window.pane_list:
            return stops
        stops.append((_stop(focused), _stop(focused).grab().toImage()))
    raise AssertionError("Tab never came back to the pane list: " + ", ".join(type(w).__name__ for w, _ in stops[-8:]))


def _order(pane: QWidget, key: str) -> list[QWidget]:
    """The controls whose order the test pins down: top to bottom, left to right."""
    if key == "lookup":
        return [pane.search_box, pane.table, pane.detail.codes_label, pane.detail.copy_text, pane.detail.copy_code]
    if key == "tokenize":
        return [pane.model_box, pane.editor, pane.token_view, pane.token_table, pane.copy_ids_button]
    if key == "compare":
        return [pane.add_button, pane.text_mode, pane.slots[0].box, pane.slots[1].box, pane.editor,
                pane.columns[0].view, pane.columns[1].view, pane.table, *pane.export_buttons.values()]
    if key == "train":
        return [pane.file_list, pane.picker.add_files_button, *pane.algorithm_boxes.values(), pane.vocab_spin,
                pane.folder_edit, pane.name_edit]
    if key == "convert":
        return [pane.chinese.editor, pane.codes.editor]
    if key == "roots":
        return [pane.search_box]
    if key == "practice":
        return [pane.lesson_box, pane.restart_button, pane.hint_button, pane.input]
    return [pane.editor]


@pytest.mark.parametrize("key", ["lookup", "convert", "tokenize", "compare", "train", "ime", "roots", "practice"])
def test_tab_walks_each_pane_in_order_leaves_tables_in_one_press_and_marks_each_stop(window, qtbot, key, pane_ready):
    pane = _show(window, key, qtbot, pane_ready)
    stops = _walk(window, qtbot)
    visited = [w for w, _ in stops]
    # Every control is reached.
    missing = _controls(pane) - set(visited)
    assert not missing, f"{key}: Tab never reaches " + ", ".join(
        f"{type(w).__name__} {w.accessibleName() or getattr(w, 'text', lambda: '')()!r}" for w in missing)
    # A table, list or text view is left with one press: it is never the stop twice in a row
    # (a label with links is, once per link).
    for a, b in zip(visited, visited[1:]):
        assert a is not b or isinstance(a, QLabel), f"{key}: Tab stayed in {type(a).__name__} {a.accessibleName()!r}"
    # Top to bottom.
    expected = _order(pane, key)
    firsts = [visited.index(w) for w in expected]
    assert firsts == sorted(firsts), f"{key}: Tab order " + " > ".join(
        type(visited[i]).__name__ for i in firsts)
    # Each stop looks different while it has the focus.
    for w, focused in stops:
        if w.isVisible():
            assert w.grab().toImage() != focused, f"{key}: no focus mark on {type(w).__name__} {w.accessibleName()!r}"


def _spoken_name(w: QWidget) -> str:
    """The name a screen reader says for ``w`` (its own, else what Qt derives: a button's text, a buddy label)."""
    iface = QAccessible.queryAccessibleInterface(w)
    return iface.text(QAccessible.Text.Name).strip() if iface is not None else ""


@pytest.fixture
def light_window(open_window):
    theme.apply_theme("light")
    return open_window()


@pytest.mark.parametrize("key", ["lookup", "convert", "tokenize", "compare", "train", "ime"])
def test_every_tab_stop_has_a_name_a_screen_reader_says(light_window, qtbot, key, pane_ready):
    pane = _show(light_window, key, qtbot, pane_ready)
    stops = [w for w, _ in _walk(light_window, qtbot)]
    fields = [s.findChild(QLineEdit) for s in pane.findChildren(QAbstractSpinBox)]
    unnamed = [w for w in [light_window.pane_list, *stops, *fields] if not _spoken_name(w)]
    assert not unnamed, f"{key}: no accessible name on " + ", ".join(type(w).__name__ for w in unnamed)
