#!/usr/bin/env python3
"""How soon each front end of the typing engine types, its candidate index already built.

    nice -n 10 .venv/bin/python bench/bench_ime_start.py [--runs 5]

- ``wubitok type 'wqiyvb{space}'``: a whole run of the command (a fresh Python: start,
  imports, settings, the index opened, the keys typed, exit), wall and CPU time;
- the Type Wubi pane: in a fresh Python with Qt loaded, from constructing the pane to
  ``wqiyvb`` Space typed (shown, its index opened in the background 100 ms after the show).

The index is built first (once per dictionary hash, in a temporary data folder) and not timed
here; bench/bench_ibus.py prints its build time.  Medians of ``--runs`` runs.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

PAD = r"""
import time
from PySide6.QtWidgets import QApplication
app = QApplication([])
from wubitok.gui.panes.ime_pad import ImePadPane
t0, c0 = time.perf_counter(), time.process_time()
pane = ImePadPane()
pane.show()
while not pane.is_ready():
    app.processEvents()
    time.sleep(0.001)
for key in ("w", "q", "i", "y", "v", "b", "space"):
    pane.editor.feed_key(key)
assert pane.editor.toPlainText() == "你好", pane.editor.toPlainText()
print(time.perf_counter() - t0, time.process_time() - c0)
"""


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wubitok-bench-start-") as tmp:
        env = dict(os.environ, WUBITOK_DATA_DIR=tmp, QT_QPA_PLATFORM="offscreen")
        subprocess.run([sys.executable, "-c", "from wubitok.ime import ImeEngine; ImeEngine(learning=False).preload()"],
                       env=env, check=True)
        wall, cpu = [], []
        for _ in range(args.runs):
            c0, t0 = children_cpu(), time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "wubitok", "type", "wqiyvb{space}"], env=env, check=True,
                                 capture_output=True, text=True).stdout
            wall.append(time.perf_counter() - t0)
            cpu.append(children_cpu() - c0)
            assert out == "你好\n", out
        print(f"wubitok type 'wqiyvb{{space}}' (whole run): {statistics.median(wall):.3f} s wall, "
              f"{statistics.median(cpu):.3f} s CPU (median of {args.runs})")
        pad = [subprocess.run([sys.executable, "-c", PAD], env=env, check=True, capture_output=True,
                              text=True).stdout.split() for _ in range(args.runs)]
        print(f"Type Wubi pane, constructed -> shown -> index open -> 你好 typed: "
              f"{statistics.median(float(w) for w, _ in pad):.3f} s wall, "
              f"{statistics.median(float(c) for _, c in pad):.3f} s CPU of its process (median of {args.runs})")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
