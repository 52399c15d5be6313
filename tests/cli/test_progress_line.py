"""How the CLI draws progress on stderr: a line redrawn in place on a terminal, a line per stage in a log."""
from __future__ import annotations

from wubitok.cli.common import ProgressLine


class Clock:
    t = 0.0

    def __call__(self) -> float:
        return self.t


class Stream(list):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def write(self, s: str) -> None:
        self.append(s)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return self.tty


def test_terminal_line_redrawn_with_rate_and_eta():
    clock, stream = Clock(), Stream(tty=True)
    bar = ProgressLine(stream, clock)
    bar("merging", 0, 1000)
    assert stream[-1].startswith("\rmerging") and "ETA -:--" in stream[-1]  # no rate yet: no made-up ETA
    clock.t = 2.0
    bar("merging", 500, 1000)
    assert "50%" in stream[-1] and "500/1.0k" in stream[-1] and "250/s" in stream[-1] and "ETA 0:02" in stream[-1]
    drawn = len(stream)
    clock.t = 2.05
    bar("merging", 510, 1000)  # within a tenth of a second: not redrawn
    assert len(stream) == drawn
    clock.t = 4.0
    bar("merging", 1000, 1000)
    assert "100%" in stream[-1] and "in 0:04" in stream[-1]
    bar("saving", 3, 0)  # a new stage starts on a new line
    assert stream[-2] == "\n" and stream[-1].startswith("\rsaving    3")
    bar.finish()
    assert stream[-1] == "\n"


def test_log_gets_one_line_per_stage_when_it_ends():
    clock, stream = Clock(), Stream(tty=False)
    line = ProgressLine(stream, clock)
    line("counting", 0, 0)
    clock.t = 1.0
    line("counting", 2000, 0)
    assert stream == []  # nothing until the stage ends
    line("merging", 0, 100)
    assert stream == ["counting  2.0k  2.0k/s  0:01\n"]
    clock.t = 3.0
    line("merging", 100, 100)
    assert stream[-1].startswith("merging   [########################] 100% 100/100") and "in 0:02" in stream[-1]
    line.finish()
    line.finish()
    assert len(stream) == 2  # a finished stage is not printed again
