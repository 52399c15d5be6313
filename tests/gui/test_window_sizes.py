"""Every pane at 800x600, 1200x800 and 1920x1080, in English and 简体中文: no label,
button, header or chart text cut or elided, no wrapped message cut through a line
(each text measured against its widget with the widget's font metrics)."""
from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QHeaderView, QLabel, QStyle, QWidget

from wubitok.gui.main_window import MainWindow
from wubitok.gui.panes.compare.chart import CompareChart
from wubitok.gui.support import i18n
from wubitok.paths import resources_dir
from wubitok.services.model_files import bundled_models_dir
from wubitok.services.training import TrainRequest, train_to_file

SIZES = [(800, 600), (1200, 800), (1920, 1080)]
SAMPLES = {"lookup": "ni", "convert": "wqiy vbg", "tokenize": "五笔字型输入法是王永民在1983年发明的。Wubi-BPE learns.",
           "compare": "床前明月光，疑是地上霜。\nTokenizers split 中文 text differently."}


def _rich(label: QLabel) -> bool:
    return label.textFormat() == Qt.TextFormat.RichText or bool(re.search(r"<[a-zA-Z/][^>]*>", label.text()))


def _plain(label: QLabel) -> str:
    if _rich(label):
        doc = QTextDocument()
        doc.setDefaultFont(label.font())
        doc.setHtml(label.text())
        return doc.toPlainText()
    return label.text().replace("&&", "\0").replace("&", "").replace("\0", "&")  # no mnemonic marks


def _ideal_width(label: QLabel) -> float:
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    if _rich(label):
        doc.setHtml(label.text())
    else:
        doc.setPlainText(_plain(label))
    return doc.idealWidth()


def cut_texts(root: QWidget) -> list[str]:
    """Texts in ``root`` that do not fit their widgets, each described."""
    cut = []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisible() or w.width() <= 1:
            continue
        fm = w.fontMetrics()
        if isinstance(w, QLabel) and _plain(w).strip() and w.pixmap().isNull():
            if w.wordWrap():
                if w.heightForWidth(w.width()) > w.height() + 1:
                    cut.append(f"wrapped label cut ({w.height()} of {w.heightForWidth(w.width())} px): {_plain(w)!r}")
            elif _ideal_width(w) > w.contentsRect().width() + 1:
                cut.append(f"label cut ({w.contentsRect().width()} of {_ideal_width(w):.0f} px): {_plain(w)!r}")
        elif isinstance(w, QAbstractButton) and w.text():
            if w.sizeHint().width() > w.width() + 1:
                cut.append(f"button cut ({w.width()} of {w.sizeHint().width()} px): {w.text()!r}")
        elif isinstance(w, QGroupBox) and w.title():
            if fm.horizontalAdvance(w.title()) + 20 > w.width():
                cut.append(f"group title cut: {w.title()!r}")
        elif isinstance(w, QHeaderView) and w.orientation() == Qt.Orientation.Horizontal and w.model() is not None:
            margin = 2 * w.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, w)
            for section in range(w.count()):
                if w.isSectionHidden(section):
                    continue
                text = w.model().headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
                if isinstance(text, str) and fm.horizontalAdvance(text) + margin > w.sectionSize(section):
                    cut.append(f"header cut ({w.sectionSize(section)} px): {text!r}")
        elif isinstance(w, CompareChart):
            cut += [f"chart text cut: {t!r}" for t in w.cut_texts()]
    return cut


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Two models really trained on a sample, for Train's result lines (the longest it shows)."""
    folder = tmp_path_factory.mktemp("models")
    corpus = str(resources_dir() / "samples" / "tang300.txt")
    return [train_to_file(TrainRequest(kind, (corpus,), 8000, folder / f"{kind}-8000-tang300.json",
                                       backend="python"))
            for kind in ("wordpiece", "unigram")]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_no_text_is_cut_at_any_size(gui_app, gui_data_dir, qtbot, trained, size, language):
    from wubitok.gui.panes.train import _ModelRow

    i18n.set_language(language)
    window = MainWindow(restore=False)
    qtbot.addWidget(window)
    try:
        window.resize(*size)
        window.show()
        qtbot.waitExposed(window)
        problems = []
        for key in window.pane_keys():
            window.show_pane(key)
            pane = window.pane(key)
            qtbot.waitUntil(pane.is_ready, timeout=60_000)
            if key == "compare":  # four, two of them with a "trained by" caption
                pane.set_models(sorted(bundled_models_dir().glob("*.json"))[:4])
            if key in SAMPLES:
                pane.set_sample_text(SAMPLES[key])
                qtbot.waitUntil(pane.is_ready, timeout=60_000)
            if key == "train":
                for i, result in enumerate(trained):
                    pane.rows[result.request.output] = _ModelRow(pane.algorithm_label(result.request.model_type),
                                                                 pane.progress_grid, i)
                    pane._trained(result)
            qtbot.wait(50)  # the layout after the last change
            problems += [f"{key}: {p}" for p in cut_texts(pane)]
            if key == "compare":
                tops = {c.view.mapTo(pane, QPoint(0, 0)).y() for c in pane.columns}
                if len(tops) > 1:
                    problems.append(f"compare: the token views start at different heights {sorted(tops)}")
        assert not problems, f"{size} {language}:\n" + "\n".join(problems)
    finally:
        window.shutdown()
        i18n.set_language("en")
