"""encode_pool: encode and compare tasks in worker processes that keep their models.

Real spawned processes and the bundled models; the figures and encodings must be
exactly those of the library called in this process (encode times aside).
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.compare.run import compare_tokenizers, finish_figures
from wubitok.engines.base import Encoding
from wubitok.errors import Cancelled, FileError, ModelError, WubitokError
from wubitok.paths import resources_dir
from wubitok.services import encode_pool
from wubitok.services.encode_pool import (
    EncodePool,
    ModelRef,
    ModelSummary,
    encode_text,
    measure_corpus_batch,
    measure_text,
    model,
    summarize_model,
)
from wubitok.services.model_files import bundled_models_dir, guess_kind, load_model_file
from wubitok.services.readable_tokens import readable_parts
from wubitok.services.tokenized import PackedEncoding, Spans

MODELS = sorted(bundled_models_dir().glob("*.json"))
TIMES = ("encode_seconds", "encode_mb_per_s")
TEXT = (resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8")[:20_000] + "\nEnglish 123 😀 𠀀\r\n"


def ref(path) -> ModelRef:
    return ModelRef.of(path, guess_kind(path))


def figures(results) -> list[dict]:
    return [{k: v for k, v in r.to_json().items() if k not in TIMES} for r in results]


@pytest.fixture(scope="module")
def pool():
    p = EncodePool(workers=2, processes=True)
    p.start()
    yield p
    p.shutdown()


@pytest.fixture(scope="module")
def tokenizers():
    return [(path.stem, load_model_file(path)) for path in MODELS]


def test_workers_are_processes_that_keep_running(pool):
    assert pool.uses_processes
    pids = pool.worker_pids()
    assert len(pids) == 2 and os.getpid() not in pids
    # They yield a core to the GUI process: 5 steps nicer (at most 19).
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in pids] == [min(19, mine + 5)] * 2
    pool.call(encode_text, ref(MODELS[0]), "你好")
    assert pool.worker_pids() == pids


def test_text_figures_and_encodings_are_the_librarys(pool, tokenizers):
    measured = pool.call_all([(measure_text, ref(path), name, TEXT) for path, (name, _) in zip(MODELS, tokenizers)])
    assert figures(finish_figures(tokenizers, [f for _, _, f in measured])) == figures(
        compare_tokenizers(tokenizers, texts=TEXT))
    for (packed, spans, _), (_, tok) in zip(measured, tokenizers):
        enc = tok.encode(TEXT)
        assert unpacked(packed) == enc
        assert spans == Spans.of(TEXT, enc)


def test_a_models_summary_shows_every_token_as_the_model_does(pool, tokenizers):
    summaries = pool.call_all([(summarize_model, ref(path)) for path in MODELS])
    for summary, (_, tok) in zip(summaries, tokenizers):
        assert (summary.model_type, summary.vocab_size) == (tok.model_type, tok.vocab_size)
        for partial in (False, True):
            assert [summary.display_token(i, partial=partial) for i in range(tok.vocab_size)] == [
                tok.display_token(i, partial=partial) for i in range(tok.vocab_size)]
        assert summary.display_token(-1) == summary.display_token(tok.vocab_size) == ""
        assert pickle.loads(pickle.dumps(summary)) == summary
    wubi = summaries[[p.stem for p in MODELS].index("wubi-bpe-6000")]
    assert wubi.partial_displays is not None  # pieces of characters show their keys only
    assert all(s.partial_displays is None for s in summaries if s is not wubi)


def test_a_summary_stands_for_its_model_in_figures_measured_elsewhere(pool, tokenizers):
    summaries = [(name, ModelSummary.of(tok)) for name, tok in tokenizers]
    measured = pool.call_all([(measure_text, ref(path), name, TEXT) for path, (name, _) in zip(MODELS, tokenizers)])
    assert figures(finish_figures(summaries, [f for _, _, f in measured])) == figures(
        compare_tokenizers(tokenizers, texts=TEXT))
    with pytest.raises(TypeError):
        compare_tokenizers(summaries, texts=TEXT)  # measuring here needs the tokenizers


def test_encode_text_says_whether_the_text_comes_back(pool, tokenizers):
    for path, (_, tok) in zip(MODELS, tokenizers):
        packed, spans, roundtrip = pool.call(encode_text, ref(path), TEXT, 5_000)
        assert unpacked(packed) == tok.encode(TEXT)
        assert spans.shown_chars == 5_000 and spans.seg_end[-1] == 5_000  # a view shows the start
        assert roundtrip == (tok.decode(tok.encode(TEXT).ids) == TEXT)


def test_corpus_batches_measured_in_workers_give_the_same_figures(pool, tokenizers, tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT * 8, encoding="utf-8")
    refs = [(name, ref(path)) for path, (name, _) in zip(MODELS, tokenizers)]
    seen: list[int] = []

    def measure(batches, unit):
        return pool.map(measure_corpus_batch, (refs, unit), batches)

    pooled = compare_tokenizers(tokenizers, files=[corpus], measure=measure,
                                progress=lambda stage, done, total: seen.append(done))
    assert figures(pooled) == figures(compare_tokenizers(tokenizers, files=[corpus]))
    assert seen[-1] == corpus.stat().st_size * len(tokenizers)


def test_a_workers_error_arrives_as_itself(pool, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"model_type": "wubi-bpe", "format_version": 1, "vocab": 3}', encoding="utf-8")
    with pytest.raises(ModelError) as caught:
        pool.call(encode_text, ModelRef.of(bad, "wubitok"), "x")
    here = pytest.raises(ModelError, load_model_file, bad, "wubitok").value
    assert (str(caught.value), caught.value.code, caught.value.params) == (str(here), here.code, here.params)
    with pytest.raises(FileError):
        ModelRef.of(tmp_path / "missing.json", "wubitok")


def test_cancel_drops_the_tasks_not_started(pool):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        pool.call_all([(encode_text, ref(path), TEXT * 5) for path in MODELS] * 3, cancel=cancel)
    # The pool still answers, and answers the newest request.
    packed, _, _ = pool.call(encode_text, ref(MODELS[0]), "新的")
    assert unpacked(packed) == load_model_file(MODELS[0]).encode("新的")


def test_a_worker_that_dies_is_one_error_and_the_next_request_works():
    p = EncodePool(workers=1, processes=True)
    try:
        p.start()
        (pid,) = p.worker_pids()
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(WubitokError, match="worker process died"):
            p.call(encode_text, ref(MODELS[0]), TEXT)
        packed, _, _ = p.call(encode_text, ref(MODELS[0]), "你好")
        assert unpacked(packed) == load_model_file(MODELS[0]).encode("你好")
        assert p.uses_processes and p.worker_pids() != [pid]
    finally:
        p.shutdown()


def test_shutdown_ends_the_workers_even_mid_task():
    p = EncodePool(workers=1, processes=True)
    p.start()
    (pid,) = p.worker_pids()
    p.submit(encode_text, ref(MODELS[0]), TEXT * 50)  # seconds of work, abandoned
    p.shutdown(timeout=0.2)
    assert not p.uses_processes
    with pytest.raises(ProcessLookupError):
        for _ in range(100):  # the process is reaped by shutdown; wait for the kernel to forget it
            os.kill(pid, 0)
            time.sleep(0.05)


def test_shutdown_does_not_wait_for_a_start_in_progress(monkeypatch):
    # Quitting in the app's first seconds: shutdown() on the GUI thread while a
    # worker thread is in start().  start() is held after spawning the workers
    # (where it sets their priority) until shutdown() has returned.
    spawned, release = threading.Event(), threading.Event()
    pids: list[int] = []
    lower_priority = encode_pool.lower_priority

    def held(worker_pids):
        pids.extend(worker_pids)
        spawned.set()
        release.wait()
        lower_priority(pids)

    monkeypatch.setattr(encode_pool, "lower_priority", held)
    p = EncodePool(workers=2, processes=True)
    starting = threading.Thread(target=p.start, daemon=True)
    stopping = threading.Thread(target=p.shutdown, daemon=True)
    try:
        starting.start()
        assert spawned.wait(60)
        stopping.start()
        stopping.join(60)  # a bound for a broken build, which would wait for release forever
        assert not stopping.is_alive() and starting.is_alive() and len(pids) == 2
    finally:
        release.set()
    starting.join(60)
    assert not starting.is_alive()
    # start() saw the shutdown: it ended its workers instead of publishing them
    assert not p.uses_processes and p.worker_pids() == []
    assert not {c.pid for c in multiprocessing.active_children()} & set(pids)
    p.start()  # closed: it spawns nothing more
    assert not p.uses_processes


def test_without_processes_tasks_run_in_the_calling_thread(monkeypatch, tokenizers):
    monkeypatch.setenv("WUBITOK_WORKER_PROCESSES", "0")
    p = EncodePool()
    p.start()
    assert not p.uses_processes and p.worker_pids() == []
    packed, _, _ = p.call(encode_text, ref(MODELS[0]), TEXT)
    assert unpacked(packed) == tokenizers[0][1].encode(TEXT)
    assert model(ref(MODELS[0])) is model(ref(MODELS[0]))  # loaded once here too


@settings(max_examples=60)
@given(st.text(max_size=200))
def test_packing_round_trips_any_encoding(tokenizers, text):
    for _, tok in tokenizers:
        enc = tok.encode(text)
        assert unpacked(PackedEncoding.pack(enc)) == enc


TOKEN_ROWS = st.lists(st.tuples(st.integers(-(2**63), 2**63 - 1), st.text(max_size=4),
                                st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), st.booleans()), max_size=30)


@settings(max_examples=200)
@given(TOKEN_ROWS, st.booleans())
def test_a_packed_encoding_reads_as_the_encoding_and_survives_pickling(rows, flagged):
    enc = Encoding([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                   [r[3] for r in rows] if flagged else [])  # engines that flag nothing leave partial empty
    packed = pickle.loads(pickle.dumps(PackedEncoding.pack(enc)))
    assert unpacked(packed) == enc
    for i in range(-len(enc), len(enc)):  # negative indices as a list reads them
        assert (packed.ids[i], packed.tokens[i], packed.offsets[i]) == (enc.ids[i], enc.tokens[i], enc.offsets[i])
    assert packed.tokens[1:3] == enc.tokens[1:3] and packed.offsets[::-1] == enc.offsets[::-1]
    for seq in (packed.tokens, packed.offsets):
        with pytest.raises(IndexError):
            seq[len(enc)]


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=120), st.integers(0, 130))
def test_a_view_gets_the_tokens_of_its_characters_with_their_indices(tokenizers, text, shown):
    # Compare's workers send the head of each encoding (PackedEncoding.shown_part): every token the
    # view's segments point at, read the same as in the whole encoding, and a token's readable form
    # (which counts the tokens sharing a character) the same.
    for _, tok in tokenizers:
        enc = tok.encode(text)
        packed = PackedEncoding.pack(enc)
        part = pickle.loads(pickle.dumps(packed.shown_part(shown)))
        n = len(part)
        assert unpacked(part) == Encoding(enc.ids[:n], enc.tokens[:n], enc.offsets[:n], enc.partial[:n])
        assert n >= sum(1 for s, _ in enc.offsets if s < shown)
        spans = Spans.of(text, enc, shown)
        for i in {i for row in spans.seg_tokens for i in row}:
            assert i < n
            assert (readable_parts(text, part.ids, part.offsets, part.partial, i)
                    == readable_parts(text, enc.ids, enc.offsets, enc.partial, i))


def test_measure_text_sends_the_tokens_of_the_shown_characters(pool, tokenizers):
    shown = 300
    measured = pool.call_all([(measure_text, ref(path), name, TEXT, shown)
                              for path, (name, _) in zip(MODELS, tokenizers)])
    for (packed, spans, _), (_, tok) in zip(measured, tokenizers):
        enc = tok.encode(TEXT)
        assert sum(1 for s, _ in enc.offsets if s < shown) <= len(packed) < len(enc)
        assert list(packed.ids) == enc.ids[: len(packed)]
        assert spans == Spans.of(TEXT, enc, shown)


def unpacked(packed: PackedEncoding) -> Encoding:
    """What ``packed`` reads as, in lists."""
    return Encoding(list(packed.ids), list(packed.tokens), list(packed.offsets), list(map(bool, packed.partial)))
