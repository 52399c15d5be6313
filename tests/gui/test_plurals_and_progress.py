"""Plural forms in English and 简体中文, progress phases, library errors with codes, in the UI language."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication

from wubitok.errors import InputError, WubitokError
from wubitok.gui.panes.convert import ConvertPane
from wubitok.gui.panes.train import TrainPane
from wubitok.gui.support import errors, i18n, progress_text
from wubitok.paths import resources_dir
from wubitok.progress import Progress


@pytest.fixture
def english(gui_app):
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def _tr(context: str, text: str, n: int) -> str:
    return QCoreApplication.translate(context, text, "", n)


def test_english_says_1_file_and_2_files(english):
    assert _tr("TrainPane", "%n file(s), {:.1f} MB", 1) == "1 file, {:.1f} MB"
    assert _tr("TrainPane", "%n file(s), {:.1f} MB", 2) == "2 files, {:.1f} MB"
    assert _tr("TokenizePane", "%Ln character(s)", 1) == "1 character"
    assert _tr("TokenizePane", "%Ln character(s)", 12345) == "12,345 characters"
    assert _tr("ConvertPane", "%Ln code(s)", 1) == "1 code"
    assert _tr("LookupPane", "%Ln result(s)", 0) == "0 results"


def test_chinese_has_one_form(gui_app):
    i18n.set_language("zh_CN")
    try:
        assert _tr("TrainPane", "%n file(s), {:.1f} MB", 1) == "1 个文件，{:.1f} MB"
        assert _tr("TokenizePane", "%Ln character(s)", 12345) == "12,345 个字符"
    finally:
        i18n.set_language("en")


def test_panes_show_singular_counts(english, qtbot, gui_data_dir, tmp_path):
    train = TrainPane()
    qtbot.addWidget(train)
    corpus = tmp_path / "one.txt"
    corpus.write_text("五笔字型", encoding="utf-8")
    train.add_files([corpus])
    assert train.corpus_label.text().startswith("1 file, ")
    convert = ConvertPane()
    qtbot.addWidget(convert)
    convert.set_sample_text("𠀀")
    qtbot.waitUntil(convert.is_ready, timeout=30_000)
    assert "1 unknown" in convert.stats.text() or "1 code" in convert.stats.text()
    assert "1 codes" not in convert.stats.text()


def test_progress_is_described_as_phases_in_the_ui_language(gui_app):
    p = Progress("merging", 1200, 5000, 830.0, 5.0, 1.0)
    i18n.set_language("zh_CN")
    try:
        assert progress_text.describe(p) == "合并 · 1,200 / 5,000 · 830/秒 · 剩余 5 秒"
    finally:
        i18n.set_language("en")
    assert progress_text.describe(p) == "merging · 1,200 / 5,000 · 830/s · 5 s left"


def test_train_shows_each_stage_as_a_phase(english, qtbot, gui_data_dir):
    pane = TrainPane()
    qtbot.addWidget(pane)
    pane.add_files([resources_dir() / "samples" / "tang300.txt"])
    pane.set_algorithms(["bpe"])
    pane.vocab_spin.setValue(400)
    pane.backend_box.setCurrentIndex(pane.backend_box.findData("python"))  # its two stages
    with qtbot.waitSignal(pane.trainingEnded, timeout=120_000):
        assert pane.start_training()
    row = next(iter(pane.rows.values()))
    # Stage changes always reach the GUI (progress is throttled within a stage only).
    assert row.stages[:2] == ["counting", "merging"]
    assert row.bar.format() == "done" and row.bar.value() == row.bar.maximum()
    pane._progress(row, Progress("merging", 10, 100, 5.0, 18.0, 2.0))
    assert row.bar.format() == "phase 2: merging · %p%" and row.bar.value() == 100


def test_train_is_disabled_without_a_corpus(english, qtbot, gui_data_dir, tmp_path):
    pane = TrainPane()
    qtbot.addWidget(pane)
    assert pane.files() == []
    assert not pane.train_button.isEnabled() and pane.train_button.toolTip()
    corpus = tmp_path / "c.txt"
    corpus.write_text("五笔字型", encoding="utf-8")
    pane.add_files([corpus])
    assert pane.train_button.isEnabled()
    pane.file_list.selectAll()
    pane.remove_files_button.click()
    assert not pane.train_button.isEnabled()


def test_validation_errors_are_translated(gui_app):
    i18n.set_language("zh_CN")
    try:
        error = InputError("add at least one corpus file", code="corpus.no_files")
        assert errors.message_of(error) == "请至少添加一个语料文件"
        assert errors.message_of(FileNotFoundError("x")).startswith("内部错误")
    finally:
        i18n.set_language("en")


def test_every_file_reading_error_is_translated(gui_app, tmp_path):
    # Each one-line error of file reading has its words in Chinese (a cut file's was shown in English).
    from wubitok.fileio import read_text

    cut = tmp_path / "cut.txt"
    cut.write_bytes("简体中文的文本文件，被截断了".encode("gbk")[:-1])
    wrong = tmp_path / "wrong.txt"
    wrong.write_bytes("中文".encode("gbk"))
    i18n.set_language("zh_CN")
    try:
        for path, encoding, words in ((cut, None, "文件是否被截断了"), (wrong, "utf-8", "字节无效")):
            with pytest.raises(WubitokError) as e:
                read_text(path, encoding)
            assert words in errors.message_of(e.value), errors.message_of(e.value)
    finally:
        i18n.set_language("en")
