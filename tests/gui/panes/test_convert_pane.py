"""Convert pane: Chinese → codes and codes → Chinese as you type, alternatives, files."""
from __future__ import annotations

import pytest

from wubitok.gui.panes.convert import CHINESE, CODES, ConvertPane
from wubitok.gui.support.fonts import drawable
from wubitok.wubi.convert import to_codes


@pytest.fixture
def pane(gui_app, gui_data_dir, qtbot):
    p = ConvertPane()
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    return p


def _wait(qtbot, pane):
    qtbot.waitUntil(pane.is_ready, timeout=10_000)


def test_chinese_to_codes_live(qtbot, pane):
    # Chinese arrives from an input method as committed text; insertPlainText stands for it.
    pane.chinese.editor.insertPlainText("你好，世界")
    _wait(qtbot, pane)
    assert pane.codes.editor.toPlainText() == to_codes("你好，世界") == "wqiy vbg，anv lwjj"


def test_codes_to_chinese_live_with_alternatives(qtbot, pane, wubi_dict):
    qtbot.keyClicks(pane.codes.editor, "wqiy vbg")
    _wait(qtbot, pane)
    assert pane.chinese.editor.toPlainText() == "你好"
    rows = [pane.shared_list.item(i).text() for i in range(pane.shared_list.count())]
    assert rows[0].startswith("wqiy")
    for cand in wubi_dict.exact_candidates("wqiy"):
        assert drawable(cand.text) in rows[0]  # a character no font here has shows as ⟨U+…⟩
    # Choosing the second entry of wqiy replaces 你 in the Chinese text.
    second = wubi_dict.exact_candidates("wqiy")[1].text
    pane.choose_alternative(0, 1)
    assert pane.chinese.editor.toPlainText() == second + "好"
    # The code side follows: the entry picked is the code's 2nd (to_codes' selector convention).
    assert pane.codes.editor.toPlainText() == "wqiy2 vbg"
    # A later piece is found at its new place on both sides, after the longer replacements.
    vbg_piece = next(i for i, p in enumerate(pane.pieces()) if p.code == "vbg")
    other = wubi_dict.exact_candidates("vbg")[1].text
    pane.choose_alternative(vbg_piece, 1)
    assert pane.chinese.editor.toPlainText() == second + other
    assert pane.codes.editor.toPlainText() == "wqiy2 vbg2"
    pane.choose_alternative(0, 0)  # back to the first entry: no selector
    assert pane.codes.editor.toPlainText() == "wqiy vbg2"
    assert pane.chinese.editor.toPlainText() == "你" + other


def test_picking_an_entry_keeps_both_sides_in_step(qtbot, pane, wubi_dict):
    qtbot.keyClicks(pane.codes.editor, "ggtt")
    _wait(qtbot, pane)
    first, second = (c.text for c in wubi_dict.exact_candidates("ggtt")[:2])
    assert pane.chinese.editor.toPlainText() == first
    pane.choose_alternative(0, 1)
    assert (pane.chinese.editor.toPlainText(), pane.codes.editor.toPlainText()) == ("来来往往", "ggtt2")
    assert second == "来来往往"
    # Converting the code side again gives the same Chinese: the two sides say the same.
    pane.convert_now()
    _wait(qtbot, pane)
    assert pane.chinese.editor.toPlainText() == "来来往往"


def test_the_shared_codes_list_has_one_row_per_code_with_its_count(qtbot, pane):
    text = "来来往往\n" + "你好中国\n" * 3
    pane.chinese.editor.insertPlainText(text)
    _wait(qtbot, pane)
    shared = [p.code for p in pane.pieces() if p.code and len(p.alternatives) > 1]
    rows = [pane.shared_list.item(i).text() for i in range(pane.shared_list.count())]
    assert len(shared) > len(rows) == len(set(shared))
    for code in set(shared):
        row = next(r for r in rows if r.split()[0] == code)
        assert f"×{shared.count(code)}" in row


def test_editing_the_other_side_switches_direction(qtbot, pane):
    pane.chinese.editor.insertPlainText("中国")
    _wait(qtbot, pane)
    assert pane.codes.editor.toPlainText() == "khk lgyi"
    pane.codes.editor.selectAll()
    qtbot.keyClicks(pane.codes.editor, "khlg")
    _wait(qtbot, pane)
    assert pane.chinese.editor.toPlainText() == "中国"


