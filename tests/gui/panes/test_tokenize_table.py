"""Tokenize's token table, count, Wubi toggle and id copy, against the bundled wubi-bpe model."""
from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from wubitok.engines.base import load_tokenizer
from wubitok.gui.panes.tokenize import TokenizePane
from wubitok.gui.widgets.token_table import COLUMNS, WUBI_COLUMN
from wubitok.services.model_files import bundled_models_dir
from wubitok.wubi.dictionary import default_dictionary

TEXT = "五笔字型输入法，Wubi keys 𠀀。"


@pytest.fixture
def pane(qtbot, catalog, show_pane):
    p = show_pane(TokenizePane(catalog=catalog))
    p.set_model("wubi-bpe-6000")
    p.set_sample_text(TEXT)
    qtbot.waitUntil(p.is_ready, timeout=30_000)
    return p


def _expected():
    return load_tokenizer(str(bundled_models_dir() / "wubi-bpe-6000.json")).encode(TEXT)


def test_the_table_lists_every_token_with_id_text_wubi_bytes_and_offsets(pane):
    enc = _expected()
    model = pane.token_table.token_model
    assert model.rowCount() == len(enc.ids) > 0
    d = default_dictionary()
    for row, (tid, (s, e)) in enumerate(zip(enc.ids, enc.offsets)):
        assert model.cell(row, "index") == str(row)
        assert model.cell(row, "id") == str(tid)
        assert model.cell(row, "bytes") == str(len(TEXT[s:e].encode()))
        assert model.cell(row, "offsets") == f"{s}–{e}"
        han = [c for c in TEXT[s:e] if not c.isascii() and d.full_code(c)]
        assert model.cell(row, "wubi") == " ".join(d.full_code(c) for c in han)
    row_wu = next(r for r, (s, e) in enumerate(enc.offsets) if "五" in TEXT[s:e])
    assert "gg" in model.cell(row_wu, "wubi")  # 五 is gghg
    # The table's cells are what it displays.
    index = model.index(row_wu, COLUMNS.index("wubi"))
    assert model.data(index) == model.cell(row_wu, "wubi")


def test_the_token_count_is_shown_large_at_the_top(pane):
    n = len(_expected().ids)
    assert pane.count_label.text() == f"{n:,}"
    assert pane.count_label.font().pointSizeF() > 1.5 * pane.stats_label.font().pointSizeF()
    assert pane.count_label.mapTo(pane, QPoint(0, 0)).y() < pane.token_view.mapTo(pane, QPoint(0, 0)).y()


def test_the_wubi_toggle_shows_the_spelling_column_without_hovering(pane):
    pane.wubi_box.setChecked(True)
    assert not pane.token_table.isColumnHidden(WUBI_COLUMN)
    pane.wubi_box.setChecked(False)
    assert pane.token_table.isColumnHidden(WUBI_COLUMN)
    pane.wubi_box.setChecked(True)
    assert not pane.token_table.isColumnHidden(WUBI_COLUMN)


def test_hovering_a_row_outlines_the_token_in_the_text_and_back(pane, qtbot):
    table = pane.token_table
    row = 3
    rect = table.visualRect(table.token_model.index(row, 0))
    QTest.mouseMove(table.viewport(), rect.center())
    qtbot.waitUntil(lambda: pane.token_view.highlighted_token() == row)
    # And hovering the coloured text marks the row of the token under the mouse.
    view = pane.token_view
    data = view.tokenized()
    seg = next(i for i, toks in enumerate(data.spans.seg_tokens) if toks and toks[0] == 0)
    cursor = view.textCursor()
    cursor.setPosition(data.spans.doc_start[seg])
    point = view.cursorRect(cursor).center() + QPoint(2, 0)
    QTest.mouseMove(view.viewport(), point)
    qtbot.waitUntil(lambda: table.token_model.highlighted == 0)
    highlighted = table.token_model.data(table.token_model.index(0, 1), Qt.ItemDataRole.BackgroundRole)
    assert highlighted is not None


def test_copy_ids_puts_the_ids_on_the_clipboard_as_a_list(pane):
    QGuiApplication.clipboard().clear()
    pane.copy_ids_button.click()
    assert json.loads(QGuiApplication.clipboard().text()) == _expected().ids
