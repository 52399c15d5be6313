"""Compare and Tokenize encode in worker processes (wubitok.services.encode_pool), through the panes.

Real spawned processes, the bundled models and real panes: results arrive and
are the library's, a stale request's result never shows, a worker that dies is
one error dialog (and the next request works), and the workers stop with the app.
"""
from __future__ import annotations

import os
import signal

import pytest
from PySide6.QtCore import QCoreApplication, QThreadPool

from wubitok.compare import compare_tokenizers
from wubitok.engines.base import load_tokenizer
from wubitok.errors import WubitokError
from wubitok.gui.panes.compare import ComparePane
from wubitok.gui.panes.tokenize import TokenizePane
from wubitok.gui.support import errors, i18n, worker_processes
from wubitok.paths import resources_dir
from wubitok.services import encode_pool
from wubitok.services.encode_pool import EncodePool, ModelRef, encode_text, shared_pool, shutdown_shared_pool
from wubitok.services.model_files import bundled_models_dir
from wubitok.services.tokenized import PackedEncoding

BUNDLED = sorted(bundled_models_dir().glob("*.json"))
TEXT = (resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8")[:6_000]


def _model(prefix: str):
    return next(p for p in BUNDLED if p.stem.startswith(prefix))


@pytest.fixture(autouse=True)
def pool(gui_app, monkeypatch):
    """A fresh shared pool of worker processes for each test, stopped after it."""
    monkeypatch.delenv("WUBITOK_WORKER_PROCESSES", raising=False)
    shutdown_shared_pool()
    encode_pool._models.clear()  # what this process loaded for itself (thread fallback) is forgotten
    yield shared_pool()
    shutdown_shared_pool()


@pytest.fixture
def compare(qtbot, catalog):
    p = ComparePane(catalog=catalog)
    qtbot.addWidget(p)
    p.resize(1100, 750)
    p.show()
    qtbot.waitUntil(p.is_ready, timeout=60_000)
    return p


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_workers_start_in_the_background_and_stop_with_the_app(qtbot, pool):
    job = worker_processes.start_in_background()
    qtbot.waitUntil(lambda: not job.is_running(), timeout=60_000)
    pids = pool.worker_pids()
    assert pool.uses_processes and pids and all(map(_alive, pids))
    shutdown_shared_pool()  # what the app's aboutToQuit runs
    qtbot.waitUntil(lambda: not any(map(_alive, pids)), timeout=10_000)


def test_compare_results_come_from_the_workers_and_are_the_librarys(qtbot, compare, pool):
    models = [_model("wubi-bpe"), _model("unigram"), _model("bpe")]
    compare.set_models(models)
    compare.set_sample_text(TEXT)
    qtbot.waitUntil(compare.is_ready, timeout=60_000)
    tokenizers = [(p.stem, load_tokenizer(p)) for p in models]
    expected = compare_tokenizers(tokenizers, texts=TEXT)
    assert [(r.name, r.tokens, r.vocab_used, r.han_tokens) for r in compare.results] == [
        (r.name, r.tokens, r.vocab_used, r.han_tokens) for r in expected]
    for col, (_, tok) in zip(compare.columns, tokenizers):
        assert col.view.tokenized().encoding == PackedEncoding.pack(tok.encode(TEXT))
    # Encoded elsewhere: this process never loaded a model for the pool's tasks.
    assert pool.uses_processes and not encode_pool._models


def test_a_stale_comparison_never_replaces_the_newest(qtbot, compare):
    compare.set_models([_model("wubi-bpe"), _model("bpe")])
    older, newer = TEXT * 4, "举头望明月，低头思故乡。"
    compare.set_sample_text(older)
    compare.set_sample_text(newer)  # while the older one is still being encoded
    qtbot.waitUntil(compare.is_ready, timeout=60_000)
    # Every job done, the older one included, and its signals delivered: nothing more can arrive.
    qtbot.waitUntil(lambda: QThreadPool.globalInstance().activeThreadCount() == 0, timeout=60_000)
    QCoreApplication.processEvents()
    assert all(col.view.tokenized().text == newer for col in compare.columns)
    assert [r.chars for r in compare.results] == [len(newer)] * 2


def test_a_worker_that_dies_is_one_dialog_and_the_next_comparison_works(qtbot, compare, pool, error_dialogs):
    compare.set_models([_model("wubi-bpe"), _model("bpe")])
    compare.set_sample_text(TEXT)
    qtbot.waitUntil(compare.is_ready, timeout=60_000)
    for pid in pool.worker_pids():
        os.kill(pid, signal.SIGKILL)
    compare.set_sample_text(TEXT + "一")
    qtbot.waitUntil(compare.is_ready, timeout=60_000)
    assert len(error_dialogs) == 1 and "worker process died" in error_dialogs[0][1]
    compare.set_sample_text(TEXT + "二")
    qtbot.waitUntil(compare.is_ready, timeout=60_000)
    assert len(error_dialogs) == 1
    assert compare.results and compare.results[0].chars == len(TEXT) + 1


def test_corpus_mode_is_measured_in_the_workers(qtbot, compare, pool, tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT * 20, encoding="utf-8")
    models = [_model("wubi-bpe"), _model("wordpiece")]
    compare.set_models(models)
    compare.corpus_mode.setChecked(True)
    compare.add_files([corpus])
    compare.run_corpus()
    qtbot.waitUntil(lambda: not compare.is_busy(), timeout=120_000)
    expected = compare_tokenizers([(p.stem, load_tokenizer(p)) for p in models], files=[corpus])
    assert [(r.tokens, r.lines, r.roundtrip_samples) for r in compare.results] == [
        (r.tokens, r.lines, r.roundtrip_samples) for r in expected]
    assert pool.uses_processes and not encode_pool._models


def _tokenized(qtbot, catalog, prefix: str, text: str):
    """What a Tokenize pane shows of ``text`` with the bundled model named ``prefix``."""
    pane = TokenizePane(catalog=catalog)
    qtbot.addWidget(pane)
    pane.show()
    pane.set_model(_model(prefix).stem)
    pane.set_sample_text(text)
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    return pane.token_view.tokenized()


def test_tokenize_tokens_come_from_the_workers(qtbot, catalog, pool):
    tok = load_tokenizer(_model("unigram"))
    assert _tokenized(qtbot, catalog, "unigram", TEXT).encoding == PackedEncoding.pack(tok.encode(TEXT))
    assert pool.uses_processes and not encode_pool._models


def test_a_dead_worker_is_said_in_chinese_too(gui_app):
    p = EncodePool(workers=1, processes=True)
    try:
        p.start()
        for pid in p.worker_pids():
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(WubitokError) as caught:
            p.call(encode_text, ModelRef.of(_model("bpe"), "wubitok"), TEXT)
    finally:
        p.shutdown()
    i18n.set_language("zh_CN")
    try:
        assert errors.message_of(caught.value) == "一个后台工作进程意外退出（内存不足或被终止），请重试"
    finally:
        i18n.set_language("en")


def test_the_apps_process_loads_no_model_and_cuts_no_segments(qtbot, catalog, pool, monkeypatch, error_dialogs):
    """Tokenize and Compare show tokens, their display forms, segments and figures with every
    model loaded, and every text cut into segments, in the worker processes only: doing either
    here held the GIL beside the GUI thread (Python-heavy model loads, on a first start 2 s of
    codec tables; 0.2-0.4 s of segments per model on 200 KB)."""
    from wubitok.engines import base
    from wubitok.services import tokenized

    text = "五笔字型 Wubi-BPE, 王永民 1983 年 龘"  # 龘: a character in pieces
    wubi = load_tokenizer(_model("wubi-bpe"))
    expected = wubi.encode(text)
    shown = [wubi.display_token(i, partial=p) for i, p in zip(expected.ids, expected.partial)]
    figures = [(r.name, r.kind, r.vocab_size, r.tokens, r.vocab_used, r.unk_tokens, r.roundtrip_samples)
               for r in compare_tokenizers([(p.stem, load_tokenizer(p)) for p in BUNDLED], texts=text)]

    def not_here(*args, **kwargs):
        raise AssertionError("done in the app's process")

    monkeypatch.setattr(base, "tokenizer_from_dict", not_here)  # what every model file's loading comes to
    monkeypatch.setattr(encode_pool, "load_model_file", not_here)
    monkeypatch.setattr(tokenized, "build_segments", not_here)
    data = _tokenized(qtbot, catalog, "wubi-bpe", text)
    assert data.encoding == PackedEncoding.pack(expected)
    assert "".join(data.segment_texts()) == text
    assert [data.display_token(i) for i in range(len(expected.ids))] == shown
    assert any("(" in s for s in shown) and any(p for p in expected.partial)  # both forms were asked for
    compare = ComparePane(catalog=catalog)
    qtbot.addWidget(compare)
    compare.show()
    compare.set_models([p.stem for p in BUNDLED])
    compare.set_sample_text(text)
    qtbot.waitUntil(compare.is_ready, timeout=60_000)
    assert [(r.name, r.kind, r.vocab_size, r.tokens, r.vocab_used, r.unk_tokens, r.roundtrip_samples)
            for r in compare.results] == figures
    assert error_dialogs == []
    assert not encode_pool._models  # nothing was loaded here for the thread fallback either
