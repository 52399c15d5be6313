"""How long freeing Convert's result for a big text holds the GUI thread: at once, and by ``release_later``.

A 10 MB text's conversion holds a ``CodePiece`` per code and a ``Mark`` per shared or unknown
one.  When the next conversion replaced it, its last reference went on the GUI thread, and
freeing it there was one C call.  ``release_later`` empties its lists a slice per turn of the
event loop; bench_gui_stalls.py's meter, a 10 ms timer on the same thread, stands for the
window's repaints and input: its worst gap is the longest the window waited.

    nice -n 5 python bench/bench_release.py [--chars 10000000]
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject

from wubitok.gui.panes.convert import CHINESE, convert
from wubitok.gui.support.release import release_later
from wubitok.paths import resources_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_gui_stalls as bench  # noqa: E402  (its meter: one way to time the GUI thread's turns)


def _text(chars: int) -> str:
    samples = resources_dir() / "samples"
    text = "".join((samples / n).read_text(encoding="utf-8") for n in ("fortunes-zh.txt", "tang300.txt"))
    return (text * (chars // len(text) + 1))[:chars]


def worst_gap(action: Callable[[], None], done: Callable[[], bool]) -> tuple[float, float]:
    """(the worst gap of bench_gui_stalls' meter in ms, the time until ``done()`` in ms)."""
    meter = bench.StallMeter()
    t0 = time.perf_counter()
    meter.start()
    bench.run_until(action, done, settle_ms=0)
    took = time.perf_counter() - t0
    return float(meter.stop()["worst_ms"]), 1e3 * took


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
        print(f"{how:14} {sizes}: the worst gap {gap:.0f} ms; all freed in {took:.0f} ms")
    del app
    print("load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
