"""A long paste goes in a piece per turn of the event loop, and is still one step to undo."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from wubitok.gui.support.text_pieces import DOCUMENT_PIECE_CHARS, document_pieces
from wubitok.gui.widgets.long_paste_edit import LONG_PASTE_CHARS, LongPasteEdit, removal_cuts


def _paste(edit: LongPasteEdit, text: str) -> None:
    QApplication.clipboard().setText(text)
    edit.paste()


def test_a_long_paste_is_the_text_and_one_undo_step(qtbot):
    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    edit.setPlainText("before\nafter")
    cursor = edit.textCursor()
    cursor.setPosition(7)
    edit.setTextCursor(cursor)
    long = "明月几时有，把酒问青天。\r\n" * (4 * LONG_PASTE_CHARS // 14) + "😀 end"
    _paste(edit, long)
    assert edit.is_pasting() and edit.isReadOnly()  # going in, nothing typed into its middle
    qtbot.waitUntil(lambda: not edit.is_pasting(), timeout=60_000)
    assert not edit.isReadOnly()
    assert edit.toPlainText() == "before\n" + long.replace("\r\n", "\n") + "after"
    assert edit.textCursor().position() == len("before\n") + len(long.replace("\r\n", "\n")) + 1  # 😀: 2 units
    edit.undo()
    assert edit.toPlainText() == "before\nafter"


def test_a_short_paste_goes_in_at_once(qtbot):
    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    _paste(edit, "你好")
    assert not edit.is_pasting() and edit.toPlainText() == "你好"


def test_a_second_long_text_cuts_the_first_short(qtbot):
    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    first, second = "一" * (3 * LONG_PASTE_CHARS), "二" * (2 * LONG_PASTE_CHARS)
    _paste(edit, first)
    cursor = edit.textCursor()
    cursor.select(cursor.SelectionType.Document)
    done = []
    edit.insert_long(cursor, document_pieces(second), lambda: done.append(True))
    qtbot.waitUntil(lambda: bool(done), timeout=60_000)
    assert edit.toPlainText() == second and not edit.isReadOnly()


def test_the_paste_is_one_undo_step_of_its_own_and_one_text_change(qtbot):
    # Each piece goes in an edit joined to the one before: not joined to what was typed before it.
    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    qtbot.keyClicks(edit, "typed")
    changes = []
    edit.textChanged.connect(lambda: changes.append(edit.is_pasting()))
    long = "明月几时有\n" * (3 * LONG_PASTE_CHARS // 6)
    _paste(edit, long)
    qtbot.waitUntil(lambda: not edit.is_pasting(), timeout=60_000)
    assert edit.toPlainText() == "typed" + long
    assert changes == [False]  # once, when it is in
    edit.undo()
    assert edit.toPlainText() == "typed"
    edit.redo()
    assert edit.toPlainText() == "typed" + long


def test_a_long_paste_reads_the_clipboard_as_bytes_a_piece_per_turn(qtbot, monkeypatch):
    # QMimeData.text on 10 MB took 50-60 ms of the paste's turn; the UTF-8 bytes are decoded a piece per turn.
    from PySide6.QtCore import QMimeData

    def whole_text(self):
        raise AssertionError("the pasted text was read whole")

    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    long = "明月几时有，把酒问青天。\U00020000 a\r\n" * (3 * LONG_PASTE_CHARS // 16)
    QApplication.clipboard().setText(long)
    monkeypatch.setattr(QMimeData, "text", whole_text)
    edit.paste()
    assert edit.is_pasting()
    qtbot.waitUntil(lambda: not edit.is_pasting(), timeout=60_000)
    monkeypatch.undo()
    assert edit.toPlainText() == long.replace("\r\n", "\n")


def _select(edit: LongPasteEdit, start: int, end: int) -> None:
    cursor = edit.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    edit.setTextCursor(cursor)


def _count_removals(edit: LongPasteEdit) -> list[int]:
    """The length of each removal the document sees (Qt's contentsChange)."""
    removed: list[int] = []
    edit.document().contentsChange.connect(lambda _at, gone, _added: gone and removed.append(gone))
    return removed


# Lines of 12 characters and an astral one each (two UTF-16 units): a cut may fall inside a pair.
LINES = "明月几时有，把酒问青天\U00020000\n" * (6 * LONG_PASTE_CHARS // 13)


@pytest.mark.parametrize("how", ["paste", "delete", "backspace", "cut key", "cut menu", "typed"])
def test_a_long_selection_goes_a_piece_per_turn_in_one_undo_step(qtbot, how):
    # Removing 10 MB of lines in one call held the GUI thread 385 ms (1 MB: 31 ms).
    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    edit.setPlainText("head " + LINES + " tail")
    units = len(LINES) + LINES.count("\U00020000")  # UTF-16 positions
    _select(edit, 5, 5 + units)
    removed = _count_removals(edit)
    replacement = {"paste": "粘贴", "typed": "x"}.get(how, "")
    if how == "paste":
        _paste(edit, replacement)
    elif how == "cut menu":
        edit.cut()
    else:
        key = {"delete": Qt.Key.Key_Delete, "backspace": Qt.Key.Key_Backspace, "typed": Qt.Key.Key_X,
               "cut key": Qt.Key.Key_X}[how]
        qtbot.keyClick(edit, key, Qt.KeyboardModifier.ControlModifier if how == "cut key" else
                       Qt.KeyboardModifier.NoModifier)
    assert edit.is_pasting() and edit.isReadOnly()
    qtbot.waitUntil(lambda: not edit.is_pasting(), timeout=60_000)
    assert edit.toPlainText() == "head " + replacement + " tail"
    assert len(removed) >= units // DOCUMENT_PIECE_CHARS and max(removed) <= DOCUMENT_PIECE_CHARS + 1  # a pair whole
    assert edit.textCursor().position() == 5 + len(replacement) and not edit.isReadOnly()
    if how.startswith("cut"):
        assert QApplication.clipboard().text() == LINES
    edit.undo()
    assert edit.toPlainText() == "head " + LINES + " tail"


def test_a_removal_never_cuts_a_surrogate_pair(qtbot):
    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    edit.setPlainText("\U0001F600" * LONG_PASTE_CHARS)
    document = edit.document()
    for start in (0, 1, 2, 7):
        cuts = removal_cuts(document, start, 2 * LONG_PASTE_CHARS)
        assert cuts[0] == 2 * LONG_PASTE_CHARS and cuts[-1] == start
        assert all(0 < a - b <= DOCUMENT_PIECE_CHARS + 1 for a, b in zip(cuts, cuts[1:]))
        assert all(cut % 2 == 0 for cut in cuts[:-1])  # each cut in front of a pair


def test_short_selections_and_keys_are_qts(qtbot):
    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    edit.setPlainText("一二三四")
    _select(edit, 1, 3)
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    assert not edit.is_pasting() and edit.toPlainText() == "一四"
