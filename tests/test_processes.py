"""wubitok.processes: workers die with their parent, and --workers is capped at what the machine has."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from wubitok.errors import WubitokError
from wubitok.paths import resources_dir
from wubitok.processes import (
    WORKER_DIED,
    WORKER_MEMORY,
    _run_pool,
    available_cores,
    available_memory,
    usable_workers,
)

MODEL = resources_dir() / "models" / "wubi-bpe-6000.json"
SAMPLE = resources_dir() / "samples" / "tang300.txt"
BOUND = 60.0  # seconds: a bound for a broken build, not a measure of speed


def _children() -> dict[int, int]:
    """pid -> parent pid of every live (not zombie) process."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            found[int(entry.name)] = int(fields[1])
    return found


def _descendants(pid: int) -> set[int]:
    parents = _children()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(SAMPLE.read_text(encoding="utf-8") * 40, encoding="utf-8")
    return corpus


@pytest.mark.system("linux")  # reads /proc to find the workers
@pytest.mark.parametrize("command", [
    ["encode", "-m", str(MODEL), "--file", "{corpus}", "-o", "{out}.bin", "--workers", "2"],
    ["train", "-m", "wubi-bpe", "-v", "6000", "--workers", "2", "-o", "{out}.json", "{corpus}"],
])
def test_killing_the_parent_ends_its_workers_and_the_resource_tracker(tmp_path, command):
    corpus = _corpus(tmp_path)
    argv = [a.format(corpus=corpus, out=tmp_path / "out") for a in command]
    # 2 workers and the resource tracker once the pool is up
    _kill_and_expect_no_survivors([sys.executable, "-m", "wubitok", *argv], 3)


def _kill_and_expect_no_survivors(argv: list[str], started: int) -> None:
    """Run ``argv``, wait for ``started`` descendants, SIGKILL it: none may outlive it."""
    parent = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + BOUND
        while len(workers := _descendants(parent.pid)) < started:
            assert parent.poll() is None, "the run ended before it could be killed: give it more work"
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.05)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + BOUND
        while workers & set(_children()):
            assert time.monotonic() < deadline, f"still alive after the parent died: {workers & set(_children())}"
            time.sleep(0.05)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in workers & set(_children()):  # what a broken build left behind
            os.kill(pid, signal.SIGKILL)


# The app starts its pools from job threads (no parent-death signal: the kernel sends it when
# the starting thread ends): its workers watch the parent's pipe instead.
APP = """
import sys, threading, time
from pathlib import Path
from wubitok.services.encode_pool import EncodePool
from wubitok.services.training import TrainRequest
from wubitok.services.training_process import train_in_process

def job():
    pool = EncodePool(workers=2, processes=True)
    pool.start()
    request = TrainRequest("wubi-bpe", (sys.argv[1],), 6000, Path(sys.argv[2]), workers=2)
    train_in_process(request)

threading.Thread(target=job, daemon=True).start()
time.sleep(3600)
"""


@pytest.mark.system("linux")  # reads /proc to find the workers
def test_the_apps_workers_started_from_a_thread_end_with_the_app(tmp_path):
    corpus = _corpus(tmp_path)
    # 2 encode workers, the training process and its 2 counting workers, resource trackers
    _kill_and_expect_no_survivors([sys.executable, "-c", APP, str(corpus), str(tmp_path / "m.json")], 5)


def test_workers_are_capped_at_the_cores_and_memory():
    memory = available_memory()
    cap = min(available_cores(), memory // WORKER_MEMORY if memory is not None else 10**6)
    assert usable_workers(1) == 1
    assert usable_workers(10**6) == max(1, cap)


def test_the_cap_is_said_once_on_stderr_and_changes_no_output(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    outs = {}
    for workers in ("1", "64"):
        proc = subprocess.run([sys.executable, "-m", "wubitok", "count", "-m", "bpe", "--file", str(corpus),
                               "-o", str(tmp_path / f"{workers}.tsv"), "--workers", workers],
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        outs[workers] = ((tmp_path / f"{workers}.tsv").read_bytes(), proc.stderr)
    assert outs["64"][0] == outs["1"][0]
    said = [line for line in outs["64"][1].splitlines() if "worker processes, not 64" in line]
    assert len(said) == 1, outs["64"][1]
    assert "worker processes" not in outs["1"][1]


def test_stop_executor_ends_a_reader_stuck_on_a_result_cut_short():
    # A worker ended while it wrote a result leaves the executor's thread reading the rest for ever
    # (after Ctrl-C in a train's first second the command never exited).  Here the cut-off result
    # is written by hand: a header that promises a megabyte (more than a pipe holds), and 10 bytes.
    import struct
    import threading

    from wubitok.processes import new_executor, stop_executor

    ex = new_executor(1)
    assert ex.submit(abs, -1).result(timeout=120) == 1
    manager = ex._executor_manager_thread
    writer = ex._result_queue._writer
    os.write(writer.fileno(), struct.pack("!i", 1_000_000) + b"\x80" * 10)
    time.sleep(0.5)  # the thread is now inside recv(), waiting for the rest
    stopping = threading.Thread(target=stop_executor, args=(ex, 0.0), daemon=True)
    stopping.start()
    stopping.join(60)
    assert not stopping.is_alive() and not manager.is_alive()


class _RacingPool(ProcessPoolExecutor):
    """A real executor whose submit fails as it does when it races the manager thread that is
    closing a broken pool's pipes; ``broken`` says whether that thread has marked it broken yet."""

    def __init__(self, error: Exception, broken: bool) -> None:
        super().__init__(max_workers=1)
        self.error, self.broken = error, broken

    def submit(self, fn, /, *args, **kwargs):
        if self.broken:
            self._broken = "A child process terminated abruptly"
        raise self.error


@pytest.mark.parametrize("error", [OSError("handle is closed"), ValueError("bad value(s) in fds_to_keep")])
def test_a_submit_racing_a_broken_pool_is_a_dead_worker(error):
    with pytest.raises(WubitokError) as caught:
        list(_run_pool(_RacingPool(error, broken=True), [1, 2, 3], 1))
    assert caught.value.code == WORKER_DIED


@pytest.mark.parametrize("error", [OSError("No space left on device"), ValueError("a real bug")])
def test_the_same_errors_from_a_sound_pool_stay_what_they_are(error):
    with pytest.raises(type(error), match=str(error)):
        list(_run_pool(_RacingPool(error, broken=False), [1, 2, 3], 1))
