"""Compare pane: tokenizers side by side, metrics, charts, corpus mode, export."""
from __future__ import annotations

import json

import pytest

from wubitok.compare import compare_tokenizers
from wubitok.compare.report import format_results
from wubitok.engines.base import engine_class, load_tokenizer
from wubitok.gui.main_window import MainWindow
from wubitok.gui.panes.compare import ComparePane
from wubitok.gui.support import errors
from wubitok.paths import resources_dir
from wubitok.services.model_files import bundled_models_dir

BUNDLED = sorted(bundled_models_dir().glob("*.json"))
SAMPLES = resources_dir() / "samples"
TEXT = "床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\nTokenizers split 中文 differently.\n" * 20


def _model(prefix: str):
    return next(p for p in BUNDLED if p.stem.startswith(prefix))


@pytest.fixture(autouse=True)
def app(gui_app):
    """The app as ``wubitok gui`` sets it up: Han font, English, light theme."""
    return gui_app


@pytest.fixture
def pane(catalog, show_pane):
    return show_pane(ComparePane(catalog=catalog), 1100, 750)


def _compare(qtbot, pane: ComparePane, models, text: str = TEXT) -> None:
    pane.set_models(models)
    pane.set_sample_text(text)
    qtbot.waitUntil(pane.is_ready, timeout=60_000)


def test_two_tokenizers_give_two_metric_rows_equal_to_the_library(qtbot, pane):
    models = [_model("wubi-bpe"), _model("bpe")]
    _compare(qtbot, pane, models)
    expected = compare_tokenizers([(p.stem, load_tokenizer(p)) for p in models], texts=TEXT)
    assert pane.table.rowCount() == 2
    for row, r in enumerate(expected):
        assert pane.table.cell_text(row, "name") == r.name
        assert pane.table.cell_text(row, "tokens") == str(r.tokens)
        assert pane.table.cell_text(row, "vocab_size") == str(r.vocab_size)
    assert [r.tokens for r in pane.results] == [r.tokens for r in expected]
    # The chart has one row per tokenizer, named like the table's rows.
    rows = pane.chart.data().rows
    assert [row.name for row in rows] == [p.stem for p in models]
    assert [round(row.chars_per_token, 6) for row in rows] == [round(r.chars_per_token, 6) for r in expected]


def test_each_column_shows_its_tokens_over_the_whole_text(qtbot, pane):
    models = [_model("wubi-bpe"), _model("bpe"), _model("unigram"), _model("wordpiece")]
    _compare(qtbot, pane, models)
    assert len(pane.columns) == 4 and not pane.add_button.isEnabled()
    for col, path in zip(pane.columns, models):
        data = col.view.tokenized()
        assert "".join(data.segment_texts()) == TEXT
        assert list(data.encoding.ids) == load_tokenizer(path).encode(TEXT).ids


def test_scrolling_one_column_scrolls_the_others(qtbot, pane):
    _compare(qtbot, pane, [_model("wubi-bpe"), _model("bpe")])
    first, second = (c.view.verticalScrollBar() for c in pane.columns)
    qtbot.waitUntil(lambda: first.maximum() > 0 and second.maximum() > 0, timeout=10_000)
    first.setValue(first.maximum())
    assert second.value() == second.maximum()
    second.setValue(0)
    assert first.value() == 0


def test_a_wordpiece_trained_by_hugging_face_says_so_over_its_column(qtbot, pane, catalog, tmp_path):
    fast = engine_class("wordpiece").train(files=[SAMPLES / "song100.txt"], vocab_size=1500, backend="fast")
    fast.save(tmp_path / "wp-fast.json")
    catalog.add_file(tmp_path / "wp-fast.json")
    _compare(qtbot, pane, [_model("wordpiece"), "wp-fast"])
    ours, theirs = (c.trained_by for c in pane.columns)
    assert ours.text() == "trained by wubitok (WordPiece score)"
    assert theirs.text() == "trained by Hugging Face tokenizers (merges by frequency, not the WordPiece score)"
    assert load_tokenizer(_model("wordpiece")).trained_by != fast.trained_by


