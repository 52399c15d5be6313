"""Background jobs: results, progress with rate/ETA, cancel, errors, a live event loop."""
from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QTimer

from wubitok.engines.bpe.trainer import train_merges
from wubitok.errors import FileError
from wubitok.fileio import check_readable_text, read_text
from wubitok.gui.support.workers import Job, run_job
from wubitok.paths import resources_dir
from wubitok.progress import Progress

SAMPLES = resources_dir() / "samples"


def _byte_words(text: str) -> list[tuple[tuple[int, ...], int]]:
    from collections import Counter

    counts = Counter(text.split())
    return [(tuple(w.encode("utf-8")), n) for w, n in sorted(counts.items())]


@pytest.fixture(scope="module")
def tang_words():
    return _byte_words(read_text(SAMPLES / "tang300.txt"))


def test_finished_carries_the_result_and_progress_reaches_total(qtbot, tang_words):
    seen: list[Progress] = []
    job = Job(train_merges, tang_words, first_new_id=256, num_merges=200)
    job.progress.connect(seen.append)
    with qtbot.waitSignal(job.finished, timeout=30_000) as blocker:
        job.start()
    merges = blocker.args[0]
    assert merges == train_merges(tang_words, first_new_id=256, num_merges=200)
    assert seen, "no progress reported"
    last = seen[-1]
    assert last.stage == "merging" and last.total > 0 and last.done == last.total
    assert last.fraction == 1.0 and last.eta == 0.0
    assert not job.is_running()


def test_cancel_stops_a_library_call(qtbot, tang_words):
    started = threading.Event()

    def progress_then_wait(progress, cancel):
        # Cancel from the GUI thread once training has reported progress.
        def report(stage, done, total):
            started.set()
            progress(stage, done, total)
            cancel.wait(5)

        return train_merges(tang_words, first_new_id=256, num_merges=2000, progress=report, cancel=cancel)

    job = Job(progress_then_wait)
    finished: list = []
    job.finished.connect(finished.append)
    with qtbot.waitSignal(job.cancelled, timeout=30_000):
        job.start()
        qtbot.waitUntil(started.is_set, timeout=30_000)
        job.cancel()
    assert finished == []
    assert job.wait(5)


def test_a_user_error_fails_with_its_one_line_message(qtbot, tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9".encode("latin-1"))
    job = Job(check_readable_text, [bad], pass_progress=False, pass_cancel=False)
    with qtbot.waitSignal(job.failed, timeout=10_000) as blocker:
        job.start()
    assert blocker.args[0].startswith(f"{bad}: not UTF-8 text")
    assert isinstance(job.error, FileError)


def test_a_bug_fails_without_killing_the_app(qtbot, capsys):
    job = Job(lambda: [][1], name="indexing", pass_progress=False, pass_cancel=False)
    with qtbot.waitSignal(job.failed, timeout=10_000) as blocker:
        job.start()
    assert blocker.args[0].startswith("internal error in indexing: IndexError")
    assert "Traceback" in capsys.readouterr().err


def test_finishing_after_cancel_reports_cancelled(qtbot):
    gate = threading.Event()
    job = Job(lambda: gate.wait(5), pass_progress=False, pass_cancel=False)
    with qtbot.waitSignal(job.cancelled, timeout=10_000):
        job.start()
        job.cancel()
        gate.set()
    assert job.result is None


def test_event_loop_keeps_running_during_a_long_job(qtbot):
    """A QTimer on the GUI thread ticks many times while training runs."""
    text = "".join(read_text(SAMPLES / name) for name in ("tang300.txt", "song100.txt", "fortunes-zh.txt"))
    words = _byte_words(text)
    ticks = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    ended = []
    job = run_job(
        train_merges, words, first_new_id=256, num_merges=1500, on_finished=lambda r: ended.append(len(ticks))
    )
    qtbot.waitUntil(lambda: bool(ended), timeout=120_000)
    timer.stop()
    assert job.result and len(job.result) == 1500
    assert ended[0] > 10, f"only {ended[0]} timer ticks while training ran"
