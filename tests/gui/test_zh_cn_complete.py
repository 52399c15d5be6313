"""In 简体中文, no visible string is left in English: every pane, menu, tooltip and accessible name."""
from __future__ import annotations

import re
import shutil

import pytest
from PySide6.QtCore import QAbstractListModel, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from wubitok.gui.main_window import MainWindow
from wubitok.gui.panes.compare.chart import CompareChart
from wubitok.services.model_files import bundled_models_dir

# Names that stay as they are in Chinese text: products, formats, keys, model file names.
KEEP = (
    "Wubi-BPE", "WordPiece", "Unigram", "SentencePiece", "BPE", "CSV", "JSON", "Markdown", "PNG", "UTF-8",
    "UTF-16", "GB18030", "GBK", "GB2312", "Big5-HKSCS", "Big5", "Ctrl", "Shift", "Tab", "Enter", "Esc", "Delete",
    "Backspace", "Rényi", "wubitok", "sentencepiece",
    "ibus", "Rime", "fcitx5", "Droid Sans Fallback", "Apache", "HanaMin", "Hanazono", "Qt", "English", "Wubi",
    "tokenizer.json", "tiktoken", "Hugging Face", "tokenizers", "Python", "CJK", "OFL", "Unicode", "MB",
    "wordpiece", "unigram",  # model kinds, as the kind column shows them
)
_TAGS = re.compile(r"<[^>]+>|&[a-z]+;")
_ENGLISH = re.compile(r"[A-Za-z]{3,}")


def english_left(text: str, keep: tuple[str, ...]) -> str | None:
    """The first English word of ``text`` once markup and the names in ``keep`` are removed."""
    text = _TAGS.sub(" ", text)
    for name in sorted(keep, key=len, reverse=True):
        text = text.replace(name, " ")
    text = re.sub(r"\*?\.[a-z]+\b", " ", text)  # file patterns: *.txt
    text = re.sub(r"\b[a-z]+(?:-[a-z0-9]+)+\b", " ", text)  # model names: wubi-bpe-6000
    if re.search(r"[\u4e00-\u9fff]", text):
        # Examples inside a Chinese sentence: Wubi codes and pinyin (wqiy, zni, ni3).
        text = re.sub(r"\b[a-z]{1,6}[0-9]?\b", " ", text)
    m = _ENGLISH.search(text)
    return m.group(0) if m else None


def visible_texts(widget: QWidget):
    """(where, text) of everything a user can read on ``widget`` and its children."""
    for w in [widget, *widget.findChildren(QWidget)]:
        where = f"{type(w).__name__} {w.objectName()!r} in {type(w.parent()).__name__}"
        if isinstance(w, QLabel):
            yield where, w.text()
        if isinstance(w, QAbstractButton):
            yield where, w.text()
        if isinstance(w, QGroupBox):
            yield where, w.title()
        if isinstance(w, QComboBox) and not w.isEditable() and not isinstance(w.model(), type(None)):
            if w.model().metaObject().className() == "QStandardItemModel":  # fixed choices, not data
                yield from ((where, w.itemText(i)) for i in range(w.count()))
        if isinstance(w, (QLineEdit, QPlainTextEdit, QTextEdit)):
            yield where, w.placeholderText()
        if isinstance(w, QTabWidget):
            yield from ((where, w.tabText(i)) for i in range(w.count()))
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            model = w.model()
            columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount()
            for c in range(columns):
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    value = model.headerData(c, Qt.Orientation.Horizontal, role)
                    if isinstance(value, str):
                        yield where + " header", value
        if isinstance(w, CompareChart):
            texts = w.texts()
            yield from ((where + " chart", t) for t in (texts.bar_title, texts.hist_title, texts.part_note,
                                                        texts.part_label))
        yield where + " tooltip", w.toolTip()
        yield where + " accessible name", w.accessibleName()


def menu_texts(window: MainWindow):
    def walk(actions, where):
        for a in actions:
            yield where, a.text()
            yield where + " tooltip", a.toolTip() if a.toolTip() != a.text().replace("&", "") else ""
            if a.menu() is not None:
                yield from walk(a.menu().actions(), where + " > " + a.text())
    yield from walk(window.menuBar().actions(), "menu")
    for m in window.findChildren(QMenu):
        yield from walk(m.actions(), f"menu {m.title()}")


