"""Training to a file, as `wubitok train` and the Train pane do it (wubitok.services.training)."""
from __future__ import annotations

import threading

import pytest

from wubitok.engines.base import engine_class, load_tokenizer
from wubitok.engines.wordpiece.model import TRAINED_BY_PURE
from wubitok.errors import Cancelled, FileError, InputError
from wubitok.paths import resources_dir
from wubitok.services.training import TrainRequest, resolve_backend, train_to_file, trained_by
from wubitok.wubi.codec import CodecOptions

TANG = resources_dir() / "samples" / "tang300.txt"


def test_the_file_is_what_the_engine_trains(tmp_path):
    out = tmp_path / "m.json"
    codec = CodecOptions(code="shortest")
    stages: list[str] = []
    result = train_to_file(TrainRequest("wubi-bpe", (str(TANG),), 600, out, codec=codec, backend="python"),
                           progress=lambda stage, done, total: stages.append(stage))
    direct = tmp_path / "direct.json"
    engine_class("wubi-bpe").train(files=[TANG], vocab_size=600, min_frequency=2, codec=codec,
                                   backend="python").save(direct)
    assert out.read_bytes() == direct.read_bytes()
    assert result.vocab_size == load_tokenizer(out).vocab_size and result.file_bytes == out.stat().st_size
    assert result.backend == "python" and result.trained_by is None and result.seconds > 0
    assert "counting" in stages


def test_trained_by_names_the_trainer_of_two_way_engines(tmp_path):
    result = train_to_file(TrainRequest("wordpiece", (str(TANG),), 800, tmp_path / "wp.json", backend="python"))
    assert result.trained_by == trained_by(load_tokenizer(tmp_path / "wp.json")) == TRAINED_BY_PURE
    assert trained_by(load_tokenizer(resources_dir() / "models" / "bpe-6000.json")) is None


def test_bad_requests_fail_before_training_and_write_nothing(tmp_path):
    good = (str(TANG),)
    with pytest.raises(InputError, match="for wubi-bpe models, not bpe"):
        train_to_file(TrainRequest("bpe", good, 600, tmp_path / "a.json", codec=CodecOptions()))
    with pytest.raises(FileError, match="does not exist"):
        train_to_file(TrainRequest("bpe", good, 600, tmp_path / "no" / "a.json"))
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("café\n".encode("latin-1"))
    with pytest.raises(FileError):
        train_to_file(TrainRequest("bpe", (str(latin1),), 600, tmp_path / "a.json"))
    with pytest.raises(Cancelled):
        cancel = threading.Event()
        cancel.set()
        train_to_file(TrainRequest("bpe", good, 600, tmp_path / "a.json"), cancel=cancel)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latin1.txt"]


def test_create_folder_makes_the_output_folder(tmp_path):
    out = tmp_path / "new" / "deeper" / "m.json"
    train_to_file(TrainRequest("bpe", (str(TANG),), 400, out, backend="python"), create_folder=True)
    assert load_tokenizer(out).vocab_size <= 400


def test_auto_backend_is_python_for_a_small_corpus(tmp_path):
    request = TrainRequest("wordpiece", (str(TANG),), 400, tmp_path / "m.json")
    assert request.backend == "auto" and resolve_backend(request) == "python"
    assert resolve_backend(TrainRequest("wordpiece", (str(TANG),), 400, tmp_path / "m.json", backend="fast")) == "fast"
    # the BPE engines' backends train the same model: auto is fast at any size
    assert resolve_backend(TrainRequest("bpe", (str(TANG),), 400, tmp_path / "m.json")) == "fast"
