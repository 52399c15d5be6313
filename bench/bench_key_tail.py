#!/usr/bin/env python3
"""The slowest keys inside one process: wubitok's engine (learning on, as the IBus engine types)
beside librime, on the same keys.

    nice -n 10 .venv/bin/python bench/bench_key_tail.py [--keys 20000] [--no-fix]

The keys: the characters of resources/samples/fortunes-zh.txt (Han only), each typed by its
shortest Wubi code and Space, cycled to ``--keys`` keys.  Each key's wall time is taken
around ``ImeEngine.process`` (wubitok, its user database in a fresh temporary folder) and
around ``RimeProcessKey`` + reading the context (librime 1.8 through its C API,
tests/ime/tables/rime_session.py, Debian's wubi86 schema with its user dictionary on, so that
both learn).  Reported: median, p99, p99.9 and the largest, in ms, and for wubitok how
many of the keys above 2 ms met a garbage collection (``gc.callbacks``) or a WAL checkpoint
(the database file written: in WAL mode only a checkpoint writes it); and the
CPU time of the typing thread per key (``time.thread_time``), which a busy machine's
preemption does not inflate.

``--no-fix`` types with what the engine had before issue #39's item 8 (the collector's
thresholds as Python sets them, objects loaded at start not frozen, SQLite's automatic
checkpoint every 1,000 pages), to show the difference in one run.
"""
from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "ime" / "tables"))

RIME_DATA = Path("/usr/share/rime-data")


def key_stream(n: int) -> list[str]:
    from wubitok.wubi.dictionary import default_dictionary

    d = default_dictionary()
    text = (ROOT / "resources" / "samples" / "fortunes-zh.txt").read_text(encoding="utf-8")
    keys: list[str] = []
    for ch in regex.findall(r"\p{Han}", text):
        code = d.shortest_code(ch)
        if code:
            keys += [*code, "space"]
        if len(keys) >= n:
            break
    return (keys * (n // max(len(keys), 1) + 1))[:n]


def figures(times: list[float]) -> str:
    s = sorted(times)

    def q(p: float) -> float:
        return s[min(len(s) - 1, int(p * len(s)))] * 1e3
    return (f"median {statistics.median(s) * 1e3:.3f}  p99 {q(0.99):.3f}  p99.9 {q(0.999):.3f}"
            f"  max {s[-1] * 1e3:.2f} ms")


def wubitok_times(keys: list[str], fix: bool) -> tuple[list[float], int, int, int]:
    folder = Path(tempfile.mkdtemp(prefix="wubitok-tail-"))
    os.environ["WUBITOK_DATA_DIR"] = str(folder)
    from wubitok.ime import ImeEngine, userdb

    if not fix:
        userdb.CHECKPOINT_WRITES = 0  # SQLite's own automatic checkpoint, in the typing thread
    engine = ImeEngine()
    engine.preload()
    if fix:
        gc.freeze()  # as the IBus engine process does once loaded (platform/ibus/loading.py)
    collections = 0

    def count(phase: str, info: dict) -> None:
        nonlocal collections
        if phase == "start":
            collections += 1
    gc.callbacks.append(count)
    db = folder / userdb.FILENAME  # in WAL mode only a checkpoint writes the database file itself
    times: list[float] = []
    cpu: list[float] = []
    slow = slow_gc = slow_checkpoint = 0
    for key in keys:
        before_gc, before_db = collections, db.stat().st_mtime_ns
        t, c = time.perf_counter(), time.thread_time()
        engine.process(key)
        dt = time.perf_counter() - t
        cpu.append(time.thread_time() - c)
        times.append(dt)
        if dt > 0.002:
            slow += 1
            slow_gc += collections != before_gc
            slow_checkpoint += db.stat().st_mtime_ns != before_db
    gc.callbacks.remove(count)
    engine.close()
    print(f"{'  its CPU time':24} {figures(cpu)}")
    return times, slow, slow_gc, slow_checkpoint


def rime_times(keys: list[str]) -> list[float] | None:
    try:
        from bench_typing import RIME_STAND_INS
        from rime_session import Rime
    except (ImportError, OSError) as exc:
        print(f"librime: skipped ({exc})")
        return None
    import subprocess

    folder = Path(tempfile.mkdtemp(prefix="rime-tail-"))
    for name, text in RIME_STAND_INS.items():
        if name != "wubi86.custom.yaml":  # its user dictionary stays on: it learns, as ours does
            (folder / name).write_text(text, encoding="utf-8")
    subprocess.run(["rime_deployer", "--build", str(folder), str(RIME_DATA), str(folder / "build")],
                   check=True, capture_output=True, timeout=600)
    rime = Rime(folder, RIME_DATA, prebuilt_dir=RIME_DATA / "build")
    if not rime.select_schema("wubi86"):
        print("librime: skipped (wubi86 did not load)")
        return None
    times = []
    for key in keys:
        name = "{space}" if key == "space" else key
        t = time.perf_counter()
        rime.keys(name)
        rime.candidates()
        rime.commit()
        times.append(time.perf_counter() - t)
    rime.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keys", type=int, default=20000)
    ap.add_argument("--no-fix", action="store_true", help="the engine as it was before (see the docstring)")
    args = ap.parse_args()
    keys = key_stream(args.keys)
    print(f"{len(keys)} keys, load {os.getloadavg()[0]:.1f}")
    times, slow, slow_gc, slow_checkpoint = wubitok_times(keys, not args.no_fix)
    label = "wubitok (before #39.8)" if args.no_fix else "wubitok"
    print(f"{label:24} {figures(times)}; keys over 2 ms: {slow} ({slow_gc} met a collection,"
          f" {slow_checkpoint} a WAL checkpoint)")
    rime = rime_times(keys)
    if rime is not None:
        print(f"{'librime 1.8 (wubi86)':24} {figures(rime)}")


if __name__ == "__main__":
    main()
