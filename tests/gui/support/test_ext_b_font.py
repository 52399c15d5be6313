"""CJK Extension B renders: the bundled HanaMinB subset sits behind the Han font everywhere text is shown."""
from __future__ import annotations

from PySide6.QtGui import QFontDatabase, QGuiApplication

from wubitok.gui.panes.tokenize import TokenizePane
from wubitok.gui.support import fonts

EXT_B = "\U00020000\U0002024e"  # 𠀀 𠉎


def test_the_bundled_ext_b_font_has_the_characters(gui_app):
    family = fonts.fallbacks()[-1]
    assert family in QFontDatabase.families()
    assert fonts.covers(family, EXT_B)
    assert family in QGuiApplication.font().families()


def test_ext_b_characters_are_drawn_not_spelled_out(gui_app):
    fonts.can_draw.cache_clear()
    assert fonts.drawable(EXT_B) == EXT_B
    # One that no bundled font has is still named, not boxed.
    assert fonts.drawable("\U0002a6d6") in ("\U0002a6d6", "⟨U+2A6D6⟩")


def test_inputs_token_views_and_tables_fall_back_to_it(gui_app, qtbot, catalog, gui_data_dir):
    pane = TokenizePane(catalog=catalog)
    qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
    family = fonts.fallbacks()[-1]
    for widget in (pane.editor, pane.token_view, pane.token_table, pane.id_view):
        assert family in widget.font().families(), type(widget).__name__
    assert family in fonts.han_font(12).families() and family in fonts.monospace_font().families()
