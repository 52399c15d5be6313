"""Training in a spawned process (wubitok.services.training_process): the same file, progress, cancel and errors."""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading

import pytest

from wubitok.errors import Cancelled, FileError, WubitokError
from wubitok.paths import resources_dir
from wubitok.services import training_process
from wubitok.services.training import TrainRequest, train_to_file
from wubitok.services.training_process import train_in_process

SAMPLES = resources_dir() / "samples"
TANG = SAMPLES / "tang300.txt"


@pytest.mark.parametrize("model_type", ["wubi-bpe", "unigram"])
def test_the_file_is_the_one_training_here_writes(tmp_path, model_type):
    here = train_to_file(TrainRequest(model_type, (str(TANG),), 700, tmp_path / "here.json"))
    progress: list[tuple[str, int, int]] = []
    there = train_in_process(TrainRequest(model_type, (str(TANG),), 700, tmp_path / "there.json"),
                             progress=lambda stage, done, total: progress.append((stage, done, total)))
    assert (tmp_path / "there.json").read_bytes() == (tmp_path / "here.json").read_bytes()
    assert (there.vocab_size, there.file_bytes, there.backend) == (here.vocab_size, here.file_bytes, here.backend)
    assert there.request.output == tmp_path / "there.json"
    # Each stage arrives, and the last report of the run is its end.
    assert progress[0][0] == "counting" and progress[-1][1] == progress[-1][2]


def test_cancel_stops_the_process_and_writes_nothing(tmp_path):
    out = tmp_path / "m.json"
    cancel = threading.Event()
    corpus = tuple(str(SAMPLES / n) for n in ("tang300.txt", "song100.txt", "fortunes-zh.txt"))
    with pytest.raises(Cancelled):
        # Cancelled once it reports progress: it is really training then.
        train_in_process(TrainRequest("bpe", corpus, 6000, out), progress=lambda *_: cancel.set(), cancel=cancel)
    assert not out.exists() and not list(tmp_path.iterdir())
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("train ")]


def test_the_library_error_comes_back_as_raised(tmp_path):
    binary = tmp_path / "image.bin"
    binary.write_bytes(bytes(range(256)) * 8)
    request = TrainRequest("bpe", (str(binary),), 1000, tmp_path / "m.json")
    with pytest.raises(FileError) as here:
        train_to_file(request)
    with pytest.raises(FileError) as there:
        train_in_process(request)
    assert str(there.value) == str(here.value) and there.value.code == here.value.code


def test_a_process_that_dies_is_one_clear_error(tmp_path):
    def kill_the_child(*_progress) -> None:
        for p in multiprocessing.active_children():
            if p.name == "train bpe" and p.pid is not None:
                os.kill(p.pid, signal.SIGKILL)

    with pytest.raises(WubitokError, match="worker process died") as died:
        train_in_process(TrainRequest("bpe", (str(TANG),), 3000, tmp_path / "m.json"), progress=kill_the_child)
    assert died.value.code == "pool.worker_died"
    assert not (tmp_path / "m.json").exists()


def test_a_request_that_counts_in_worker_processes_trains_there_too(tmp_path):
    # The training process starts the counting workers of its own (wubitok.scale).
    here = train_to_file(TrainRequest("bpe", (str(TANG),), 700, tmp_path / "here.json"))
    there = train_in_process(TrainRequest("bpe", (str(TANG),), 700, tmp_path / "there.json", workers=2))
    assert (tmp_path / "there.json").read_bytes() == (tmp_path / "here.json").read_bytes()
    assert there.vocab_size == here.vocab_size


def test_an_error_in_the_progress_callback_stops_the_child(tmp_path):
    def broken(*_progress) -> None:
        raise RuntimeError("a bug in the caller")

    with pytest.raises(RuntimeError, match="a bug in the caller"):
        train_in_process(TrainRequest("bpe", (str(TANG),), 3000, tmp_path / "m.json"), progress=broken)
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("train ")]
    assert not (tmp_path / "m.json").exists()


def test_a_child_that_does_not_hear_cancel_is_ended(tmp_path, monkeypatch):
    # A child stuck where it cannot look at ``cancel`` (stopped here with SIGSTOP, as
    # sentencepiece's C++ would be busy): Cancel does not wait for it beyond STOP_WAIT.
    monkeypatch.setattr(training_process, "STOP_WAIT", 0.5)
    cancel = threading.Event()
    stopped: list[int] = []

    def stop_the_child(*_progress) -> None:
        for p in multiprocessing.active_children():
            if p.name == "train bpe" and p.pid is not None and not stopped:
                os.kill(p.pid, signal.SIGSTOP)
                stopped.append(p.pid)
        cancel.set()

    with pytest.raises(Cancelled):
        train_in_process(TrainRequest("bpe", (str(TANG),), 3000, tmp_path / "m.json"), progress=stop_the_child,
                         cancel=cancel)
    assert stopped
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("train ")]
    with pytest.raises(ProcessLookupError):
        os.kill(stopped[0], 0)  # ended and reaped, not left stopped
    assert not (tmp_path / "m.json").exists()


def test_where_no_process_can_start_it_trains_here(tmp_path, monkeypatch):
    def refuse(self) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing.get_context("spawn").Process, "start", refuse)
    here = train_to_file(TrainRequest("bpe", (str(TANG),), 700, tmp_path / "here.json"))
    there = train_in_process(TrainRequest("bpe", (str(TANG),), 700, tmp_path / "there.json"))
    assert (tmp_path / "there.json").read_bytes() == (tmp_path / "here.json").read_bytes()
    assert there.vocab_size == here.vocab_size
