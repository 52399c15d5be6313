"""GBK, GB18030, Big5 and UTF-16 files in the app: the encoding is shown where the
file's text is, the user can read the file again in another one, and Convert saves
in the encoding (line ending, BOM) the file came in unless told otherwise."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from tests.gui.test_file_drops import drop
from wubitok.compare import compare_tokenizers
from wubitok.engines.base import load_tokenizer
from wubitok.fileio import TextPath
from wubitok.gui.main_window import MainWindow
from wubitok.gui.panes.compare import ComparePane
from wubitok.gui.panes.convert import CHINESE, CODES, ConvertPane
from wubitok.gui.panes.tokenize import TokenizePane
from wubitok.gui.panes.train import TrainPane
from wubitok.gui.support.settings import Settings
from wubitok.paths import resources_dir
from wubitok.wubi.convert import to_codes

MODELS = resources_dir() / "models"
# Mainland and Taiwan text, with a line ending each platform's editors write.
SIMPLIFIED = "五笔字型输入法是王永民发明的。\r\n床前明月光，疑是地上霜。\r\n"
TRADITIONAL = "五筆字型輸入法是王永民發明的。\n床前明月光，疑是地上霜。\n"


def choose(box: QComboBox, encoding: str) -> None:
    """Pick ``encoding`` in the combo's popup list with the mouse, as a user does."""
    box.showPopup()
    view = box.view()
    rect = view.visualRect(box.model().index(box.findData(encoding), 0))
    QtBot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert box.currentData() == encoding


@pytest.fixture
def files(tmp_path):
    made = {
        "gbk": tmp_path / "gbk.txt",
        "gb18030": tmp_path / "gb18030.txt",
        "big5": tmp_path / "big5.txt",
        "utf16": tmp_path / "utf16.txt",
    }
    made["gbk"].write_bytes(SIMPLIFIED.encode("gbk"))
    made["gb18030"].write_bytes(("𠀀 €" + SIMPLIFIED).encode("gb18030"))  # 4-byte sequences: not GBK
    made["big5"].write_bytes(TRADITIONAL.encode("big5"))
    made["utf16"].write_bytes(("\ufeff" + SIMPLIFIED).encode("utf-16-le"))
    return made


# -- Tokenize ------------------------------------------------------------------
@pytest.fixture
def tokenize(gui_data_dir, catalog, show_pane):
    return show_pane(TokenizePane(catalog=catalog))


def _open(qtbot, pane, path, encoding=None):
    pane.open_text_file(path, encoding)
    qtbot.waitUntil(lambda: pane.is_ready() and pane.file_encoding() is not None, timeout=30_000)


@pytest.mark.parametrize("name, shown, text", [
    ("gbk", "GB18030", SIMPLIFIED),
    ("gb18030", "GB18030", "𠀀 €" + SIMPLIFIED),
    ("big5", "Big5", TRADITIONAL),  # read as CP950, Windows' Big5
    ("utf16", "UTF-16LE", "\ufeff" + SIMPLIFIED),
])
def test_tokenize_shows_the_encoding_a_file_was_read_in(qtbot, tokenize, files, name, shown, text):
    _open(qtbot, tokenize, files[name])
    assert tokenize.file_bar.isVisibleTo(tokenize) and tokenize.encoding_box.isEnabled()
    assert tokenize.encoding_box.currentText() == shown
    assert tokenize.file_note.text() == files[name].name
    assert tokenize.text() == text
    assert tokenize.token_count() == len(load_tokenizer(tokenize.current_entry().path).encode(text).ids)