def test_the_same_model_twice_gets_two_names(qtbot, pane):
    path = _model("bpe")
    _compare(qtbot, pane, [path, path])
    assert [r.name for r in pane.results] == [path.stem, f"{path.stem} #2"]


def test_corpus_mode_runs_in_the_background_with_progress(qtbot, pane):
    pane.set_models([_model("wubi-bpe"), _model("wordpiece")])
    pane.corpus_mode.setChecked(True)
    files = [SAMPLES / "tang300.txt", SAMPLES / "song100.txt"]
    pane.add_files(files)
    seen = []
    with qtbot.waitSignal(pane.resultsChanged, timeout=120_000):
        job = pane.run_corpus()
        job.progress.connect(seen.append)
    assert pane.progress_bar.value() == pane.progress_bar.maximum()
    assert seen and seen[-1].done == seen[-1].total
    expected = compare_tokenizers([(p.stem, load_tokenizer(p)) for p in (_model("wubi-bpe"), _model("wordpiece"))],
                                  files=files)
    assert [(r.name, r.tokens, r.lines) for r in pane.results] == [(r.name, r.tokens, r.lines) for r in expected]
    qtbot.waitUntil(lambda: pane.run_button.isEnabled() and not pane.is_busy(), timeout=10_000)
    # The chart follows on a later turn, with the corpus figures.
    qtbot.waitUntil(pane.is_ready, timeout=10_000)
    rows = pane.chart.data().rows
    assert [row.name for row in rows] == [r.name for r in expected]
    assert [round(row.chars_per_token, 6) for row in rows] == [round(r.chars_per_token, 6) for r in expected]


def test_corpus_mode_is_busy_until_its_results_are_shown(qtbot, pane):
    # The job's thread is done before its results reach the pane (a queued signal):
    # "not busy" must mean the corpus results are the ones shown.
    pane.set_models([_model("wubi-bpe"), _model("wordpiece")])
    pane.corpus_mode.setChecked(True)
    pane.add_files([SAMPLES / "tang300.txt"])
    job = pane.run_corpus()
    assert job is not None and job.wait(120)  # the thread has returned; no event handled yet
    assert pane.is_busy()
    qtbot.waitUntil(lambda: not pane.is_busy(), timeout=10_000)
    expected = compare_tokenizers([(p.stem, load_tokenizer(p)) for p in (_model("wubi-bpe"), _model("wordpiece"))],
                                  files=[SAMPLES / "tang300.txt"])
    assert [(r.name, r.tokens, r.lines) for r in pane.results] == [(r.name, r.tokens, r.lines) for r in expected]


def test_corpus_mode_cancel(qtbot, pane):
    pane.set_models([_model("unigram"), _model("bpe")])
    pane.corpus_mode.setChecked(True)
    pane.add_files([SAMPLES / "fortunes-zh.txt"])
    before = list(pane.results)
    changed = []
    pane.resultsChanged.connect(changed.append)
    job = pane.run_corpus()
    with qtbot.waitSignal(job.cancelled, timeout=60_000):
        pane.cancel_corpus()
    qtbot.waitUntil(lambda: not pane.is_busy() and pane.run_button.isEnabled(), timeout=10_000)
    assert pane.progress_label.text() == "Cancelled"
    assert changed == [] and pane.results == before


