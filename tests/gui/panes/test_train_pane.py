"""Train pane: a small corpus trains, shows progress, saves and appears elsewhere at once."""
from __future__ import annotations

import json
import multiprocessing

import pytest
from PySide6.QtCore import QTimer

from wubitok.engines import backends
from wubitok.engines.backends import choose_backend
from wubitok.engines.base import engine_class, load_tokenizer
from wubitok.gui.panes.compare import ComparePane
from wubitok.gui.panes.tokenize import TokenizePane
from wubitok.gui.panes.train import TrainPane, model_file_name
from wubitok.gui.support import errors
from wubitok.paths import resources_dir
from wubitok.services.model_files import user_models_dir

SAMPLES = resources_dir() / "samples"


@pytest.fixture(autouse=True)
def app(gui_app):
    """The app as ``wubitok gui`` sets it up: Han font, English, light theme."""
    return gui_app


@pytest.fixture
def pane(qtbot, catalog):
    p = TrainPane(catalog=catalog)
    qtbot.addWidget(p)
    p.resize(900, 650)
    p.show()
    return p


def _train(qtbot, pane: TrainPane, timeout: int = 120_000) -> None:
    with qtbot.waitSignal(pane.trainingEnded, timeout=timeout):
        assert pane.start_training()


def test_train_small_corpus_progress_to_100_and_model_appears_in_tokenize(qtbot, pane, catalog, tmp_path):
    tokenize = TokenizePane(catalog=catalog)
    compare = ComparePane(catalog=catalog)
    qtbot.addWidget(tokenize)
    qtbot.addWidget(compare)
    corpus = tmp_path / "poems.txt"
    corpus.write_text((SAMPLES / "song100.txt").read_text(encoding="utf-8"), encoding="utf-8")
    pane.add_files([corpus])
    pane.set_algorithms(["wubi-bpe", "wordpiece"])
    pane.vocab_spin.setValue(800)
    progress_values: list[int] = []
    pane.modelTrained.connect(lambda r: progress_values.append(pane.rows[r.request.output].bar.value()))
    added = []
    catalog.modelAdded.connect(added.append)
    _train(qtbot, pane)

    assert [r.request.model_type for r in pane.results] == ["wubi-bpe", "wordpiece"]
    assert progress_values == [1000, 1000]
    folder = user_models_dir()
    assert sorted(p.name for p in folder.glob("*.json")) == ["wordpiece-800-poems.json", "wubi-bpe-800-poems.json"]
    # Byte for byte what the library trains with the same settings.
    expected = engine_class("wubi-bpe").train(files=[corpus], vocab_size=800, min_frequency=2, backend="auto")
    assert (folder / "wubi-bpe-800-poems.json").read_text(encoding="utf-8") == expected.to_json()

    assert [e.name for e in added] == ["wubi-bpe-800-poems", "wordpiece-800-poems"]
    labels = [tokenize.model_box.itemText(i) for i in range(tokenize.model_box.count())]
    assert "wubi-bpe-800-poems (trained)" in labels
    assert [compare.slots[0].box.itemText(i) for i in range(compare.slots[0].box.count())] == labels
    # ... and tokenizing with it works at once.
    tokenize.set_model("wubi-bpe-800-poems")
    tokenize.set_sample_text("明月几时有")
    qtbot.waitUntil(tokenize.is_ready, timeout=30_000)
    assert (
        list(tokenize.token_view.tokenized().encoding.ids)
        == load_tokenizer(folder / "wubi-bpe-800-poems.json").encode("明月几时有").ids
    )


def test_models_are_saved_in_the_chosen_folder_without_overwriting(qtbot, pane, catalog, tmp_path):
    out = tmp_path / "my models"
    pane.add_files([SAMPLES / "tang300.txt"])
    pane.set_algorithms(["wordpiece"])
    pane.vocab_spin.setValue(500)
    pane.folder_edit.setText(str(out))
    pane.name_edit.setText("tang poems")
    _train(qtbot, pane)
    _train(qtbot, pane)
    assert sorted(p.name for p in out.iterdir()) == ["wordpiece-500-tang-poems-2.json", "wordpiece-500-tang-poems.json"]
    assert {e.source for e in catalog.entries() if e.path.parent == out} == {"opened"}


