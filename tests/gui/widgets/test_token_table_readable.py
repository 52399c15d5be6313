"""Tokenize's token column reads as text (issue #30): the characters a token covers, a piece of a
character as "民 (1 of 2)", bytes that are not a whole character in hex, whitespace as marks; the
tokenizer's own spelling (Wubi keys, byte letters) only in the spelling column and the tooltips.
With the four bundled models, and for a GB18030 file."""
from __future__ import annotations

import re

import pytest

from wubitok.engines.base import load_tokenizer
from wubitok.gui.panes.tokenize import TokenizePane
from wubitok.gui.widgets.token_table import COLUMNS
from wubitok.services.model_files import bundled_models_dir
from wubitok.services.readable_tokens import visible

BUNDLED = sorted(p.stem for p in bundled_models_dir().glob("*.json"))
TEXT = "五笔王永民 民族，你好！\n\tHello world  龘𠀀\u3000Ω"
PIECE = re.compile(r"(.) \((\d+) of (\d+)\)")
HEX = re.compile(r"<([0-9A-F]{2}(?: [0-9A-F]{2})*)>")


@pytest.fixture
def pane(qtbot, catalog, show_pane):
    return show_pane(TokenizePane(catalog=catalog), 1200, 800)


def _tokenize(qtbot, pane, model: str, text: str):
    pane.set_model(model)
    pane.set_sample_text(text)
    qtbot.waitUntil(lambda: pane.is_ready() and pane.token_view.tokenized() is not None
                    and pane.token_view.tokenized().text == text, timeout=60_000)
    qtbot.waitUntil(lambda: pane.token_table.token_model.rowCount() == len(pane.token_ids()), timeout=30_000)
    return pane.token_table.token_model


def _check_reads_as_text(table, text: str) -> None:
    """Every token cell is made of the text's own characters, marks, pieces and hex bytes only."""
    data = table.tokenized()
    utf8_hex = " ".join(f"{b:02X}" for b in text.encode("utf-8"))
    for row in range(table.rowCount()):
        cell = table.cell(row, "token")
        s, e = data.encoding.offsets[row]
        if not data.encoding.partial_at(row):
            assert cell == visible(text[s:e]) or cell.startswith("[UNK]"), (row, cell)
            continue
        for m in PIECE.finditer(cell):
            assert m.group(1) in visible(text[s:e]) and 1 <= int(m.group(2)) <= int(m.group(3)), cell
        for m in HEX.finditer(cell):
            assert m.group(1) in utf8_hex, cell
        rest = HEX.sub("", PIECE.sub("", cell)).replace(" ", "")
        assert set(rest) <= set(visible(text)), (row, cell)


@pytest.mark.parametrize("model", BUNDLED)
def test_the_token_column_shows_the_text_and_the_spelling_column_the_tokenizers_form(qtbot, pane, model):
    table = _tokenize(qtbot, pane, model, TEXT)
    _check_reads_as_text(table, TEXT)
    tok = load_tokenizer(bundled_models_dir() / f"{model}.json")
    data = table.tokenized()
    cells = [table.cell(r, "token") for r in range(table.rowCount())]
    enc = tok.encode(TEXT)
    for row, tid in enumerate(data.encoding.ids):
        # a piece after a character's first reads on from the pieces before it (Wubi-BPE's shared-bytes)
        reading = tok.byte_reading
        spelled = tok.spelling(tid) if reading is None else reading.spelling_at(tok.byte_values, enc.ids,
                                                                                 enc.offsets, row)
        assert table.cell(row, "spelling") == visible(spelled)
        assert "Spelled by the tokenizer: " + visible(spelled) in table.token_tip(row)
    assert cells[0] == "五" or cells[0].startswith("五 (1 of ")  # Wubi-BPE may cut 五 in its context
    if not model.startswith("wordpiece"):  # WordPiece drops whitespace (lossy by design)
        assert "⇥" in cells and "␣" in "".join(cells)
    if model.startswith("wubi-bpe"):
        # 王永民 民族 are whole tokens; the rare 龘 is cut in two (its first key, then the rest
        # with its index): each piece names 龘 and which piece it is, not the character a
        # piece's spelling alone would decode to, and the spelling shows keys as typed.
        assert cells[:5] == list("五笔王永民")
        first = cells.index("龘 (1 of 2)")
        assert cells[first + 1] == "龘 (2 of 2)"
        assert [table.cell(first, "spelling"), table.cell(first + 1, "spelling")] == ["u", "e#19"]
        # the ideographic space, outside the dictionary, is UTF-8 bytes E3 80 80: its pieces name it
        # (shared-bytes: 80 alone could as well be the key a, so no piece of it shows as bytes)
        assert "□ (1 of 2)" in cells and "□ (2 of 2)" in cells
    if model.startswith("bpe"):
        assert "<E9 BE>" in cells and "Bytes that are part of a character: 龘 is E9 BE 98 in UTF-8" in \
            table.token_tip(cells.index("<E9 BE>"))
        assert table.cell(0, "spelling") == "äºĶ"  # the byte letters stay in their own column
    if model.startswith("wordpiece"):
        assert "[UNK] for 龘" in cells
    if model.startswith("unigram"):
        assert "<E9>" in cells and table.cell(cells.index("<E9>"), "spelling") == "<0xE9>"


def test_the_legend_and_the_spellings_switch(qtbot, pane):
    _tokenize(qtbot, pane, "wubi-bpe-6000", TEXT)
    assert pane.legend_label.isVisible() and "民 (1 of 2)" in pane.legend_label.text()
    assert "w#2" in pane.legend_label.text()  # how the spelling column writes an index
    spelling = COLUMNS.index("spelling")
    pane.wubi_box.setChecked(False)
    assert pane.token_table.isColumnHidden(spelling)
    pane.wubi_box.setChecked(True)
    assert not pane.token_table.isColumnHidden(spelling)


def test_a_gb18030_file_reads_as_its_characters(qtbot, pane, tmp_path):
    text = "床前明月光，疑是地上霜。\n举头望明月，低头思故乡。𠀀\n"
    path = tmp_path / "poem.txt"
    path.write_bytes(text.encode("gb18030"))
    pane.set_model("bpe-6000")
    pane.open_text_file(path)
    qtbot.waitUntil(lambda: pane.is_ready() and pane.token_view.tokenized() is not None
                    and pane.token_view.tokenized().text == text, timeout=60_000)
    qtbot.waitUntil(lambda: pane.token_table.token_model.rowCount() == len(pane.token_ids()), timeout=30_000)
    assert pane.encoding_box.currentText().lower().replace("-", "").startswith("gb18030")
    table = pane.token_table.token_model
    _check_reads_as_text(table, text)
    shown = "".join(table.cell(r, "token") for r in range(table.rowCount()))
    assert "床前" in shown or "床" in shown
    assert not set("äåæçèéï¼") & set(shown)  # no byte letters: it does not look wrongly decoded
