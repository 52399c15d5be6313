"""A long paste goes in a piece per turn of the event loop, and is still one step to undo."""
from __future__ import annotations

from PySide6.QtWidgets import QApplication

from wubitok.gui.support.text_pieces import document_pieces
from wubitok.gui.widgets.long_paste_edit import LONG_PASTE_CHARS, LongPasteEdit


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