def test_a_corpus_that_is_not_utf8_gives_a_dialog(qtbot, pane, tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("naïve café\n".encode("latin-1"))
    pane.set_models([_model("bpe"), _model("wordpiece")])
    pane.corpus_mode.setChecked(True)
    pane.add_files([bad])
    with qtbot.waitSignal(errors.reporter().shown, timeout=60_000) as blocker:
        pane.run_corpus()
    assert blocker.args[0] == "File problem" and str(bad) in blocker.args[1]
    errors.reporter().last_dialog.close()
    qtbot.waitUntil(lambda: not pane.is_busy(), timeout=10_000)


@pytest.mark.parametrize("fmt", ["csv", "json", "md"])
def test_export_writes_the_library_report(qtbot, pane, tmp_path, fmt):
    _compare(qtbot, pane, [_model("wubi-bpe"), _model("bpe")])
    out = tmp_path / f"report.{fmt}"
    pane.export(out)
    written = out.read_text(encoding="utf-8")
    assert written == format_results(pane.results, fmt)
    if fmt == "json":
        assert [r["name"] for r in json.loads(written)] == [r.name for r in pane.results]
    assert not list(tmp_path.glob(".*.tmp"))  # atomic: no temp file left behind


def test_export_png_chart(qtbot, pane, tmp_path):
    _compare(qtbot, pane, [_model("wubi-bpe"), _model("bpe")])
    out = tmp_path / "chart.png"
    pane.export(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_png_chart_is_the_chart_on_screen_in_the_ui_language(qtbot, pane, tmp_path):
    import dataclasses

    from PySide6.QtGui import QImage

    from wubitok.gui.support import i18n
    from wubitok.gui.widgets.report_chart import chart_image

    _compare(qtbot, pane, [_model("wubi-bpe"), _model("bpe")])
    i18n.set_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: pane.chart.texts().bar_title == "每词元字符数")
        out = tmp_path / "chart.png"
        pane.export(out)
        saved = QImage(str(out)).convertToFormat(QImage.Format.Format_ARGB32)
        texts = dataclasses.replace(pane.chart.texts(), title="分词器对比")
        assert saved == chart_image(pane.results, texts=texts).convertToFormat(QImage.Format.Format_ARGB32)
        assert saved != chart_image(pane.results).convertToFormat(QImage.Format.Format_ARGB32)  # not English
    finally:
        i18n.set_language("en")


def _comparison(pane: ComparePane, text: str):
    """What the worker hands the pane for ``text`` (the real worker body, run here)."""
    from wubitok.gui.panes.compare import compare_text

    return compare_text(pane.catalog, pane.entries(), text, pane.columns[0].view.font(), cancel=None)


def test_a_text_result_is_shown_in_steps_and_complete(qtbot, pane):
    pane.set_models([_model("wubi-bpe"), _model("bpe"), _model("unigram")])
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    text = "明月几时有？把酒问青天。\n" * 50
    result = _comparison(pane, text)
    pane._show_text(result)
    # The first view is shown at once; the rest follow on later turns of the event loop.
    assert pane.columns[0].view.toPlainText() == text
    assert pane.columns[2].view.toPlainText() != text
    assert not pane.is_ready()
    with qtbot.waitSignal(pane.ready, timeout=10_000):
        pass
    assert pane.is_ready()
    assert [c.view.toPlainText() for c in pane.columns] == [text] * 3
    assert [c.view.tokenized().encoding.ids for c in pane.columns] == [d.encoding.ids for d, _ in result.views]
    assert [r.tokens for r in pane.results] == [r.tokens for r in result.results]
    assert pane.table.rowCount() == 3
    assert len(pane.chart.data().rows) == 3


def test_a_stale_result_shown_in_steps_is_abandoned_for_a_newer_one(qtbot, pane):
    pane.set_models([_model("wubi-bpe"), _model("bpe"), _model("wordpiece")])
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    old, new = "旧的文本。" * 30, "新的文本，不一样。" * 30
    stale, fresh = _comparison(pane, old), _comparison(pane, new)
    pane._show_text(stale)  # its first step only: the newer result arrives before the next turn
    pane._show_text(fresh)
    with qtbot.waitSignal(pane.ready, timeout=10_000):
        pass
    qtbot.wait(50)  # any step of the stale result still queued would have run by now
    assert [c.view.toPlainText() for c in pane.columns] == [new] * 3
    assert [r.tokens for r in pane.results] == [r.tokens for r in fresh.results]
    assert [r.chars for r in pane.results] == [len(new)] * 3


def test_editing_abandons_a_result_being_shown(qtbot, pane):
    pane.set_models([_model("wubi-bpe"), _model("bpe")])
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    pane._show_text(_comparison(pane, "半途的结果。"))
    pane.set_sample_text("最后的文本")  # recompare(): the half-shown result is dropped
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    assert [c.view.toPlainText() for c in pane.columns] == ["最后的文本"] * 2
    assert [r.chars for r in pane.results] == [5, 5]


def test_the_chart_shows_the_first_result_in_the_ui_language(qtbot, catalog):
    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane)
    assert pane.chart.data().rows == []
    pane.show()
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    assert pane.chart.texts().bar_title == "Characters per token"
    names = [r.name for r in pane.results]
    assert len(names) == 2 and [row.name for row in pane.chart.data().rows] == names


