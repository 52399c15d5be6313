"""How long freeing Convert's result for a big text holds the GIL: at once, and by ``release_later``.

A 10 MB text's conversion holds a ``CodePiece`` per code and a ``Mark`` per shared or unknown
one.  When the next conversion replaced it, its last reference went on the GUI thread, and
freeing it there was one C call.  A thread that sleeps 1 ms at a time stands for the GUI thread:
its worst gap is the longest the GIL was held.

    nice -n 5 python bench/bench_release.py [--chars 10000000]
"""
from __future__ import annotations

import argparse
import gc
import os
import threading
import time
from typing import Callable

from wubitok.gui.panes.convert import CHINESE, convert
from wubitok.gui.support.release import release_later
from wubitok.paths import resources_dir


def _text(chars: int) -> str:
    samples = resources_dir() / "samples"
    text = "".join((samples / n).read_text(encoding="utf-8") for n in ("fortunes-zh.txt", "tang300.txt"))
    return (text * (chars // len(text) + 1))[:chars]


def worst_gap(action: Callable[[], None]) -> tuple[float, float]:
    """(the worst gap of a 1 ms ticker in ms, the time until every other thread ended in ms)."""
    stop: list[bool] = []
    gaps: list[float] = []

    def tick() -> None:
        last = time.perf_counter()
        while not stop:
            time.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.05)
    t0 = time.perf_counter()
    action()
    while threading.active_count() > 2:  # this thread, the ticker, and release's thread while it runs
        time.sleep(0.01)
    took = time.perf_counter() - t0
    stop.append(True)
    ticker.join()
    return 1e3 * max(gaps), 1e3 * took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chars", type=int, default=10_000_000)
    args = ap.parse_args()
    text = _text(args.chars)
    gc.disable()  # as in the app's jobs (gc_pauses): a collection is not what is measured
    for how in ("at once", "release_later"):
        result = convert(CHINESE, text, "full", " ")
        lists = [result.pieces, result.marks, result.code_starts, result.chinese_starts,
                 *(where for _, where in result.shared)]
        sizes = f"{len(result.pieces):,} pieces, {len(result.marks):,} marks"

        def free(lists=lists, how=how) -> None:
            nonlocal result
            if how == "release_later":
                release_later(*lists)
            del result
            lists.clear()

        gap, took = worst_gap(free)
        print(f"{how:14} {sizes}: the GIL held up to {gap:.0f} ms; all freed in {took:.0f} ms")
    print("load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