def test_tokenize_reads_the_file_again_in_the_encoding_the_user_chooses(qtbot, tokenize, files):
    _open(qtbot, tokenize, files["big5"])
    choose(tokenize.encoding_box, "gb18030")  # Big5 bytes are valid GB18030: the user sees what they mean
    qtbot.waitUntil(lambda: tokenize.is_ready() and tokenize.file_encoding() == "gb18030", timeout=30_000)
    assert tokenize.text() == files["big5"].read_bytes().decode("gb18030") != TRADITIONAL
    choose(tokenize.encoding_box, "cp950")
    qtbot.waitUntil(lambda: tokenize.is_ready() and tokenize.file_encoding() == "cp950", timeout=30_000)
    assert tokenize.text() == TRADITIONAL


def test_tokenize_remembers_the_users_encoding_when_the_file_is_opened_again(qtbot, tokenize, files, catalog,
                                                                              show_pane, error_dialogs):
    _open(qtbot, tokenize, files["big5"])
    choose(tokenize.encoding_box, "gb18030")
    qtbot.waitUntil(lambda: tokenize.is_ready() and tokenize.file_encoding() == "gb18030", timeout=30_000)
    _open(qtbot, tokenize, files["gbk"])  # another file: detected, nothing chosen for it
    assert tokenize.file_encoding() == "gb18030" and tokenize.text() == SIMPLIFIED
    _open(qtbot, tokenize, files["big5"])
    assert tokenize.encoding_box.currentText() == "GB18030" and tokenize.text() != TRADITIONAL
    # and in the next session
    tokenize.save_state()
    again = show_pane(TokenizePane(catalog=catalog))
    _open(qtbot, again, files["big5"])
    assert again.file_encoding() == "gb18030"
    # A file no longer in the remembered encoding is read as detected, without a dialog.
    files["big5"].write_bytes(b"\xff\xfe" + TRADITIONAL.encode("utf-16-le"))
    again.open_text_file(files["big5"])
    qtbot.waitUntil(lambda: again.is_ready() and again.file_encoding() == "utf-16-le", timeout=30_000)
    assert again.text() == "\ufeff" + TRADITIONAL and error_dialogs == []


def test_tokenize_a_remembered_file_that_is_gone_is_a_dialog_and_keeps_the_choice(qtbot, tokenize, files,
                                                                                  error_dialogs):
    _open(qtbot, tokenize, files["big5"])
    choose(tokenize.encoding_box, "gb18030")
    qtbot.waitUntil(lambda: tokenize.is_ready() and tokenize.file_encoding() == "gb18030", timeout=30_000)
    files["big5"].unlink()
    tokenize.open_text_file(files["big5"])
    qtbot.waitUntil(lambda: len(error_dialogs) == 1, timeout=30_000)
    assert "no such file" in error_dialogs[0][1]
    assert tokenize._settings.chosen_encoding(files["big5"]) == "gb18030"


def test_tokenize_an_encoding_the_file_is_not_in_is_a_dialog_and_nothing_changes(qtbot, tokenize, files,
                                                                                error_dialogs):
    _open(qtbot, tokenize, files["gbk"])
    choose(tokenize.encoding_box, "utf-8")
    qtbot.waitUntil(lambda: len(error_dialogs) == 1, timeout=30_000)
    assert error_dialogs[0][0] == "File problem"
    assert "not UTF-8 text (invalid byte 0xCE at offset 0)" in error_dialogs[0][1]
    assert tokenize.encoding_box.currentText() == "GB18030" and tokenize.text() == SIMPLIFIED


