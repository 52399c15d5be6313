"""Token view: each box is painted in its token's colour, in the light and the dark palette."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette

from wubitok.engines.base import Encoding
from wubitok.gui.widgets.token_view import DARK_COLOURS, LIGHT_COLOURS, TokenTextView

TEXT = "ab cd ef gh"
# Four tokens, spaces uncovered: box colours cycle through the palette by token index.
ENCODING = Encoding(ids=[10, 11, 12, 13], tokens=["ab", "cd", "ef", "gh"], offsets=[(0, 2), (3, 5), (6, 8), (9, 11)])


def _painted_colours(view: TokenTextView) -> set[int]:
    image = view.viewport().grab().toImage()
    return {image.pixel(x, y) & 0xFFFFFF for x in range(image.width()) for y in range(min(image.height(), 40))}


@pytest.mark.parametrize("dark", [False, True])
def test_every_token_box_has_its_palette_colour(gui_app, qtbot, tokenized, dark):
    view = TokenTextView()
    qtbot.addWidget(view)
    if dark:
        pal = view.palette()
        pal.setColor(QPalette.ColorRole.Base, QColor("#202020"))
        pal.setColor(QPalette.ColorRole.Text, QColor("#f0f0f0"))
        view.setPalette(pal)
    view.resize(400, 120)
    view.show()
    view.set_tokenized(tokenized(TEXT, ENCODING))
    colours = DARK_COLOURS if dark else LIGHT_COLOURS
    expected = [QColor(colours[i % len(colours)]) for i in range(4)]
    segs = view.tokenized().token_segments()
    assert [view.segment_colour(s) for s in segs] == expected
    painted = _painted_colours(view)
    assert {c.rgb() & 0xFFFFFF for c in expected} <= painted
    other = DARK_COLOURS if not dark else LIGHT_COLOURS
    assert not {QColor(c).rgb() & 0xFFFFFF for c in other[:4]} & painted