@pytest.fixture
def window_zh(gui_app, gui_data_dir, qtbot, tmp_path):
    window = MainWindow(restore=False)
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    window.set_language("zh_CN")
    # An opened model file and a trained one, so the choosers show "(file)" and "(trained)".
    from wubitok.gui.support.model_catalog import shared_catalog
    from wubitok.services.model_files import user_models_dir

    opened = tmp_path / "opened-bpe.json"
    shutil.copy(bundled_models_dir() / "bpe-6000.json", opened)
    user_models_dir().mkdir(parents=True, exist_ok=True)
    shutil.copy(bundled_models_dir() / "bpe-6000.json", user_models_dir() / "mine.json")
    catalog = shared_catalog()
    catalog.refresh()
    catalog.add_file(opened)
    yield window
    window.set_language("en")
    window.shutdown()


def test_every_visible_string_is_chinese(window_zh, qtbot):
    from wubitok.gui.support.model_catalog import shared_catalog

    keep = KEEP + tuple(e.name for e in shared_catalog().entries())
    found: dict[str, str] = {}
    for key in window_zh.pane_keys():
        window_zh.show_pane(key)
        pane = window_zh.pane(key)
        qtbot.waitUntil(lambda p=pane: p.is_ready(), timeout=60_000)
        # Hidden widgets too: Compare's corpus page, Tokenize's file bar.
        for where, text in visible_texts(pane):
            word = english_left(text or "", keep)
            if word is not None:
                found.setdefault(f"{text!r}", f"{key}: {where} ({word})")
    for row in range(shared_catalog().rowCount()):
        label = shared_catalog().index(row).data()
        if english_left(label, keep):
            found[repr(label)] = "model chooser"
    for where, text in menu_texts(window_zh):
        if english_left(text or "", keep):
            found.setdefault(repr(text), where)
    assert not found, "English left in 简体中文:\n" + "\n".join(f"{t}  <- {w}" for t, w in sorted(found.items()))


def test_texts_built_in_english_are_chinese_after_a_live_switch(gui_app, gui_data_dir, qtbot, tmp_path):
    """Train's result lines and Compare's captions, progress and status are built from results
    while the app is in English; a switch to 简体中文 while it runs builds them again."""
    from wubitok.gui.support.model_catalog import shared_catalog
    from wubitok.paths import resources_dir
    from wubitok.services.model_files import user_models_dir

    window = MainWindow(restore=False)
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    window.set_language("en")
    try:
        corpus = tmp_path / "poems.txt"
        corpus.write_text((resources_dir() / "samples" / "song100.txt").read_text(encoding="utf-8"), encoding="utf-8")
        window.show_pane("train")
        train = window.pane("train")
        qtbot.waitUntil(train.is_ready, timeout=60_000)
        train.add_files([corpus])
        train.set_algorithms(["bpe", "unigram", "wordpiece"])
        train.vocab_spin.setValue(8000)  # more than this corpus gives: each line explains why
        with qtbot.waitSignal(train.trainingEnded, timeout=180_000):
            assert train.start_training()
        assert "smaller than the 8,000 asked" in next(iter(train.rows.values())).status.text()

        window.show_pane("compare")
        compare = window.pane("compare")
        qtbot.waitUntil(compare.is_ready, timeout=60_000)
        compare.set_models(sorted(bundled_models_dir().glob("*.json"))[:4])  # two with "trained by"
        compare.set_sample_text("床前明月光")
        qtbot.waitUntil(compare.is_ready, timeout=60_000)
        assert any(c.trained_by.text().startswith("trained by") for c in compare.columns)
        compare.corpus_mode.setChecked(True)
        compare.add_files([corpus])
        with qtbot.waitSignal(compare.resultsChanged, timeout=120_000):
            compare.run_corpus()
        qtbot.waitUntil(compare.is_ready, timeout=60_000)
        assert compare.progress_label.text().startswith("Done")

        window.set_language("zh_CN")  # Qt posts LanguageChange: the window follows on a later turn
        qtbot.waitUntil(lambda: window.pane_list.item(0).text() == "查询" and not window.retranslation_pending(),
                        timeout=10_000)
        keep = KEEP + tuple(e.name for e in shared_catalog().entries()) + (str(user_models_dir()), str(corpus))
        found = {}
        for key, pane in (("train", train), ("compare", compare)):
            window.show_pane(key)  # a pane not on screen is retranslated when shown
            qtbot.waitUntil(pane.is_ready, timeout=60_000)
            for where, text in visible_texts(pane):
                word = english_left(text or "", keep)
                if word is not None:
                    found.setdefault(repr(text), f"{key}: {where} ({word})")
        assert not found, "English left after the switch:\n" + "\n".join(f"{t}  <- {w}" for t, w in found.items())
    finally:
        window.set_language("en")
        window.shutdown()