def test_tokenize_edited_text_is_not_replaced_by_a_reread(qtbot, tokenize, files):
    _open(qtbot, tokenize, files["gbk"])
    tokenize.editor.moveCursor(tokenize.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(tokenize.editor, "x")
    assert not tokenize.encoding_box.isEnabled()
    assert tokenize.reopen_text_file("cp950") is None and tokenize.text().endswith("x")


def test_a_big5_file_dropped_on_tokenize_shows_big5(gui_app, gui_data_dir, qtbot, files):
    window = MainWindow(restore=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    window.show_pane("tokenize")
    pane = window.pane("tokenize")
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    assert drop(pane.editor.viewport(), files["big5"])
    qtbot.waitUntil(lambda: pane.is_ready() and pane.text() == TRADITIONAL, timeout=30_000)
    assert pane.encoding_box.currentText() == "Big5"


# -- Convert -------------------------------------------------------------------
@pytest.fixture
def convert(gui_app, gui_data_dir, qtbot):
    pane = ConvertPane()
    qtbot.addWidget(pane)
    pane.resize(1000, 700)
    pane.show()
    return pane


def _load(qtbot, pane, path, side=CHINESE, encoding=None):
    pane.load_file(path, side, encoding)
    qtbot.waitUntil(lambda: pane.is_ready() and pane.editor_side(side).path == str(path), timeout=30_000)


@pytest.mark.parametrize("name, codec", [("gbk", "gbk"), ("gb18030", "gb18030"), ("big5", "big5"),
                                         ("utf16", "utf-16-le")])
def test_convert_saves_in_the_encoding_the_file_came_in(qtbot, convert, files, tmp_path, name, codec):
    _load(qtbot, convert, files[name])
    original = files[name].read_bytes()
    text = original.decode(codec)
    assert convert.chinese.encoding_box.encoding() == convert.codes.encoding_box.encoding()
    out = tmp_path / "out.txt"
    assert convert.save_to(out, CHINESE)
    assert out.read_bytes() == original  # BOM and \r\n included
    # The codes are saved the way the text came: same encoding, line ending and BOM.
    assert convert.save_to(tmp_path / "codes.txt", CODES)
    codes = to_codes(text.lstrip("\ufeff").replace("\r\n", "\n")).replace("\n", "\r\n" if "\r\n" in text else "\n")
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    assert (tmp_path / "codes.txt").read_bytes() == (bom + codes).encode(codec)


def test_convert_save_in_another_encoding(qtbot, convert, files, tmp_path):
    _load(qtbot, convert, files["gbk"])
    convert.chinese.editor.insertPlainText("编辑")  # edited: choosing an encoding now only sets the saving one
    choose(convert.chinese.encoding_box, "utf-16-le")
    assert convert.chinese.editor.toPlainText().startswith("编辑")
    out = tmp_path / "utf16.txt"
    assert convert.save_to(out, CHINESE)
    # Converted to UTF-16: a BOM so that it is recognised; the file's \r\n kept.
    assert out.read_bytes() == ("\ufeff编辑" + SIMPLIFIED).encode("utf-16-le")


def test_convert_reads_an_unchanged_file_again_in_the_chosen_encoding(qtbot, convert, files):
    _load(qtbot, convert, files["big5"])
    assert convert.chinese.encoding_box.currentText() == "Big5"
    choose(convert.chinese.encoding_box, "gb18030")
    qtbot.waitUntil(lambda: convert.is_ready()
                    and convert.chinese.editor.toPlainText() == files["big5"].read_bytes().decode("gb18030"),
                    timeout=30_000)
    assert convert.chinese.save_format.encoding == "gb18030"


def test_convert_text_the_encoding_cannot_hold_is_a_dialog_and_the_file_stays(qtbot, convert, files, tmp_path,
                                                                              error_dialogs):
    _load(qtbot, convert, files["gb18030"])  # holds 𠀀, which Big5 has not
    target = tmp_path / "kept.txt"
    target.write_bytes(b"old bytes")
    choose(convert.chinese.encoding_box, "utf-8")  # unchanged text: read again, as UTF-8 it is not
    qtbot.waitUntil(lambda: len(error_dialogs) == 1, timeout=30_000)
    assert convert.chinese.encoding_box.currentText() == "GB18030"
    convert.chinese.editor.setPlainText(convert.chinese.editor.toPlainText() + "。")  # now the user's text
    choose(convert.chinese.encoding_box, "cp950")
    assert not convert.save_to(target, CHINESE)
    assert error_dialogs[-1][0] == "File problem" and "cannot save as Big5" in error_dialogs[-1][1]
    assert "𠀀" in error_dialogs[-1][1]
    assert target.read_bytes() == b"old bytes"
    assert not list(tmp_path.glob(".kept.txt.*"))  # no temp file left


# -- corpus lists --------------------------------------------------------------
def _corpus_rows(pane):
    return [pane.file_list.item(i).text() for i in range(pane.file_list.count())]


def test_train_lists_each_corpus_file_with_its_encoding_and_keeps_the_users_choice(gui_app, gui_data_dir, qtbot,
                                                                                   catalog, files):
    pane = TrainPane(catalog=catalog)
    qtbot.addWidget(pane)
    pane.show()
    assert pane.corpus_box.title() == "Corpus (text files)"
    pane.add_files([files["gbk"], files["big5"], files["utf16"]])
    assert _corpus_rows(pane) == [f"{files['gbk']}  ·  GB18030", f"{files['big5']}  ·  Big5",
                                  f"{files['utf16']}  ·  UTF-16LE"]
    assert not pane.encoding_box.isEnabled() and pane.encoding_box.currentText() == ""
    item = pane.file_list.item(1)
    rect = pane.file_list.visualItemRect(item)
    qtbot.mouseClick(pane.file_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert pane.encoding_box.isEnabled() and pane.encoding_box.currentText() == "Big5"
    choose(pane.encoding_box, "big5hkscs")
    assert pane.file_list.encodings() == ["gb18030", "big5hkscs", "utf-16-le"]
    assert [r.files for r in pane._requests()][0][1] == TextPath(files["big5"], "big5hkscs")
    pane.save_state()
    again = TrainPane(catalog=catalog)
    qtbot.addWidget(again)
    assert again.file_list.encodings() == ["gb18030", "big5hkscs", "utf-16-le"]


def test_compare_corpus_reads_each_file_in_its_encoding(gui_app, gui_data_dir, qtbot, catalog, files):
    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane)
    pane.show()
    pane.corpus_mode.setChecked(True)
    pane.add_files([files["gbk"], files["utf16"]])
    assert _corpus_rows(pane) == [f"{files['gbk']}  ·  GB18030", f"{files['utf16']}  ·  UTF-16LE"]
    with qtbot.waitSignal(pane.resultsChanged, timeout=120_000):
        pane.run_corpus()
    pairs = [(e.name, load_tokenizer(e.path)) for e in pane.entries()]
    expected = compare_tokenizers(pairs, texts=[SIMPLIFIED, "\ufeff" + SIMPLIFIED])
    assert [(r.tokens, r.chars) for r in pane.results] == [(r.tokens, r.chars) for r in expected]
    qtbot.waitUntil(lambda: not pane.is_busy(), timeout=10_000)


def test_a_corpus_file_that_is_not_text_is_listed_with_a_question_mark(gui_app, gui_data_dir, qtbot, catalog,
                                                                        tmp_path):
    bad = tmp_path / "image.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff")
    pane = TrainPane(catalog=catalog)
    qtbot.addWidget(pane)
    pane.add_files([bad])
    assert _corpus_rows(pane) == [f"{bad}  ·  ?"]
    assert "not UTF-8 text (invalid byte at offset 0), nor GB18030" in pane.file_list.item(0).toolTip()
    assert pane.file_list.text_paths() == [str(bad)]



@pytest.mark.parametrize("pane_class", [TrainPane, ComparePane])
def test_a_remembered_encoding_python_does_not_know_is_detected_again(gui_app, gui_data_dir, qtbot, catalog,
                                                                      files, pane_class):
    # A hand-edited (or other Python's) settings file must not stop the pane from opening.
    group = "train" if pane_class is TrainPane else "compare"
    Settings(group).set("files", [str(files["gbk"]), str(files["big5"])])
    Settings(group).set("encodings", ["no-such-codec", "big5hkscs"])
    pane = pane_class(catalog=catalog)
    qtbot.addWidget(pane)
    assert pane.file_list.encodings() == ["gb18030", "big5hkscs"]
