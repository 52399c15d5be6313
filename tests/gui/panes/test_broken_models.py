"""A model that does not load: one dialog, marked broken, not chosen again at the next launch, removable."""
from __future__ import annotations

from PySide6.QtCore import Qt

from wubitok.gui.panes.compare import ComparePane
from wubitok.gui.panes.tokenize import TokenizePane
from wubitok.gui.support.model_catalog import ModelCatalog


def _garbage(tmp_path):
    path = tmp_path / "garbage.json"
    path.write_text('{"model": {"type": "BPE", "vocab": 12}', encoding="utf-8")  # cut short: not JSON
    return path


def _pane(qtbot, catalog) -> TokenizePane:
    pane = TokenizePane(catalog=catalog)
    qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
    pane.show()
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    return pane


def test_one_dialog_per_broken_model_however_much_is_typed(gui_app, gui_data_dir, qtbot, tmp_path, error_dialogs):
    catalog = ModelCatalog()
    pane = _pane(qtbot, catalog)
    pane.open_model(_garbage(tmp_path))
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    assert len(error_dialogs) == 1
    for key in (Qt.Key.Key_A, Qt.Key.Key_B, Qt.Key.Key_C):
        qtbot.keyClick(pane.editor, key)
        qtbot.waitUntil(pane.is_ready, timeout=30_000)
    assert len(error_dialogs) == 1
    entry = pane.current_entry()
    assert catalog.broken_reason(entry) and catalog.label(entry).endswith("(broken)")
    assert "could not be loaded" in pane.stats_label.text()
    # Compare with it: a note, no new dialog.
    compare = ComparePane(catalog=catalog)
    qtbot.addWidget(compare, before_close_func=lambda w: w.shutdown())
    compare.set_models([entry, "bpe-6000"])
    qtbot.waitUntil(compare.is_ready, timeout=30_000)
    assert len(error_dialogs) == 1 and "garbage" in compare.status_label.text()
    pane.save_state()


def test_a_broken_model_is_not_chosen_again_at_the_next_launch(gui_app, gui_data_dir, qtbot, tmp_path,
                                                               error_dialogs):
    first = _pane(qtbot, ModelCatalog())
    first.open_model(_garbage(tmp_path))
    qtbot.waitUntil(first.is_ready, timeout=30_000)
    first.save_state()
    first.shutdown()
    shown = len(error_dialogs)
    catalog = ModelCatalog()  # the next launch
    second = _pane(qtbot, catalog)
    assert second.current_entry().name == "wubi-bpe-6000"
    assert len(error_dialogs) == shown and second.token_count() > 0
    assert any(catalog.broken_reason(e) for e in catalog.entries())


def test_an_opened_model_can_be_removed_from_the_list(gui_app, gui_data_dir, qtbot, tmp_path, error_dialogs):
    catalog = ModelCatalog()
    pane = _pane(qtbot, catalog)
    path = _garbage(tmp_path)
    pane.open_model(path)
    qtbot.waitUntil(pane.is_ready, timeout=30_000)
    assert pane.remove_model_button.isEnabled()
    pane.remove_model_button.click()
    assert catalog.find(path) is None and path.exists()
    assert ModelCatalog().find(path) is None  # gone from the remembered list too
    pane.set_model("bpe-6000")
    assert not pane.remove_model_button.isEnabled()  # bundled models stay
