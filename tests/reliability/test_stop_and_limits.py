"""Tracebacks and noise (issue #37, 10): a closed standard output, a memory limit, Ctrl-C while a
command starts and while its workers start, a worker killed with SIGKILL.  Each is one line on
stderr and the exit code of its kind, with real processes and real signals."""
from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wubitok.paths import resources_dir

ROOT = Path(__file__).resolve().parents[2]
MODEL = resources_dir() / "models" / "bpe-6000.json"
WUBITOK = [sys.executable, "-m", "wubitok"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("stop") / "corpus.txt"
    text = "".join(p.read_text(encoding="utf-8") for p in sorted((resources_dir() / "samples").glob("*.txt")))
    path.write_text(text * 4, encoding="utf-8")
    return path


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a terminal's foreground job has it


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    # a progress line may come first (one per finished stage in a log); then the one line
    assert lines and "Traceback" not in err and "leaked" not in err, err
    assert all(re.match(r"(counting|merging|encoding|reading)\b", line) for line in lines[:-1]), err
    return lines[-1]


def _workers(pid: int) -> list[int]:
    """The spawned worker processes of ``pid``."""
    out = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                out.append(int(child))
        except OSError:
            pass
    return out


def _wait_for_workers(proc: subprocess.Popen) -> list[int]:
    while proc.poll() is None:
        found = _workers(proc.pid)
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError(proc.communicate()[1])


def test_a_closed_standard_output_is_one_line_and_exit_2(tmp_path):
    done = subprocess.run([*WUBITOK, "lookup", "你好"], stderr=subprocess.PIPE, text=True, env=_env(),
                          preexec_fn=lambda: os.close(1), timeout=120)
    assert done.returncode == 2
    assert _one_line(done.stderr) == "wubitok lookup: error: cannot write the output (standard output is closed)"
    # A command that prints nothing on standard output is not disturbed by its being closed.
    corpus = tmp_path / "c.txt"
    corpus.write_text("你好世界\nhello world\n" * 50, encoding="utf-8")
    done = subprocess.run([*WUBITOK, "train", "-m", "bpe", "-v", "300", "-q", str(corpus), "-o",
                           str(tmp_path / "m.json")],
                          stderr=subprocess.PIPE, text=True, env=_env(), preexec_fn=lambda: os.close(1), timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "m.json").is_file()


def test_a_memory_limit_is_one_line_and_exit_2(tmp_path):
    han = tmp_path / "han.txt"
    han.write_text("床前明月光疑是地上霜举头望明月低头思故乡" * 250_000, encoding="utf-8")  # 15 MB, one line

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (100 << 20, 100 << 20))  # as `ulimit -v 100000`

    done = subprocess.run([*WUBITOK, "convert", "--to", "wubi", "--file", str(han)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=_env(), preexec_fn=limited, timeout=300)
    assert done.returncode == 2
    assert _one_line(done.stderr).startswith("wubitok convert: error: out of memory")


# From 0.5 s: before Python has imported wubitok at all (about 0.1 s, more on a loaded machine) a
# Ctrl-C is the interpreter's own.
@pytest.mark.parametrize("delay", [0.5, 1.0, 1.8])
def test_ctrl_c_in_the_first_seconds_of_train_is_one_line(tmp_path, corpus, delay):
    # The pure-Python trainer merges for tens of seconds: the signal comes before the end.
    proc = subprocess.Popen([*WUBITOK, "train", "-m", "bpe", "-v", "30000", "--backend", "python", "--workers", "2",
                             str(corpus), "-o", str(tmp_path / "m.json")], stderr=subprocess.PIPE, text=True,
                            env=_env(), preexec_fn=_default_sigint)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=300)[1]
    assert proc.returncode == 130 and _one_line(err).endswith("interrupted"), err
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("command", ["encode", "count", "train"])
def test_ctrl_c_while_the_workers_start_is_one_line(tmp_path, corpus, command):
    args = {"encode": ["encode", "-m", str(MODEL), "--file", str(corpus), "-o", str(tmp_path / "out.bin")],
            "count": ["count", "-m", str(MODEL), "--file", str(corpus), "-o", str(tmp_path / "out.tsv")],
            "train": ["train", "-m", "bpe", "-v", "3000", str(corpus), "-o", str(tmp_path / "m.json")]}[command]
    proc = subprocess.Popen([*WUBITOK, *args, "--workers", "2"], stderr=subprocess.PIPE, text=True, env=_env(),
                            preexec_fn=_default_sigint)
    _wait_for_workers(proc)  # the first worker exists and is starting
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=300)[1]
    assert proc.returncode == 130, err
    assert _one_line(err) == f"wubitok {command}: interrupted"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["encode", "count", "train"])
def test_a_worker_killed_with_sigkill_is_one_line_and_exit_2(tmp_path, corpus, command):
    args = {"encode": ["encode", "-m", str(MODEL), "--file", str(corpus), "-o", str(tmp_path / "out.bin")],
            "count": ["count", "-m", str(MODEL), "--file", str(corpus), "-o", str(tmp_path / "out.tsv")],
            "train": ["train", "-m", "bpe", "-v", "3000", str(corpus), "-o", str(tmp_path / "m.json")]}[command]
    proc = subprocess.Popen([*WUBITOK, *args, "--workers", "2"], stderr=subprocess.PIPE, text=True, env=_env())
    os.kill(_wait_for_workers(proc)[0], signal.SIGKILL)
    err = proc.communicate(timeout=300)[1]  # it used to wait for ever for a worker started meanwhile
    assert proc.returncode == 2, err  # killed as it started: no task of the run can have finished
    assert _one_line(err) == f"wubitok {command}: error: a worker process died (out of memory or killed); " \
                             "nothing was written"
    assert sorted(p.name for p in tmp_path.iterdir()) == []
