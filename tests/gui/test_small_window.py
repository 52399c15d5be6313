"""The window works at 800x600: no pane forces it wider or taller, long notes wrap."""
from __future__ import annotations

from wubitok.gui.main_window import MainWindow

MODELS = ["wubi-bpe-6000", "bpe-6000", "wordpiece-6000", "unigram-6000"]


def test_every_pane_fits_800x600(gui_app, gui_data_dir, qtbot, tmp_path):
    window = MainWindow(restore=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.resize(800, 600)
    window.show()
    qtbot.waitExposed(window)
    big = tmp_path / ("a-long-file-name-that-goes-on-and-on-" * 3 + ".txt")
    big.write_text("五笔字型输入法。" * 30_000, encoding="utf-8")  # 240,000 characters: shown in part, with a note
    too_wide = {}
    for key in window.pane_keys():
        window.show_pane(key)
        pane = window.pane(key)
        if key == "compare":
            pane.set_models(MODELS)
        if key == "tokenize":
            pane.open_text_file(big)
        qtbot.waitUntil(pane.is_ready, timeout=120_000)
        hint = window.minimumSizeHint()
        if hint.width() > 800 or hint.height() > 600 or window.width() > 800:
            too_wide[key] = (hint.width(), hint.height(), window.width())
    assert window.pane("tokenize").file_bar.isVisibleTo(window.pane("tokenize"))
    assert not too_wide, f"panes needing more than 800x600 (min width, min height, window width): {too_wide}"