def test_opening_in_corpus_mode_shows_an_empty_chart(qtbot, catalog):
    from wubitok.gui.support.settings import Settings

    Settings("compare").set("mode", "corpus")
    pane = ComparePane(catalog=catalog)
    qtbot.addWidget(pane)
    pane.show()
    qtbot.waitUntil(pane.is_ready, timeout=10_000)
    assert pane.corpus_mode.isChecked() and pane.results == [] and pane.chart.data().rows == []


def test_a_keystroke_while_a_result_is_shown_in_steps_ends_with_the_typed_text(qtbot, pane):
    from PySide6.QtCore import Qt

    pane.set_models([_model("wubi-bpe"), _model("bpe"), _model("unigram")])
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    pane.editor.setPlainText("明月几时有")
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    pane._show_text(_comparison(pane, "明月几时有"))
    assert pane._showing.pending()  # the other columns, the table and the charts are still to come
    pane.editor.setFocus()
    pane.editor.moveCursor(pane.editor.textCursor().MoveOperation.End)
    qtbot.keyClick(pane.editor, Qt.Key.Key_A)
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    assert [c.view.toPlainText() for c in pane.columns] == ["明月几时有a"] * 3
    assert [r.chars for r in pane.results] == [6] * 3
    assert pane.table.rowCount() == 3 and len(pane.chart.data().rows) == 3


