"""Why the GUI thread missed its turns: bench_gui_stalls.py with a probe.

A 5 ms timer on the GUI thread reads, at every tick, each thread's ``/proc/self/task/*/schedstat``
(CPU time, time waiting for a CPU; Linux).  A gap between ticks longer than ``PROBE_THRESH``
seconds (0.03) is written with what the GUI thread did in it -- ``cpu`` (busy), ``rq`` (runnable,
waiting for a CPU: the machine's load), ``asleep`` (the rest: waiting for the GIL, or idle) --
and which other threads of the app ran in it (their CPU and run-queue wait, by Python thread name:
``Thread-N`` next to a ``QueueFeederThread`` is a ProcessPoolExecutor's result thread, which
unpickles results; ``Dummy-N`` a Qt pool thread running a Job).  ``PROBE_WRAP`` names functions
(``module:name`` or ``module:Class.method``, comma-separated) whose begin and end are written
from the thread that runs them.  A gap in which another thread held the GIL shows as the GUI
thread asleep while that thread ran (a result thread unpickling: one C call, the GUI asleep for
as long as it runs).

The probe disturbs what it measures while a thread of the app runs Python without pause (Convert's
conversion): each read of /proc lets go of the GIL, and taking it back can wait the switch interval
(5 ms), so its ticks turn into gaps of their own (the convoy effect).  Count gaps with
bench_gui_stalls.py alone; read a long single gap here.  For a library call, a thread running it
beside a loop of ``time.sleep(0.005)`` (no other reads) times its stretches holding the GIL.

    PROBE_OUT=probe.log PROBE_WRAP=wubitok.gui.panes.convert:convert \\
    QT_QPA_PLATFORM=offscreen nice -n 10 python bench/probe_gui_turns.py --only convert_paste_10m
"""
from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from pathlib import Path

THRESH = float(os.environ.get("PROBE_THRESH", "0.03"))

if __name__ == "__main__":  # not in the spawned workers, which import this file as __mp_main__
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_gui_stalls as bench
    from PySide6.QtCore import Qt, QTimer

    out = os.open(os.environ.get("PROBE_OUT", "probe.log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    t0 = time.perf_counter()
    gui = threading.get_native_id()
    names: dict[int, str] = {}

    def log(message: str) -> None:
        thread = f"{threading.current_thread().name}/{threading.get_native_id()}"
        os.write(out, f"[{time.perf_counter() - t0:8.3f} {thread}] {message}\n".encode())

    def schedstat() -> dict[int, tuple[int, int]]:
        stats = {}
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/schedstat") as f:
                    cpu, wait, _ = f.read().split()
            except (OSError, ValueError):
                continue
            stats[int(tid)] = (int(cpu), int(wait))
        return stats

    def name(tid: int) -> str:
        if tid not in names:
            names.update((t.native_id, t.name) for t in threading.enumerate() if t.native_id is not None)
        return names.get(tid, str(tid))

    state: dict = {"last": None, "stats": {}}

    def tick() -> None:
        now, stats = time.perf_counter(), schedstat()
        if state["last"] is not None and now - state["last"] > THRESH:
            gap, before = 1000 * (now - state["last"]), state["stats"]
            (cpu, wait), (cpu0, wait0) = stats.get(gui, (0, 0)), before.get(gui, (0, 0))
            busy, queued = (cpu - cpu0) / 1e6, (wait - wait0) / 1e6
            others = [f"{name(tid)}:{tid} cpu {(c - before[tid][0]) / 1e6:.0f} rq {(w - before[tid][1]) / 1e6:.0f}"
                      for tid, (c, w) in stats.items()
                      if tid != gui and tid in before and (c - before[tid][0]) / 1e6 > 3]
            log(f"GAP {gap:.0f} ms: GUI cpu {busy:.0f} rq {queued:.0f} asleep {gap - busy - queued:.0f} | "
                + "; ".join(others))
        state["last"], state["stats"] = time.perf_counter(), schedstat()

    timer = QTimer(interval=5, timerType=Qt.TimerType.PreciseTimer)
    timer.timeout.connect(tick)
    meter_start, meter_stop = bench.StallMeter.start, bench.StallMeter.stop

    def start(self) -> None:
        log("operation starts")
        state["last"] = None
        timer.start()
        meter_start(self)

    def stop(self):
        timer.stop()
        log("operation ends")
        return meter_stop(self)

    bench.StallMeter.start, bench.StallMeter.stop = start, stop  # type: ignore[method-assign]

    def logged(fn, spec: str):
        def wrapped(*args, **kwargs):
            log(f"{spec} begins")
            try:
                return fn(*args, **kwargs)
            finally:
                log(f"{spec} ends")
        return wrapped

    for spec in filter(None, os.environ.get("PROBE_WRAP", "").split(",")):
        module, dotted = spec.rsplit(":", 1)
        owner = importlib.import_module(module)
        *path, attr = dotted.split(".")
        for part in path:
            owner = getattr(owner, part)

        setattr(owner, attr, logged(getattr(owner, attr), spec))
    sys.argv = [str(Path(bench.__file__)), *sys.argv[1:]]
    sys.exit(bench.main())