def test_cancel_stops_training_and_saves_nothing(qtbot, pane):
    pane.add_files([SAMPLES / name for name in ("tang300.txt", "song100.txt", "fortunes-zh.txt")])
    pane.set_algorithms(["unigram", "bpe"])
    pane.vocab_spin.setValue(6000)
    started = []
    with qtbot.waitSignal(pane.trainingEnded, timeout=120_000):
        pane.start_training()
        started.append(pane.current_job())
        # Cancel once the first model reports progress: it is really training then.
        started[0].progress.connect(lambda _p: pane.cancel())
    assert pane.results == []
    assert not list(user_models_dir().glob("*.json"))
    statuses = [row.status.text() for row in pane.rows.values()]
    assert statuses == ["cancelled", "skipped"]
    assert pane.train_button.isEnabled() and not pane.is_busy()


@pytest.mark.parametrize("processes", ["1", "0"])
def test_each_model_trains_in_a_process_of_its_own_unless_processes_are_off(qtbot, pane, monkeypatch, processes):
    # In a thread, the trainer held the GIL the window needs (bench/bench_gui_stalls.py, train_4).
    monkeypatch.setenv("WUBITOK_WORKER_PROCESSES", processes)
    pane.add_files([SAMPLES / "tang300.txt"])
    pane.set_algorithms(["bpe", "unigram"])
    pane.vocab_spin.setValue(1000)
    trainers_seen: set[str] = set()
    look = QTimer(interval=20)
    look.timeout.connect(lambda: trainers_seen.update(p.name for p in multiprocessing.active_children()
                                                      if p.name.startswith("train ")))
    look.start()
    _train(qtbot, pane)
    look.stop()
    assert [r.request.model_type for r in pane.results] == ["bpe", "unigram"]
    assert trainers_seen == ({"train bpe", "train unigram"} if processes == "1" else set())
    assert [row.bar.format() for row in pane.rows.values()] == ["done", "done"]


def test_a_corpus_that_is_not_text_gives_one_dialog(qtbot, pane, tmp_path):
    bad = tmp_path / "gbk.txt"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff")
    pane.add_files([bad])
    pane.set_algorithms(["wubi-bpe", "bpe"])
    shown = []
    errors.reporter().shown.connect(lambda title, msg: shown.append((title, msg)))
    _train(qtbot, pane)
    assert len(shown) == 1 and shown[0][0] == "File problem" and "not UTF-8" in shown[0][1]
    assert [row.status.text().startswith("failed") for row in pane.rows.values()] == [True, False]
    assert not list(user_models_dir().glob("*.json"))
    errors.reporter().last_dialog.close()


def test_no_files_or_no_algorithm_is_a_clear_message(qtbot, pane):
    shown = []
    errors.reporter().shown.connect(lambda title, msg: shown.append(msg))
    assert not pane.start_training()
    pane.add_files([SAMPLES / "song100.txt"])
    pane.set_algorithms([])
    assert not pane.start_training()
    assert shown == ["add at least one corpus file", "choose at least one algorithm"]
    errors.reporter().last_dialog.close()


def test_event_loop_keeps_running_while_a_model_trains(qtbot, pane):
    pane.add_files([SAMPLES / name for name in ("tang300.txt", "song100.txt", "fortunes-zh.txt")])
    pane.set_algorithms(["bpe"])
    pane.vocab_spin.setValue(3000)
    ticks = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    _train(qtbot, pane)
    timer.stop()
    assert len(pane.results) == 1
    assert len(ticks) > 10, f"only {len(ticks)} ticks while training"