def test_the_chart_opens_tall_enough_for_its_rows(gui_app, gui_data_dir, qtbot):
    # The split is set before the chart has rows: by a blank chart's size hint the
    # results got the smaller part of an 800-pixel window.
    window = MainWindow(restore=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.resize(1200, 800)
    window.show()
    window.show_pane("compare")
    pane = window.pane("compare")
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    texts, results = pane.main_splitter.sizes()
    assert results > texts
    qtbot.waitUntil(lambda: pane.chart.height() >= pane.chart.heightForWidth(pane.chart.width()))


def test_a_sample_text_arrives_in_a_worker_built_document_that_still_takes_typing(qtbot, pane):
    from PySide6.QtCore import Qt

    from wubitok.gui.widgets.token_view import WORKER_DOCUMENT

    pane.set_models([_model("wubi-bpe"), _model("bpe")])
    pane.set_sample_text("第一段")
    pane.set_sample_text("床前\r\n明月光 😀")  # supersedes the first before it is shown
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    doc = pane.editor.document()
    assert doc.objectName() == WORKER_DOCUMENT and doc.defaultFont() == pane.editor.font()
    assert pane.editor.toPlainText() == "床前\n明月光 😀"  # CRLF is one line break in a document
    assert [c.view.toPlainText() for c in pane.columns] == ["床前\n明月光 😀"] * 2
    pane.editor.setFocus()
    pane.editor.moveCursor(pane.editor.textCursor().MoveOperation.End)
    qtbot.keyClick(pane.editor, Qt.Key.Key_A)  # the new document is connected: edits compare again
    qtbot.waitUntil(lambda: pane.is_ready() and pane.results and pane.results[0].chars == 9, timeout=60_000)
    assert [c.view.toPlainText() for c in pane.columns] == ["床前\n明月光 😀a"] * 2


def test_the_token_views_name_unknown_and_byte_tokens_as_tokenize_does(qtbot, pane):
    # 𠀀 is in no bundled vocabulary: WordPiece gives [UNK], Unigram four byte pieces.  Without the
    # model's token forms Compare's tooltips read them as the text they cover.
    _compare(qtbot, pane, [_model("wordpiece"), _model("unigram")], "人𠀀")
    tips = []
    for column in pane.columns:
        view, data = column.view, column.view.tokenized()
        seg = next(s for s in data.token_segments() if data.segment_texts()[s] == "𠀀")
        tips.append(view.tooltip_html(seg))
    assert "token <b>[UNK] for 𠀀</b>" in tips[0], tips[0]
    assert "token <b>&lt;F0&gt;</b>" in tips[1], tips[1]


def test_the_text_compared_is_the_text_as_typed_and_pasted(qtbot, pane, monkeypatch):
    # The pane follows its editor edit by edit (DocumentText), not by toPlainText, which turns
    # U+00A0 into a space and copies the whole document at every comparison.
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QApplication

    import wubitok.gui.panes.compare.pane as compare_pane
    from wubitok.gui.widgets.long_paste_edit import LONG_PASTE_CHARS

    _compare(qtbot, pane, [_model("wubi-bpe"), _model("bpe")], "明月")
    compared: list[str] = []
    compare_text = compare_pane.compare_text
    monkeypatch.setattr(compare_pane, "compare_text",
                        lambda catalog, entries, text, *a, **k: compared.append(text)
                        or compare_text(catalog, entries, text, *a, **k))
    cursor = pane.editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    cursor.insertText("\u00a0几时有\n把酒\u00a0问青天")
    qtbot.waitUntil(lambda: bool(compared) and pane.is_ready(), timeout=60_000)
    assert compared[-1] == "明月\u00a0几时有\n把酒\u00a0问青天"
    pasted = "不知天上宫阙，\u00a0今夕是何年。\r\n" * (LONG_PASTE_CHARS // 15 + 1)
    QApplication.clipboard().setText(pasted)
    pane.editor.selectAll()
    pane.editor.paste()  # a long paste, in pieces
    qtbot.waitUntil(lambda: len(compared) > 1 and pane.is_ready(), timeout=60_000)
    assert compared[-1] == pasted.replace("\r\n", "\n")


def test_a_long_text_goes_to_the_workers_once_as_shared_memory_with_the_same_results(qtbot, pane, monkeypatch):
    # Pickled per model by the pool's feeder thread, 10 MB held the GIL ~70 ms a model; shared, the
    # workers read one block.  The results are those of the text sent as it is.
    from wubitok.services import shared_text
    from wubitok.services.encode_pool import EncodePool

    pane.set_models([_model("wubi-bpe"), _model("bpe"), _model("unigram")])
    plain = _comparison(pane, TEXT)
    sent: list[type] = []
    call_all = EncodePool.call_all
    monkeypatch.setattr(EncodePool, "call_all", lambda self, calls, **k: sent.extend(type(c[-1]) for c in calls)
                        or call_all(self, calls, **k))
    monkeypatch.setattr(shared_text, "SHARE_FROM", 100)
    shared = _comparison(pane, TEXT)
    assert sent == [shared_text.SharedText] * 3
    assert [r.to_json() | {"encode_seconds": 0, "encode_mb_per_s": 0} for r in shared.results] == [
        r.to_json() | {"encode_seconds": 0, "encode_mb_per_s": 0} for r in plain.results]
    for (data, doc), (plain_data, plain_doc) in zip(shared.views, plain.views):
        assert list(data.encoding.ids) == list(plain_data.encoding.ids) and data.spans == plain_data.spans
        assert doc.toPlainText() == plain_doc.toPlainText()
