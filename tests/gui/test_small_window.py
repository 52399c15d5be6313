"""The window works at 800x600: no pane forces it wider or taller, long notes wrap."""
from __future__ import annotations

MODELS = ["wubi-bpe-6000", "bpe-6000", "wordpiece-6000", "unigram-6000"]


def test_every_pane_fits_800x600(open_window, qtbot, tmp_path):
    window = open_window(800, 600)
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


def test_at_800x600_nothing_needs_sideways_scrolling_and_the_keys_are_readable(open_window, pane_ready, qtbot):
    window = open_window(800, 600)

    def show(key: str, text: str | None = None):
        return pane_ready(window, key, text)

    # Compare's export buttons: inside the window's width.
    compare = show("compare", "明月几时有，把酒问青天。")
    for button in compare.export_buttons.values():
        left = button.mapTo(window, button.rect().topLeft()).x()
        assert button.isVisible() and 0 <= left and left + button.width() <= window.width()
    # Tokenize's table: every column, Wubi, bytes and offsets included, in its viewport.
    table = show("tokenize", "明月几时有，把酒问青天。").token_table
    last = table.model().columnCount() - 1
    assert not table.isColumnHidden(last)
    assert table.columnViewportPosition(last) + table.columnWidth(last) <= table.viewport().width()
    # The pad's keyboard: no label under 10 pixels.
    keyboard = show("ime").aid.keyboard
    unit = next(iter(keyboard._key_rects().values())).width()
    assert min(f.pixelSize() for f in keyboard._key_fonts(unit).values()) >= 10
    # Lookup's placeholder: whole, beside the clear button.
    box = show("lookup", "").search_box
    assert box.fontMetrics().horizontalAdvance(box.placeholderText()) <= box.contentsRect().width() - 40
