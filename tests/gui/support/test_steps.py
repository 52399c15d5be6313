"""Steps: GUI-thread work one step per pass of the event loop, behind what waited."""
from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, QTimer

from wubitok.gui.support.steps import Steps, start_after_this_pass


def _busy(ms: float) -> None:
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        pass


def test_steps_run_in_order_and_a_new_start_replaces_the_rest(qtbot):
    owner = QObject()
    steps = Steps(owner)
    done: list[str] = []
    steps.start([lambda: done.append("a1"), lambda: done.append("a2"), lambda: done.append("a3")])
    assert done == ["a1"] and steps.pending()  # the first at once, the others later
    steps.start([lambda: done.append("b1"), lambda: done.append("b2")], first_now=False)
    assert done == ["a1"]
    qtbot.waitUntil(lambda: not steps.pending(), timeout=5_000)
    qtbot.wait(20)
    assert done == ["a1", "b1", "b2"]
    steps.start([lambda: done.append("c1"), lambda: done.append("c2")])
    steps.clear()
    qtbot.wait(20)
    assert done == ["a1", "b1", "b2", "c1"] and not steps.pending()


def test_a_step_after_a_long_callback_waits_behind_a_timer_that_came_due_during_it(qtbot):
    """A 10 ms ticker stands for input waiting behind a long callback: the step the
    callback schedules must not run before it (it did, in the callback's stall)."""
    owner = QObject()
    steps = Steps(owner)
    order: list[str] = []
    ticker = QTimer(owner, interval=10, timerType=Qt.TimerType.PreciseTimer)
    ticker.timeout.connect(lambda: order.append("tick"))

    def long_callback() -> None:
        steps.start([lambda: order.append("step 1"), lambda: order.append("step 2")])
        _busy(40)  # the tick comes due meanwhile, the step's 1 ms timer too

    ticker.start()
    QTimer.singleShot(0, long_callback)
    qtbot.waitUntil(lambda: "step 2" in order, timeout=5_000)
    ticker.stop()
    assert order[0] == "step 1"
    assert order.index("tick") < order.index("step 2")


def test_a_timer_started_after_this_pass_is_not_started_if_it_is_gone(qtbot):
    owner = QObject()
    timer = QTimer(owner, singleShot=True, interval=1)
    fired: list[bool] = []
    timer.timeout.connect(lambda: fired.append(True))
    start_after_this_pass(timer)
    qtbot.waitUntil(lambda: bool(fired), timeout=5_000)
    start_after_this_pass(timer)
    timer.deleteLater()
    owner.deleteLater()
    qtbot.wait(30)  # no crash, no call into a deleted timer
    assert fired == [True]
