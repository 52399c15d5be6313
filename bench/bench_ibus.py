#!/usr/bin/env python3
"""The IBus engine through the real ibus-daemon, beside ibus-table's Wubi (the reference).

    nice -n 10 .venv/bin/python bench/bench_ibus.py [--commits 1000] [--trace]

A private session bus and ibus-daemon (tests/platform/ibus_harness.py: nothing of the
machine's own IBus is touched) serve both engines; a client input context, as an
application's input module has one, sends key events with ``process_key_event``.

- key -> commit-text: from sending the Space that commits ``g`` (一, the same in both
  tables) until the client runs its commit-text handler; median and p99 (target p99 <= 10 ms);
- key -> pre-edit: the same for a letter that only updates the pre-edit (``g``);
- both the way applications send keys by default, ``async`` (GTK 3 and Qt call
  ProcessKeyEvent asynchronously and take the signals as they arrive; GTK 4 waits for the
  reply in a nested main loop, which runs them too), and ``sync``, the blocking call of
  IBUS_ENABLE_SYNC_MODE=1, after which the queued signals run: that adds the engine's
  other signals and its reply to each figure;
- ours: the candidate index is built first (once per dictionary, as at the first start
  after an install), its time printed;
- start: from selecting the engine in a context (the daemon starts its process) until
  the first key is handled (its pre-edit shown: ours answers keys at once and queues them
  while it loads), and until the Space after it has committed (first commit);
- ``--fresh-index``: ours starts without its index (the first start after an install or a
  cleared cache): the index is built aside while the first keys are typed from the dictionary;
- the engine process's resident memory after typing;
- ours only, to tell where a key's time goes: the adapter's own work per key (``WubiEngine``
  handling ``g`` then Space in this process, its signals sent to the daemon as in the engine
  process), wall time and CPU time of this thread.  The rest of a round trip is the daemon,
  two D-Bus hops and three processes waiting for a core.
- ``--first-keys N``: the keys lost at a switch, N runs of each: a context on the plain
  keyboard (``xkb:us::eng``) is switched to the engine as the panel does (``SetEngine``,
  which returns at once) and a key is typed every 20 ms from that moment; the keys the
  application gets before the first one the engine takes are lost (typed as Latin
  letters), and the time from the switch to that first key is when typing starts.  Ours
  started at the switch (no process running: the daemon starts it), ours started at login
  (``wubitok ibus engine --at-login`` running, loaded, beforehand) and ibus-table (started
  at the switch).  Median and range over the runs.
- ``--trace``: ours only, the engine process run by bench/ibus_trace_engine.py, which notes
  when each key enters and leaves the engine, each signal it sends, its database
  transactions and collections: each key's time cut at those points (median, the slowest
  1% that make the p99, the slowest).

ibus-table needs Debian's ``ibus-table-wubi``: where ibus-table is installed and the table is
not, the package is fetched (``apt-get download``, once, into bench/data) and its table given to
the private daemon's ibus-table alone (a "bring your own" table in the private HOME); without
ibus-table it is skipped, with a note.
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "platform"))

from ibus_harness import Client, GLib, IBus, PrivateIbus, connect, drain, wait_for  # noqa: E402

OURS = "wubitok-wubi86"
REFERENCE = "table:wubi-jidian86"
MODES = ("async", "sync")
SYSTEM_COMPONENTS = Path("/usr/share/ibus/component")
IBUS_TABLE = Path("/usr/share/ibus-table")
TABLE_DB = "wubi-jidian86.db"


def give_reference_table(ibus: PrivateIbus) -> bool:
    """Whether the private daemon has ibus-table's Wubi: the system's, else the fetched package's
    table as ibus-table's "bring your own" table in the private HOME (listed from
    $XDG_DATA_HOME/ibus-table/byo-tables, loaded from ~/.ibus/byo-tables).  False without ibus-table."""
    if not (SYSTEM_COMPONENTS / "table.xml").is_file():
        return False
    if (IBUS_TABLE / "tables" / TABLE_DB).is_file():
        return True
    sys.path.insert(0, str(ROOT / "bench"))
    from corpus import extract_package  # noqa: PLC0415 - only when the system lacks the table

    env = ibus.env()
    (table,) = extract_package("ibus-table-wubi", ibus.root / "ibus-table-wubi").rglob(TABLE_DB)
    home = Path(env["HOME"])
    for folder in (Path(env["XDG_DATA_HOME"]) / "ibus-table" / "byo-tables", home / ".ibus" / "byo-tables"):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / TABLE_DB).symlink_to(table)
    return True


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def usage(pid: int) -> tuple[float, int, int]:
    """A process's CPU time (ms, all threads), and its threads' voluntary and involuntary
    (preempted) context switches."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    utime, stime = stat[stat.rindex(")") + 2:].split()[11:13]
    cpu = (int(utime) + int(stime)) * 1000 / os.sysconf("SC_CLK_TCK")
    switches = [0, 0]
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            lines = (task / "status").read_text().splitlines()
        except OSError:
            continue  # a thread that ended
        for line in lines:
            if line.startswith("voluntary_ctxt_switches:"):
                switches[0] += int(line.split()[1])
            elif line.startswith("nonvoluntary_ctxt_switches:"):
                switches[1] += int(line.split()[1])
    return cpu, switches[0], switches[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Stamps:
    """When each signal ran in the client (CLOCK_MONOTONIC ns, the engine trace's clock)."""

    SIGNALS = ("commit-text", "update-preedit-text", "hide-preedit-text", "update-lookup-table",
               "hide-lookup-table", "update-auxiliary-text", "hide-auxiliary-text", "update-property",
               "register-properties")

    def __init__(self, client: Client):
        self.received: list[tuple[int, str]] = []
        for name in self.SIGNALS:
            client.ic.connect(name, lambda *_args, name=name: self.received.append((time.monotonic_ns(), name)))


class Press(NamedTuple):
    kind: str  # commit, preedit
    sent: int
    returned: int  # the reply to ProcessKeyEvent was in
    done: int  # the awaited signal's handler ran


def press(client: Client, stamps: Stamps, keyval: int, awaited: str, sync: bool) -> tuple[int, int, int]:
    """Press ``keyval``; (sent, reply in, ``awaited`` signal handled), after both have happened."""
    now = time.monotonic_ns
    context = GLib.MainContext.default()
    mark = len(stamps.received)

    def handled() -> int | None:
        return next((t for t, what in stamps.received[mark:] if what == awaited), None)

    sent = now()
    if sync:
        client.ic.process_key_event(keyval, 0, 0)
        returned = now()
        drain()
    else:
        reply: list[int] = []

        def replied(ic, result, _data) -> None:
            reply.append(now())
            ic.process_key_event_async_finish(result)

        client.ic.process_key_event_async(keyval, 0, 0, -1, None, replied, None)
        while not reply or handled() is None:
            context.iteration(True)
        returned = reply[0]
    done = handled()
    assert done is not None, f"no {awaited} after the key"
    client.ic.process_key_event(keyval, 0, IBus.ModifierType.RELEASE_MASK)
    return sent, returned, done


def type_chars(client: Client, stamps: Stamps, commits: int, sync: bool) -> list[Press]:
    presses = []
    for _ in range(commits):
        presses.append(Press("preedit", *press(client, stamps, IBus.KEY_g, "update-preedit-text", sync)))
        presses.append(Press("commit", *press(client, stamps, IBus.KEY_space, "commit-text", sync)))
    return presses


def figures(presses: list[Press]) -> dict[str, float]:
    row = {}
    for kind in ("commit", "preedit"):
        times = [(p.done - p.sent) / 1e6 for p in presses if p.kind == kind]
        row[f"{kind}_median_ms"] = statistics.median(times)
        row[f"{kind}_p99_ms"] = percentile(times, 0.99)
    return row


def measure(bus, ibus: PrivateIbus, engine: str, commits: int, pinyin: bool = False) -> dict:
    """Start, then ``commits`` characters typed async then as many sync, then memory; with
    ``pinyin``, a ``z`` pinyin lookup (zni + Space: 你) right after the first commit."""
    before = set(ibus.engine_pids())
    t0 = time.perf_counter()
    client = Client(bus, engine, loaded=False)
    while not client.press(IBus.KEY_g):  # taken by the engine (ours may queue it while it loads)
        pass
    # Handled: its pre-edit or candidates shown (ibus-table shows the candidate as its pre-edit).
    wait_for(lambda: client.preedit or client.candidates, 120, "the first key's pre-edit")
    start = time.perf_counter() - t0
    client.press(IBus.KEY_space)
    wait_for(lambda: client.commits, 120, "the first commit")
    first_commit = time.perf_counter() - t0
    first_pinyin, index_then = None, None
    if pinyin:
        for keyval in (IBus.KEY_z, IBus.KEY_n, IBus.KEY_i, IBus.KEY_space):
            client.press(keyval)
        wait_for(lambda: len(client.commits) >= 2, 120, "the pinyin lookup's commit")
        first_pinyin = time.perf_counter() - t0
        index_then = bool(list((ibus.data_dir / "cache").glob("ime-index-*.sqlite")))
        assert client.commits[1] == "你", client.commits
        client.commits.clear()
        client.commits.append("一")
    (pid,) = set(ibus.engine_pids()) - before
    stamps = Stamps(client)
    processes = {"client": os.getpid(), "daemon": ibus.daemon.pid, "engine": pid}
    presses, cost = {}, {}
    for mode in MODES:
        before_use = {name: usage(p) for name, p in processes.items()}
        presses[mode] = type_chars(client, stamps, commits, sync=mode == "sync")
        keys = 2 * commits
        for name, p in processes.items():
            used = [(b - a) / keys for a, b in zip(before_use[name], usage(p))]
            cost[f"{mode} {name}"] = used
    assert set(client.commits) == {"一"}, set(client.commits)
    client.destroy()
    return {"start_s": start, "first_commit_s": first_commit, "rss_mb": rss_mb(pid), "pid": pid,
            "first_pinyin_s": first_pinyin, "index_then": index_then,
            "presses": presses, "received": stamps.received,
            "cost": cost}


def engine_work(bus, commits: int) -> dict[str, float]:
    """The adapter's own time per key (g, Space), in this process, on the private daemon's bus."""
    from wubitok.ime import ImeOptions, save_options
    from wubitok.platform.ibus.engine import WubiEngine
    from wubitok.platform.ibus.loading import Loading
    from wubitok.platform.ibus.settings import SavedOptions

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["WUBITOK_DATA_DIR"] = tmp  # the user database the engine opens: not the user's
        saved = SavedOptions(Path(tmp) / "settings.json")
        save_options(ImeOptions(learning=False), saved.path)
        loading = Loading(saved, lambda callback: callback())
        loading.load()
        engine = WubiEngine(loading, saved, engine_name=OURS,
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


def traced_component(ibus: PrivateIbus, trace_file: Path) -> None:
    """Our component with the exec line of bench/ibus_trace_engine.py: the same engine, timestamped."""
    xml = (ibus.component_dir / "wubitok.xml").read_text(encoding="utf-8")
    exec_line = escape(shlex.join([sys.executable, str(ROOT / "bench" / "ibus_trace_engine.py"), str(trace_file)]))
    xml = re.sub(r"<exec>.*</exec>", lambda _m: f"<exec>{exec_line}</exec>", xml)
    (ibus.component_dir / "wubitok.xml").write_text(xml, encoding="utf-8")


def read_trace(pid: int, trace_file: Path) -> list[tuple[int, str, object]]:
    os.kill(pid, signal.SIGUSR1)
    wait_for(trace_file.exists, 30, "the engine's trace")
    return [tuple(json.loads(line)) for line in trace_file.read_text(encoding="utf-8").splitlines()]


def split(presses: list[Press], received: list[tuple[int, str]], trace: list) -> dict[str, list[dict[str, float]]]:
    """Each key press's time (ms) cut where the engine's trace and the client saw it pass."""
    rows: dict[str, list[dict[str, float]]] = {"commit": [], "preedit": []}
    events = sorted(trace)
    times = [e[0] for e in events]
    got_times = sorted(t for t, _ in received)
    # A key's signals run until the next key is sent (sync: some after the awaited one).
    ends = [p.sent for p in presses[1:]] + [got_times[-1] + 1]
    for (kind, start, returned, done), end in zip(presses, ends):
        window = events[bisect.bisect_left(times, start):bisect.bisect_right(times, max(done, returned))]
        marks = {what: (t, cpu) for t, what, cpu in window if what in ("key-in", "key-out")}
        sent = [t for t, what, _ in window if not what.startswith(("key-", "db-", "gc-"))]
        (t_in, cpu_in), (t_out, cpu_out) = marks["key-in"], marks["key-out"]
        spans = {"db": 0, "gc": 0}
        opened: dict[str, int] = {}
        for t, what, _ in window:
            base, _, phase = what.rpartition("-")
            if base not in spans:
                continue
            if phase in ("in", "start"):
                opened[base] = t
            elif base in opened:
                spans[base] += t - opened.pop(base)
        first = sent[0] if sent else t_out
        ms = 1e-6
        rows[kind].append({
            "total": (done - start) * ms,
            "to_engine": (t_in - start) * ms,
            "to_1st_signal": (first - t_in) * ms,
            "1st_signal_on": (done - first) * ms,
            "in_engine": (t_out - t_in) * ms,
            "engine_cpu": (cpu_out - cpu_in) * ms,
            "db": spans["db"] * ms,
            "gc": spans["gc"] * ms,
            "reply_back": (returned - t_out) * ms,
            "signals_sent": len(sent),
            "signals_got": bisect.bisect_left(got_times, end) - bisect.bisect_left(got_times, start),
        })
    return rows


def print_split(mode: str, rows: dict[str, list[dict[str, float]]]) -> None:
    print(f"\n{mode}: where a key's time goes (ms)")
    for kind, samples in rows.items():
        cols = list(samples[0])
        ordered = sorted(samples, key=lambda r: r["total"])
        tail = ordered[-max(1, len(ordered) // 100):]  # the slowest 1%: what the p99 is made of
        print(f"  {kind:8}{'':12}" + "".join(f"{c:>14}" for c in cols))
        for label, group in (("median", samples), ("slowest 1%", tail), ("slowest", ordered[-1:])):
            middle = statistics.median if label == "median" else statistics.mean
            print(f"  {'':8}{label:12}" + "".join(f"{middle(r[c] for r in group):14.2f}" for c in cols))


def print_collections(trace: list) -> None:
    """The engine's garbage collections from its first key on (keys and between them)."""
    starts: dict[int, int] = {}
    spans: dict[int, list[float]] = {0: [], 1: [], 2: []}
    events = sorted(trace)
    first = next(i for i, (_, what, _) in enumerate(events) if what == "key-in")
    for t, what, generation in events[first:]:
        if what == "gc-start":
            starts[generation] = t
        elif what == "gc-stop" and generation in starts:
            spans[generation].append((t - starts.pop(generation)) / 1e6)
    keys = sum(1 for _, what, _ in trace if what == "key-in")
    print(f"engine's collections over {keys} key events (presses and releases): "
          + "; ".join(f"gen{g} {len(v)} (longest {max(v, default=0):.2f} ms)" for g, v in spans.items()))


SPLIT_LEGEND = """
to_engine: client -> daemon -> engine's do_process_key_event; to_1st_signal: from there to the
engine's first signal (commit-text or the pre-edit); 1st_signal_on: from there to the client's
handler (sync: after the reply); in_engine, engine_cpu: the engine's key handler, wall and CPU
time; db, gc: user-database transactions and collections inside it; reply_back: the handler's
return -> daemon -> client's reply; signals: sent by the engine / run by the client for the key."""


KEY_INTERVAL = 0.020  # seconds between keys after a switch: a quick typist (50 keys a second is 3000/min)
PLAIN = "xkb:us::eng"  # the keyboard a switch starts from


def first_keys(bus, ibus: PrivateIbus, engine: str, at_login: bool, tmp: Path) -> tuple[int, float, float | None]:
    """One switch to ``engine``: (keys lost, ms from the switch to the first key taken, engine MB or None)."""
    from wubitok.platform.ibus.component import BUS_NAME

    login = None
    if at_login:
        env = {**ibus.env(), "IBUS_ADDRESS": ibus.address}
        with open(tmp / "at-login.log", "ab") as log:
            login = subprocess.Popen([sys.executable, "-m", "wubitok", "ibus", "engine", "--at-login"], env=env,
                                     stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        wait_for(lambda: bus.name_has_owner(BUS_NAME), 120, "the engine started at login to take its name")
        time.sleep(2.0)  # loaded long before the typist switches (the user database, the index: ms)
    client = Client(bus, engine=None)
    client.select(PLAIN)
    lost, taken_after = 0, None
    t0 = time.perf_counter()
    client.ic.set_engine(engine)  # as the panel does: returns at once, the daemon creates the engine
    i = 0
    while taken_after is None and i < 2000:
        wait = t0 + i * KEY_INTERVAL - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        sent = time.perf_counter()
        if client.press(IBus.KEY_g):
            taken_after = (sent - t0) * 1e3
        else:
            lost += 1
        i += 1
    memory = rss_mb(login.pid) if login is not None else None
    client.select(PLAIN)  # the daemon's global engine back to the keyboard before the next run
    client.destroy()
    if login is not None:
        login.terminate()
        login.wait(30)
    for pid in ibus.engine_pids():  # the next switch starts its process afresh
        if Path(f"/proc/{pid}/cmdline").read_bytes().find(b"ibus-engine-simple") < 0:
            os.kill(pid, signal.SIGKILL)
    wait_for(lambda: not bus.name_has_owner(BUS_NAME), 30, "our engine to be gone")
    time.sleep(0.5)
    assert taken_after is not None, f"{engine}: no key taken after {i} keys"
    return lost, taken_after, memory


def run_first_keys(runs: int, reference: bool) -> int:
    setups = [("ours, started at the switch", OURS, False), ("ours, started at login", OURS, True)]
    if reference:
        setups.append(("ibus-table, started at the switch", REFERENCE, False))
    results: dict[str, list[tuple[int, float, float | None]]] = {name: [] for name, _e, _l in setups}
    with tempfile.TemporaryDirectory(prefix="wubitok-bench-ibus-") as tmp:
        ibus = PrivateIbus(Path(tmp))
        if reference and not give_reference_table(ibus):
            setups = setups[:2]
            results.pop("ibus-table, started at the switch", None)
        ibus.write_component()
        subprocess.run([sys.executable, "-c", "from wubitok.ime import ImeEngine; ImeEngine(learning=False).preload()"],
                       env=ibus.env(), check=True)
        ibus.start(component_path=f"{ibus.component_dir}:{SYSTEM_COMPONENTS}")
        try:
            bus = connect(ibus.address)
            for _ in range(runs):  # interleaved, so that the machine's load falls on all alike
                for name, engine, at_login in setups:
                    results[name].append(first_keys(bus, ibus, engine, at_login, Path(tmp)))
        finally:
            ibus.stop()
    print(f"{runs} switches each from {PLAIN}, a key every {KEY_INTERVAL * 1e3:.0f} ms from the switch;"
          f" load average {os.getloadavg()[0]:.2f}")
    print(f"{'':36}{'keys lost: median (range)':>28}{'first key taken, ms: median (range)':>40}")
    for name, rows in results.items():
        lost = [r[0] for r in rows]
        after = [r[1] for r in rows]
        print(f"{name:36}{f'{statistics.median(lost):g} ({min(lost)}-{max(lost)})':>28}"
              f"{f'{statistics.median(after):.0f} ({min(after):.0f}-{max(after):.0f})':>40}")
    memory = [r[2] for r in results["ours, started at login"] if r[2] is not None]
    print(f"the engine started at login, resident once loaded: {statistics.median(memory):.1f} MB")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=1000,
                        help="characters committed per engine and client mode (default 1000)")
    parser.add_argument("--fresh-index", action="store_true",
                        help="ours starts without its candidate index (the first start after an install):"
                             " it is built aside while the first keys are typed from the dictionary")
    parser.add_argument("--first-keys", type=int, metavar="N", default=0,
                        help="the keys lost at a switch, N runs each: ours started at the switch, ours started at"
                             " login, ibus-table")
    parser.add_argument("--trace", action="store_true",
                        help="ours only, run by bench/ibus_trace_engine.py: where each key's time goes")
    args = parser.parse_args()
    reference = (SYSTEM_COMPONENTS / "table.xml").is_file() and not args.trace
    if args.first_keys:
        return run_first_keys(args.first_keys, reference)
    with tempfile.TemporaryDirectory(prefix="wubitok-bench-ibus-") as tmp:
        ibus = PrivateIbus(Path(tmp))
        reference = reference and give_reference_table(ibus)
        ibus.write_component()
        # The candidate index is built once per dictionary (the first start after an install
        # or a dictionary update): built here first, so that the start measured is every other.
        t0 = time.perf_counter()
        if not args.fresh_index:
            subprocess.run([sys.executable, "-c",
                            "from wubitok.ime import ImeEngine; ImeEngine(learning=False).preload()"],
                           env=ibus.env(), check=True)
        index_build = time.perf_counter() - t0
        trace_file = Path(tmp) / "engine-trace.jsonl"
        if args.trace:
            traced_component(ibus, trace_file)
        # Our component folder, then the system's for ibus-table.
        ibus.start(component_path=f"{ibus.component_dir}:{SYSTEM_COMPONENTS}" if reference else str(ibus.component_dir))
        try:
            bus = connect(ibus.address)
            runs = {OURS: measure(bus, ibus, OURS, args.commits, pinyin=args.fresh_index)}
            trace = read_trace(runs[OURS]["pid"], trace_file) if args.trace else []
            if reference:
                runs[REFERENCE] = measure(bus, ibus, REFERENCE, args.commits)
            work = engine_work(bus, args.commits) if not args.trace else {}
        finally:
            ibus.stop()
    print(f"{args.commits} commits per engine and client mode, one private ibus-daemon"
          + (" (ours traced)" if args.trace else ""))
    rows = {f"{name} {mode}": figures(run["presses"][mode]) for name, run in runs.items() for mode in MODES}
    cols = list(rows[f"{OURS} {MODES[0]}"])
    print(f"{'engine, client mode':34}" + "".join(f"{c:>18}" for c in cols))
    for name, row in rows.items():
        print(f"{name:34}" + "".join(f"{row[c]:18.2f}" for c in cols))
    if args.fresh_index:
        print(f"\n{OURS} started without its candidate index (built aside while it typed); a pinyin lookup"
              f" (zni + Space) right after the first commit committed 你 {runs[OURS]['first_pinyin_s']:.2f} s"
              f" from selection, the index " + ("built by then" if runs[OURS]["index_then"] else "still building"))
    else:
        print(f"\n{OURS}'s candidate index built beforehand (once per dictionary) in {index_build:.1f} s")
    print(f"{'engine':34}{'start_s':>18}{'first_commit_s':>18}{'rss_mb':>18}")
    for name, run in runs.items():
        print(f"{name:34}{run['start_s']:18.2f}{run['first_commit_s']:18.2f}{run['rss_mb']:18.1f}")
    print("\nper key typed (press and release), in each process: CPU ms, context switches waiting (voluntary)"
          " and preempted (involuntary)")
    for name, run in runs.items():
        print(f"  {name}: " + "; ".join(f"{who} {c:.2f} ms {v:.1f}/{i:.2f}" for who, (c, v, i) in run["cost"].items()))
    if not reference and not args.trace:
        print("(ibus-table not installed: apt install ibus-table-wubi for the reference)")
    if args.trace:
        for mode in MODES:
            print_split(mode, split(runs[OURS]["presses"][mode], runs[OURS]["received"], trace))
        print(SPLIT_LEGEND)
        print_collections(trace)
    else:
        print(f"\n{OURS} adapter's own work per key (g, Space; {2 * args.commits} keys, in this process):")
        print("  " + ", ".join(f"{k} {v:.3f}" for k, v in work.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