def test_options_are_remembered(qtbot, catalog, user_data_dir):
    first = TrainPane(catalog=catalog)
    qtbot.addWidget(first)
    first.add_files([SAMPLES / "song100.txt"])
    first.set_algorithms(["unigram"])
    first.vocab_spin.setValue(1234)
    first.save_state()
    second = TrainPane(catalog=catalog)
    qtbot.addWidget(second)
    assert second.files() == [str(SAMPLES / "song100.txt")]
    assert second.algorithms() == ["unigram"] and second.vocab_spin.value() == 1234


def test_big_corpora_train_with_the_fast_library_and_say_so(qtbot, pane, monkeypatch):
    monkeypatch.setattr(backends, "AUTO_FAST_BYTES", 1000)  # song100.txt is ~27 KB
    pane.add_files([SAMPLES / "song100.txt"])
    pane.set_algorithms(["wordpiece"])
    pane.vocab_spin.setValue(1000)
    _train(qtbot, pane)
    (row,) = pane.rows.values()
    assert row.name.text() == "WordPiece [fast]"
    assert pane.results[0].request.backend == "fast"
    saved = json.loads(pane.results[0].request.output.read_text(encoding="utf-8"))
    assert saved["training"]["backend"] == "fast"
    # HF's trainer ranks merges by frequency, not the WordPiece score: the pane says so.
    assert "merges by frequency, not the WordPiece score" in row.status.text()
    assert saved["trained_by"].startswith("tokenizers WordPieceTrainer")
    # Its alphabet alone is larger than asked: the file is named by the size it has, and the pane says why.
    size = pane.results[0].vocab_size
    assert size > 1000 and pane.results[0].request.output.name == f"wordpiece-{size}-song100.json"
    assert "larger than the 1,000 asked" in row.status.text()


def test_backend_choice_and_file_names(tmp_path):
    assert choose_backend("python", "bpe", 10**9) == "python"
    assert choose_backend("auto", "wordpiece", 1000) == "python"
    assert choose_backend("auto", "bpe", 1000) == "fast"  # the same model either way (backends.SAME_MODEL)
    assert choose_backend("auto", "unigram", 10**9) == "fast"  # sentencepiece is installed here
    (tmp_path / "bpe-100-x.json").write_text("{}")
    assert model_file_name("bpe", 100, "x", tmp_path).name == "bpe-100-x-2.json"


def test_wubi_spelling_and_pre_tokens_are_trained_remembered_and_only_for_wubi_bpe(qtbot, catalog, user_data_dir,
                                                                                  tmp_path):
    pane = TrainPane(catalog=catalog)
    qtbot.addWidget(pane)
    pane.add_files([SAMPLES / "song100.txt"])
    pane.set_algorithms(["bpe"])
    # the spelling and the cut mean nothing to other engines
    assert not pane.codec_box.isEnabled() and not pane.pre_tokens_box.isEnabled()
    pane.set_algorithms(["wubi-bpe", "bpe"])
    assert pane.codec_box.isEnabled() and pane.codec_box.currentData() == "hybrid"
    assert pane.pre_tokens_box.isEnabled() and pane.pre_tokens_box.currentData() == "joined"
    assert sorted(pane.pre_tokens_box.itemData(i) for i in range(pane.pre_tokens_box.count())) == ["clause", "joined"]
    assert pane.pre_tokens_box.itemText(1).startswith("Clause")
    pane.codec_box.setCurrentIndex(pane.codec_box.findData("shortest"))
    pane.pre_tokens_box.setCurrentIndex(pane.pre_tokens_box.findData("clause"))
    pane.vocab_spin.setValue(700)
    pane.folder_edit.setText(str(tmp_path))
    _train(qtbot, pane)
    saved = {r.request.model_type: json.loads(r.request.output.read_text(encoding="utf-8")) for r in pane.results}
    assert saved["wubi-bpe"]["codec"]["code"] == "shortest" and saved["wubi-bpe"]["pre_tokens"] == "clause"
    assert "codec" not in saved["bpe"] and "pre_tokens" not in saved["bpe"]
    pane.save_state()
    again = TrainPane(catalog=catalog)
    qtbot.addWidget(again)
    assert again.codec_box.currentData() == "shortest" and again.codec_box.isEnabled()
    assert again.pre_tokens_box.currentData() == "clause" and again.pre_tokens_box.isEnabled()