def test_unknown_codes_are_kept_and_counted(qtbot, pane):
    qtbot.keyClicks(pane.codes.editor, "vbg abcde")
    _wait(qtbot, pane)
    assert pane.chinese.editor.toPlainText() == "好abcde"
    assert "1 unknown" in pane.stats.text()
    assert [p.code for p in pane.pieces() if not p.known] == ["abcde"]


def test_style_and_separator(qtbot, pane):
    pane.chinese.editor.insertPlainText("我们的中国")
    _wait(qtbot, pane)
    pane.style_box.setCurrentIndex(pane.style_box.findData("shortest"))
    pane.sep_box.setCurrentIndex(pane.sep_box.findData("/"))
    _wait(qtbot, pane)
    assert pane.codes.editor.toPlainText() == to_codes("我们的中国", style="shortest", separator="/")


def test_open_file_into_a_side(qtbot, pane, tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("你好\n世界\n", encoding="utf-8")
    pane.load_file(f, CHINESE)
    _wait(qtbot, pane)
    assert pane.chinese.editor.toPlainText() == "你好\n世界\n"
    assert pane.codes.editor.toPlainText() == to_codes("你好\n世界\n")
    # The file is remembered: the Open button's menu offers it again.
    pane._fill_recent(CODES)
    recent = [a for a in pane.codes.recent_menu.actions() if a.text() == "in.txt"]
    assert recent and recent[0].toolTip() == str(f.resolve())
    recent[0].trigger()
    _wait(qtbot, pane)
    assert pane.codes.editor.toPlainText() == "你好\n世界\n"


def test_a_file_that_is_not_text_shows_a_dialog_and_keeps_the_text(qtbot, pane, tmp_path, error_dialogs):
    pane.chinese.editor.insertPlainText("留着")
    _wait(qtbot, pane)
    bad = tmp_path / "gbk.txt"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff")
    pane.load_file(bad, CHINESE)
    qtbot.waitUntil(lambda: bool(error_dialogs), timeout=10_000)
    title, message = error_dialogs[0]
    assert "not UTF-8" in message and "gbk.txt" in message
    assert title == "File problem"
    assert pane.chinese.editor.toPlainText() == "留着"


def test_a_missing_file_shows_a_dialog(qtbot, pane, tmp_path, error_dialogs):
    pane.load_file(tmp_path / "nope.txt", CODES)
    qtbot.waitUntil(lambda: bool(error_dialogs), timeout=10_000)
    assert "no such file" in error_dialogs[0][1]


def test_save_writes_the_side_atomically(qtbot, pane, tmp_path, error_dialogs):
    qtbot.keyClicks(pane.codes.editor, "wqiy vbg")
    _wait(qtbot, pane)
    folder = tmp_path / "saved"
    folder.mkdir()
    out = folder / "out.txt"
    out.write_text("old", encoding="utf-8")
    assert pane.save_to(out, CHINESE)
    assert out.read_text(encoding="utf-8") == "你好"
    assert [p.name for p in folder.iterdir()] == ["out.txt"]  # no temp file left
    assert not pane.save_to(folder / "no-such-dir" / "x.txt", CODES)
    assert error_dialogs and "cannot write" in error_dialogs[0][1]


def test_a_long_text_converts_in_pieces_to_the_same_codes_and_one_undo(qtbot, pane):
    from PySide6.QtWidgets import QApplication

    from wubitok.gui.widgets.long_paste_edit import LONG_PASTE_CHARS

    text = "明月几时有，把酒问青天。\n" * (LONG_PASTE_CHARS // 12 + 1)
    QApplication.clipboard().setText(text)
    pane.chinese.editor.paste()
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    assert len(pane.codes.editor.toPlainText()) >= LONG_PASTE_CHARS  # the codes side took it in pieces too
    assert pane.codes.editor.toPlainText() == to_codes(pane.chinese.editor.toPlainText())
    assert pane.shared_list.count() > 0 and pane.codes.editor.extraSelections()
    pane.codes.editor.undo()  # the result is one step to undo on its side
    assert pane.codes.editor.toPlainText() == ""


def test_activating_a_shared_code_goes_to_each_of_its_places_in_turn(qtbot, pane):
    pane.chinese.editor.insertPlainText("你好中国\n" * 3)
    _wait(qtbot, pane)
    row = next(i for i in range(pane.shared_list.count()) if pane.shared_list.item(i).text().startswith("wqiy"))
    item = pane.shared_list.item(row)
    lines = pane.codes.editor.toPlainText().split("\n")
    starts = [sum(len(line) + 1 for line in lines[:n]) for n in range(3)]  # wqiy starts each line
    for turn in range(4):
        pane.shared_list.itemActivated.emit(item)
        cursor = pane.codes.editor.textCursor()
        assert (cursor.selectionStart(), cursor.selectedText()) == (starts[turn % 3], "wqiy")


def test_the_result_is_a_full_conversion_of_the_text_as_typed_after_edits_and_pastes(qtbot, pane, monkeypatch):
    # The pane follows its editor edit by edit (DocumentText), not by toPlainText, which turns
    # U+00A0 into a space: each result must be what converting the whole text gives.
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QApplication

    from wubitok.gui.panes.convert import convert
    from wubitok.gui.support.document_text import raw_text
    from wubitok.gui.widgets.long_paste_edit import LONG_PASTE_CHARS

    editor = pane.chinese.editor
    typed = ""

    def edit(at: int, removed: int, inserted: str) -> None:
        nonlocal typed
        cursor = QTextCursor(editor.document())
        cursor.setPosition(at)
        cursor.setPosition(at + removed, QTextCursor.MoveMode.KeepAnchor)
        editor.setTextCursor(cursor)
        if len(inserted) >= LONG_PASTE_CHARS:
            QApplication.clipboard().setText(inserted)
            editor.paste()
        else:
            cursor.insertText(inserted)
        typed = typed[:at] + inserted + typed[at + removed:]

    def converted_in_full() -> None:
        _wait(qtbot, pane)
        full = convert(CHINESE, typed, pane.style_box.currentData(), pane.sep_box.currentData())
        output = "".join(full.output)
        assert raw_text(pane.codes.editor.document()) == output
        assert pane.chinese.text() == typed and pane.codes.text() == output
        assert [(p.source, p.text, p.code) for p in pane.pieces()] == [(p.source, p.text, p.code) for p in full.pieces]

    edit(0, 0, "明月\u00a0几时有")
    converted_in_full()
    assert "\u00a0" in pane.codes.text()
    edit(2, 1, "\u00a0\u00a0把酒 问青天\n")
    converted_in_full()
    long = ("不知天上宫阙，\u00a0今夕是何年。\n" * (LONG_PASTE_CHARS // 15 + 1))
    read_back: list[int] = []  # a long text going in, or its conversion, is not read back out of the document
    selected_text = QTextCursor.selectedText
    monkeypatch.setattr(QTextCursor, "selectedText",
                        lambda self: read_back.append(len(selected_text(self))) or selected_text(self))
    edit(3, 2, long)  # a long paste, in pieces
    converted_in_full()
    monkeypatch.undo()
    assert max(read_back, default=0) < LONG_PASTE_CHARS
    edit(len(typed) - 5, 3, "我欲\u00a0乘风归去")
    converted_in_full()
    edit(0, len(typed), "又恐琼楼玉宇\u00a0")  # the long text replaced by a short one
    converted_in_full()
    pane.set_sample_text("高处\u00a0不胜寒")
    typed = "高处\u00a0不胜寒"
    converted_in_full()


def test_a_replaced_result_is_freed_a_slice_per_turn_and_the_new_one_kept(qtbot, pane):
    # Freeing a 10 MB result held the GIL 584 ms on the GUI thread; its lists are emptied a slice per turn.
    from wubitok.gui.support.release import SLICE

    pane.chinese.editor.setPlainText("来来往往，中国。\n" * (SLICE // 4))
    _wait(qtbot, pane)
    old = pane._pieces
    assert len(old) > SLICE
    pane.chinese.editor.setPlainText("你好中国")
    _wait(qtbot, pane)
    qtbot.waitUntil(lambda: not old, timeout=10_000)
    assert [p.code for p in pane.pieces() if p.code] == ["wqiy", "vbg", "khk", "lgyi"]
    assert pane.codes.editor.toPlainText() == to_codes("你好中国")


@pytest.mark.parametrize("text", ["你好\U00020000世界\U0001F600 abc\n来来往往", ""])
def test_a_conversion_knows_its_output_length_as_a_document_counts_it(text):
    from wubitok.gui.panes.convert import CHINESE, CODES, convert

    for source, side in ((CHINESE, text), (CODES, to_codes(text) + " `\U0001F600` zzzz")):
        result = convert(source, side, "full", " ")
        assert result.output_units == len("".join(result.output).encode("utf-16-le")) // 2
