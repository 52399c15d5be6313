#!/usr/bin/env python3
"""Startup time of the frozen app: median of 5 runs of
``dist/wubitok/wubitok gui --screenshot OUT.png --pane lookup`` (process start
to the first window fully rendered and saved, and exit), offscreen.

    python installer/measure_startup.py [--runs 5] [EXECUTABLE]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("executable", nargs="?", default=str(ROOT / "dist" / "wubitok" / "wubitok"))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            t = time.perf_counter()
            subprocess.run([args.executable, "gui", "--screenshot", f"{tmp}/{i}.png", "--pane", "lookup"],
                           check=True, capture_output=True)
            times.append(time.perf_counter() - t)
    print(f"runs: {', '.join(f'{s:.2f}' for s in times)} s; median {statistics.median(times):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
