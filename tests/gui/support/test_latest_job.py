"""LatestJob: debounced requests where only the newest answer is shown."""
from __future__ import annotations

import threading

from PySide6.QtWidgets import QWidget

from wubitok.errors import FileError
from wubitok.gui.support.latest_job import LatestJob
from wubitok.wubi.query import search


def _gate_then(value, gate: threading.Event, cancel: threading.Event):
    """Return ``value`` once ``gate`` opens (or say cancelled)."""
    while not gate.wait(0.01):
        if cancel.is_set():
            break
    return value


def test_a_newer_run_cancels_the_older_and_drops_its_result(qtbot, gui_app):
    owner = QWidget()
    qtbot.addWidget(owner)
    latest = LatestJob(owner)
    shown: list[str] = []
    gate = threading.Event()
    old = latest.run(_gate_then, "old", gate, on_result=shown.append)
    new = latest.run(_gate_then, "new", gate, on_result=shown.append)
    assert old.cancel_event.is_set() and not new.cancel_event.is_set()
    assert latest.pending()
    gate.set()
    qtbot.waitUntil(lambda: not latest.pending(), timeout=10_000)
    assert shown == ["new"]
    latest.shutdown()
    assert not old.is_running() and not new.is_running()


def test_results_of_a_finished_but_superseded_call_are_dropped(qtbot, gui_app):
    # A call that cannot be cancelled (a search) still finishes; its answer must not show.
    owner = QWidget()
    qtbot.addWidget(owner)
    latest = LatestJob(owner)
    shown = []
    first = latest.run(search, "wq", "code", on_result=shown.append, cancellable=False)
    first.wait(10)  # done in the pool, its signal not yet delivered
    latest.run(search, "你好", "chars", on_result=shown.append, cancellable=False)
    qtbot.waitUntil(lambda: not latest.pending(), timeout=10_000)
    assert [r.query.kind for r in shown] == ["chars"]
    assert shown[0] == search("你好", "chars")


def test_schedule_debounces_and_start_reads_the_input_then(qtbot, gui_app):
    owner = QWidget()
    qtbot.addWidget(owner)
    text = {"value": ""}
    started: list[str] = []
    shown: list[str] = []

    def start():
        started.append(text["value"])
        latest.run(str.upper, text["value"], on_result=shown.append, cancellable=False)

    latest = LatestJob(owner, debounce_ms=50, start=start)
    for value in ("n", "ni", "nih", "niha", "nihao"):
        text["value"] = value
        latest.schedule()
    assert latest.pending() and started == []
    qtbot.waitUntil(lambda: not latest.pending(), timeout=10_000)
    assert started == ["nihao"] and shown == ["NIHAO"]


def test_a_failure_of_the_newest_call_shows_the_dialog(qtbot, gui_app, error_dialogs):
    owner = QWidget()
    qtbot.addWidget(owner)
    latest = LatestJob(owner)

    def fail():
        raise FileError("corpus.txt: not UTF-8")

    latest.run(fail, on_result=lambda _: None, cancellable=False)
    qtbot.waitUntil(lambda: not latest.pending(), timeout=10_000)
    assert error_dialogs == [("File problem", "corpus.txt: not UTF-8")]


def test_cancel_forgets_the_pending_request(qtbot, gui_app):
    owner = QWidget()
    qtbot.addWidget(owner)
    shown = []
    latest = LatestJob(owner, debounce_ms=10_000, start=lambda: shown.append("started"))
    latest.schedule()
    gate = threading.Event()
    job = latest.run(_gate_then, "x", gate, on_result=shown.append)
    latest.cancel()
    assert not latest.pending() and job.cancel_event.is_set()
    gate.set()
    job.wait(10)
    qtbot.wait(50)
    assert shown == []


def test_a_result_for_a_deleted_pane_is_dropped(gui_app, qtbot):
    import threading

    from PySide6.QtWidgets import QLabel, QWidget

    from wubitok.gui.support.latest_job import LatestJob

    owner = QWidget()
    label = QLabel(owner)
    stream = LatestJob(owner)
    release = threading.Event()
    job = stream.run(lambda cancel: release.wait(10) and "late", on_result=label.setText)
    owner.deleteLater()
    qtbot.waitUntil(lambda: not __import__("shiboken6").isValid(label))
    with qtbot.waitSignal(job.ended, timeout=10_000):
        release.set()
    # No "Internal C++ object already deleted" from the slot: the result was dropped.