def test_saving_into_a_folder_that_does_not_exist_creates_it(gui_app, gui_data_dir, qtbot, tmp_path, error_dialogs):
    from wubitok.gui.panes.train import TrainPane
    from wubitok.paths import resources_dir

    pane = TrainPane()
    qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
    folder = tmp_path / "not" / "yet"
    pane.add_files([resources_dir() / "samples" / "tang300.txt"])
    pane.set_algorithms(["bpe"])
    pane.vocab_spin.setValue(400)
    pane.folder_edit.setText(str(folder))
    with qtbot.waitSignal(pane.trainingEnded, timeout=120_000):
        assert pane.start_training()
    assert error_dialogs == []
    assert [r.request.output.parent for r in pane.results] == [folder] and pane.results[0].request.output.is_file()


def test_the_vocabulary_minimum_comes_from_the_engines(gui_app, gui_data_dir, qtbot):
    from wubitok.engines.base import engine_class
    from wubitok.gui.panes.train import TrainPane

    pane = TrainPane()
    qtbot.addWidget(pane, before_close_func=lambda w: w.shutdown())
    pane.set_algorithms(["wubi-bpe", "bpe"])
    # Asked in a worker process (Wubi-BPE builds its codec to answer): the pane is ready once it is in.
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    expected = max(engine_class(k).min_vocab_size() for k in ("wubi-bpe", "bpe"))
    assert pane.vocab_spin.minimum() == expected > 256
    pane.vocab_spin.setValue(100)
    assert pane.vocab_spin.value() == expected  # 100 cannot even be entered
    pane.set_algorithms(["wordpiece"])
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    assert pane.vocab_spin.minimum() == engine_class("wordpiece").min_vocab_size()
    pane.special_edit.setText("<a> <b> <c> <d> <e> <f> <g> <h>")
    qtbot.waitUntil(pane.is_ready, timeout=60_000)
    assert pane.vocab_spin.minimum() == engine_class("wordpiece").min_vocab_size(
        ["<a>", "<b>", "<c>", "<d>", "<e>", "<f>", "<g>", "<h>"]) > engine_class("wordpiece").min_vocab_size()


def test_a_vocabulary_smaller_than_asked_is_said_and_named_by_its_size(qtbot, pane, tmp_path):
    corpus = tmp_path / "poems.txt"
    corpus.write_text((SAMPLES / "song100.txt").read_text(encoding="utf-8"), encoding="utf-8")
    pane.add_files([corpus])
    pane.set_algorithms(["bpe", "unigram"])
    pane.vocab_spin.setValue(8000)
    _train(qtbot, pane)
    bpe, unigram = pane.results
    for result in (bpe, unigram):
        assert result.vocab_size < 8000
        # The file has the size the model has, and it loads as that.
        assert result.request.output.name == f"{result.request.model_type}-{result.vocab_size}-poems.json"
        assert load_tokenizer(result.request.output).vocab_size == result.vocab_size
        status = pane.rows[result.request.output].status.text()
        assert f"vocabulary {result.vocab_size:,}" in status and "smaller than the 8,000 asked" in status
    assert "no pair left occurs 2 times or more" in pane.rows[bpe.request.output].status.text()
    assert "no more pieces worth keeping" in pane.rows[unigram.request.output].status.text()
    assert not list(user_models_dir().glob("*-8000-*.json"))


def test_the_automatic_trainer_says_its_rule(pane):
    # backends.choose_backend: Wubi-BPE and BPE fast at any size, the others only on big corpora
    label = pane.backend_box.itemText(pane.backend_box.findData("auto"))
    assert "Wubi-BPE and BPE" in label and f"{backends.AUTO_FAST_BYTES // 1_000_000} MB" in label
    assert backends.SAME_MODEL == {"wubi-bpe", "bpe"}
    assert "at any corpus size" in pane.backend_box.toolTip()
