#!/usr/bin/env python3
"""The IBus engine through the real ibus-daemon, beside ibus-table's Wubi (the reference).

    nice -n 10 .venv/bin/python bench/bench_ibus.py [--commits 1000]

A private session bus and ibus-daemon (tests/platform/ibus_harness.py: nothing of the
machine's own IBus is touched) serve both engines; a client input context, as an
application's input module has one, sends key events with ``process_key_event``.

- key -> commit-text: from sending the Space that commits ``g`` (一, the same in both
  tables) until the commit-text signal has arrived; median and p99 (target p99 <= 10 ms);
- key -> pre-edit: the same for a letter that only updates the pre-edit;
- start: from selecting the engine in a context (the daemon starts its process) until
  the first key is handled;
- the engine process's resident memory after typing;
- ours only, to tell where a key's time goes: the adapter's own work per key (``WubiEngine``
  handling ``g`` then Space in this process, its signals sent to the daemon as in the engine
  process), wall time and CPU time of this thread.  The rest of a round trip is the daemon,
  two D-Bus hops and three processes waiting for a core.

ibus-table needs Debian's ``ibus-table-wubi`` (it is skipped, with a note, without it).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "platform"))

from ibus_harness import Client, GLib, IBus, PrivateIbus, connect, drain  # noqa: E402

OURS = "wubitok-wubi86"
REFERENCE = "table:wubi-jidian86"
SYSTEM_COMPONENTS = Path("/usr/share/ibus/component")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def wait_commit(client: Client, n: int) -> None:
    context = GLib.MainContext.default()
    while len(client.commits) < n:
        context.iteration(True)


def measure(bus, ibus: PrivateIbus, engine: str, commits: int) -> dict[str, float]:
    before = set(ibus.engine_pids())
    t0 = time.perf_counter()
    client = Client(bus, engine)
    while not client.press(IBus.KEY_g):  # the first key handled
        pass
    start = time.perf_counter() - t0
    client.press(IBus.KEY_space)
    (pid,) = set(ibus.engine_pids()) - before
    release = IBus.ModifierType.RELEASE_MASK
    to_commit, to_preedit = [], []
    for _ in range(commits):
        t = time.perf_counter()
        client.ic.process_key_event(IBus.KEY_g, 0, 0)
        drain()
        to_preedit.append(time.perf_counter() - t)
        client.ic.process_key_event(IBus.KEY_g, 0, release)
        n = len(client.commits) + 1
        t = time.perf_counter()
        client.ic.process_key_event(IBus.KEY_space, 0, 0)
        wait_commit(client, n)
        to_commit.append(time.perf_counter() - t)
        client.ic.process_key_event(IBus.KEY_space, 0, release)
    assert set(client.commits) == {"一"}, set(client.commits)
    client.destroy()
    return {
        "start_s": start,
        "commit_median_ms": statistics.median(to_commit) * 1e3,
        "commit_p99_ms": percentile(to_commit, 0.99) * 1e3,
        "preedit_median_ms": statistics.median(to_preedit) * 1e3,
        "preedit_p99_ms": percentile(to_preedit, 0.99) * 1e3,
        "rss_mb": rss_mb(pid),
    }


def engine_work(bus, commits: int) -> dict[str, float]:
    """The adapter's own time per key (g, Space), in this process, on the private daemon's bus."""
    from wubitok.ime import ImeEngine
    from wubitok.platform.ibus.engine import WubiEngine
    from wubitok.platform.ibus.settings import SavedOptions

    with tempfile.TemporaryDirectory() as tmp:
        ime = ImeEngine(learning=False)
        ime.preload()
        engine = WubiEngine(ime, SavedOptions(Path(tmp) / "settings.json"), engine_name=OURS,
                            object_path="/org/freedesktop/IBus/Engine/wubitok/bench", connection=bus.get_connection())
        release = IBus.ModifierType.RELEASE_MASK
        wall, cpu = [], []
        for _ in range(commits):
            for keyval in (IBus.KEY_g, IBus.KEY_space):
                w, c = time.perf_counter(), time.thread_time()
                engine.do_process_key_event(keyval, 0, 0)
                cpu.append(time.thread_time() - c)
                wall.append(time.perf_counter() - w)
                engine.do_process_key_event(keyval, 0, release)
        drain()
        engine.destroy()
    return {
        "key_wall_median_ms": statistics.median(wall) * 1e3,
        "key_wall_p99_ms": percentile(wall, 0.99) * 1e3,
        "key_cpu_median_ms": statistics.median(cpu) * 1e3,
        "key_cpu_p99_ms": percentile(cpu, 0.99) * 1e3,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=1000, help="characters committed per engine (default 1000)")
    args = parser.parse_args()
    reference = (SYSTEM_COMPONENTS / "table.xml").is_file()
    with tempfile.TemporaryDirectory(prefix="wubitok-bench-ibus-") as tmp:
        ibus = PrivateIbus(Path(tmp))
        ibus.write_component()
        # Our component folder, then the system's for ibus-table.
        ibus.start(component_path=f"{ibus.component_dir}:{SYSTEM_COMPONENTS}" if reference else None)
        try:
            bus = connect(ibus.address)
            rows = {OURS: measure(bus, ibus, OURS, args.commits)}
            if reference:
                rows[REFERENCE] = measure(bus, ibus, REFERENCE, args.commits)
            work = engine_work(bus, args.commits)
        finally:
            ibus.stop()
    cols = list(rows[OURS])
    print(f"{args.commits} commits per engine, one private ibus-daemon")
    print(f"{'engine':24}" + "".join(f"{c:>18}" for c in cols))
    for name, row in rows.items():
        print(f"{name:24}" + "".join(f"{row[c]:18.2f}" for c in cols))
    if reference:
        print(f"{'ratio (ours/ibus-table)':24}" + "".join(f"{rows[OURS][c] / rows[REFERENCE][c]:18.2f}"
                                                        for c in cols))
    else:
        print("(ibus-table not installed: apt install ibus-table-wubi for the reference)")
    print(f"\n{OURS} adapter's own work per key (g, Space; {2 * args.commits} keys, in this process):")
    print("  " + ", ".join(f"{k} {v:.3f}" for k, v in work.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
