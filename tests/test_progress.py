"""The progress model: rate and ETA per stage, throttling, and the number formats."""
from __future__ import annotations

import pytest

from wubitok.progress import Progress, ProgressMeter, clock, human_rate, human_seconds, si


class Clock:
    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def test_rate_and_eta_per_stage():
    now = Clock()
    meter = ProgressMeter(clock=now)
    first = meter.update("counting", 0, 1000)
    assert first.rate == 0.0 and first.eta is None and first.elapsed == 0.0
    now.t += 2.0
    mid = meter.update("counting", 400, 1000)
    assert mid.rate == pytest.approx(200.0)
    assert mid.eta == pytest.approx(3.0)
    assert mid.fraction == pytest.approx(0.4) and not mid.finished
    assert mid.describe() == "counting · 400 / 1,000 · 200/s · ETA 3 s"
    now.t += 1.0
    # A new stage measures its own rate from its own start, not from work done before it.
    fresh = meter.update("merging", 50, 500)
    assert fresh.rate == 0.0 and fresh.eta is None and fresh.elapsed == 0.0
    now.t += 5.0
    later = meter.update("merging", 550, 0)
    assert later.rate == pytest.approx(100.0) and later.eta is None  # total unknown
    assert later.fraction is None and not later.finished
    assert later.describe() == "merging · 550 · 100/s"


def test_a_finished_stage_has_no_time_left():
    now = Clock()
    meter = ProgressMeter(clock=now)
    meter.update("merging", 0, 10)
    done = meter.update("merging", 12, 10)  # overshoot is clamped, not a negative ETA
    assert done.finished and done.eta == 0.0 and done.fraction == 1.0


def test_throttling_keeps_stage_starts_and_ends():
    now = Clock()
    meter = ProgressMeter(interval=0.5, clock=now)
    assert meter.update("counting", 0, 100) is not None  # a new stage always
    now.t += 0.1
    assert meter.update("counting", 10, 100) is None  # too soon
    assert meter.last == Progress("counting", 10, 100, pytest.approx(100.0), pytest.approx(0.9), pytest.approx(0.1))
    now.t += 0.1
    assert meter.update("merging", 0, 50) is not None  # a stage change is never dropped
    now.t += 0.1
    assert meter.update("merging", 50, 50) is not None  # nor the end of one
    now.t += 0.1
    assert meter.update("merging", 50, 0) is None
    now.t += 0.5
    assert meter.update("merging", 60, 0) is not None  # the interval has passed
    assert meter.measure("merging", 61, 0) is not None  # measure() never throttles


@pytest.mark.parametrize(("value", "text"), [(0.5, "0.5"), (830, "830"), (12_345, "12k"), (3.2e6, "3.2M")])
def test_human_rate(value, text):
    assert human_rate(value) == text


@pytest.mark.parametrize(("seconds", "text"), [(4.6, "5 s"), (187, "3 min 07 s"), (7500, "2 h 05 min")])
def test_human_seconds(seconds, text):
    assert human_seconds(seconds) == text


@pytest.mark.parametrize(("value", "text"), [(950, "950"), (1000, "1.0k"), (2.5e6, "2.5M"), (1.2e9, "1.2G")])
def test_si(value, text):
    assert si(value) == text


@pytest.mark.parametrize(("seconds", "text"), [(7, "0:07"), (754, "12:34"), (3723, "1:02:03")])
def test_clock(seconds, text):
    assert clock(seconds) == text
