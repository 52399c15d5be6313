"""How long freeing Convert's result for a big text holds the GUI thread: at once, and by ``release_later``.

A 10 MB text's conversion holds a ``CodePiece`` per code and a ``Mark`` per shared or unknown
one.  When the next conversion replaced it, its last reference went on the GUI thread, and
freeing it there was one C call.  ``release_later`` empties its lists a slice per turn of the
event loop; a 1 ms timer on the same thread stands for the window's repaints and input: its
worst gap is the longest turn.

    nice -n 5 python bench/bench_release.py [--chars 10000000]
"""
from __future__ import annotations

import argparse
import gc
import os
import time
from typing import Callable

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, QTimer

from wubitok.gui.panes.convert import CHINESE, convert
from wubitok.gui.support.release import release_later
from wubitok.paths import resources_dir


def _text(chars: int) -> str:
    samples = resources_dir() / "samples"
    text = "".join((samples / n).read_text(encoding="utf-8") for n in ("fortunes-zh.txt", "tang300.txt"))
    return (text * (chars // len(text) + 1))[:chars]


def worst_gap(action: Callable[[], None], done: Callable[[], bool]) -> tuple[float, float]:
    """(the worst gap of a 1 ms timer in ms, the time until ``done()`` in ms)."""
    gaps: list[float] = []
    last = [time.perf_counter()]
    loop = QEventLoop()

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now
        if done():
            loop.quit()

    timer = QTimer(interval=1, timerType=Qt.TimerType.PreciseTimer)
    timer.timeout.connect(tick)
    t0 = time.perf_counter()
    QTimer.singleShot(0, action)
    timer.start()
    loop.exec()
    timer.stop()
    return 1e3 * max(gaps), 1e3 * (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chars", type=int, default=10_000_000)
    args = ap.parse_args()
    text = _text(args.chars)
    gc.disable()  # as in the app's jobs (gc_pauses): a collection is not what is measured
    app = QCoreApplication([])
    owner = QObject()
    for how in ("at once", "release_later"):
        result = convert(CHINESE, text, "full", " ")
        lists = [result.pieces, result.marks, result.code_starts, result.chinese_starts,
                 *(where for _, where in result.shared)]
        sizes = f"{len(result.pieces):,} pieces, {len(result.marks):,} marks"
        del result

        def free(lists=lists, how=how) -> None:
            if how == "release_later":
                release_later(owner, *lists)
            else:
                lists.clear()

        gap, took = worst_gap(free, lambda lists=lists: not any(lists))
        print(f"{how:14} {sizes}: the longest turn {gap:.0f} ms; all freed in {took:.0f} ms")
    del app
    print("load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
