"""The collector never walks what start-up or a job left alive, and is off while jobs run."""
from __future__ import annotations

import gc

from wubitok.gui.support import gc_pauses
from wubitok.gui.support.workers import Job


def _collector_state() -> tuple[bool, int]:
    return gc.isenabled(), gc_pauses.jobs_running()


def test_a_job_runs_with_the_collector_off_and_its_survivors_are_frozen(gui_app, qtbot):
    qtbot.waitUntil(lambda: gc_pauses.jobs_running() == 0, timeout=60_000)  # jobs of earlier tests may still end
    assert gc.isenabled()
    job = Job(lambda: (_collector_state(), [[i] for i in range(50_000)]), pass_progress=False, pass_cancel=False)
    with qtbot.waitSignal(job.ended, timeout=60_000):
        job.start()
    (enabled_inside, running_inside), survivors = job.result
    assert not enabled_inside and running_inside >= 1
    qtbot.waitUntil(lambda: gc_pauses.jobs_running() == 0)  # jobs of earlier tests may still end
    assert gc.isenabled()
    # The 50,000 lists the job returned are in the permanent generation now: in
    # none of the generations a collection walks.  (Checked by identity, not by
    # the freeze count, which drops when frozen objects of earlier tests die meanwhile.)
    walked = {id(o) for o in gc.get_objects()}
    assert not any(id(s) in walked for s in survivors)
    assert gc.get_freeze_count() >= len(survivors)


def test_a_finished_job_leaves_no_cycle_with_its_runnable(gui_app, qtbot):
    job = Job(lambda: 1, pass_progress=False, pass_cancel=False)
    with qtbot.waitSignal(job.ended, timeout=60_000):
        job.start()
    assert job._runnable is not None and job._runnable._job is None


def test_the_main_window_freezes_what_start_up_built(gui_app, gui_data_dir, qtbot):
    from wubitok.gui.main_window import MainWindow

    gc.unfreeze()
    window = MainWindow(restore=False)
    qtbot.addWidget(window)
    assert gc.get_freeze_count() > 0
    frozen = gc.get_freeze_count()
    window.show_pane("convert")  # a pane built later is frozen too
    assert gc.get_freeze_count() > frozen
    window.shutdown()
