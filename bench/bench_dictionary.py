"""Dictionary latency: open time and 10,000 random queries of each kind.

    python bench/bench_dictionary.py [--queries 10000] [--seed 1]

Reports median and p99 per query kind (char lookup, exact-code candidates,
prefix candidates with a page of 10) and the time to open the db in a fresh
process.  Not a test: figures go into docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import subprocess
import sys
import time

from wubitok.wubi.dictionary import WubiDictionary


def timed(fn, args_list):
    out = []
    for a in args_list:
        t = time.perf_counter_ns()
        fn(a)
        out.append((time.perf_counter_ns() - t) / 1e6)
    return out


def summary(name, ms):
    ms = sorted(ms)
    p99 = ms[int(len(ms) * 0.99) - 1]
    return f"| {name} | {len(ms):,} | {statistics.median(ms):.3f} | {p99:.3f} | {ms[-1]:.3f} |"


def open_times_ms(runs: int = 7) -> tuple[float, float]:
    """Median (open + first query, import + open + first query) in fresh processes."""
    code = ("import time; t0=time.perf_counter(); from wubitok.wubi.dictionary import WubiDictionary;"
            "t1=time.perf_counter(); d=WubiDictionary(); d.full_code('你'); t2=time.perf_counter();"
            "print((t2-t1)*1000, (t2-t0)*1000)")
    runs_out = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
                for _ in range(runs)]
    return (statistics.median(float(a) for a, _ in runs_out), statistics.median(float(b) for _, b in runs_out))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    d = WubiDictionary()
    conn = sqlite3.connect(d.path)
    chars = [r[0] for r in conn.execute("SELECT char FROM chars")]
    codes = [r[0] for r in conn.execute("SELECT DISTINCT code FROM entries")]
    n = args.queries
    char_q = [rng.choice(chars) for _ in range(n)]
    code_q = [rng.choice(codes) for _ in range(n)]
    prefix_q = [c[: rng.randint(1, max(1, len(c) - 1))] for c in (rng.choice(codes) for _ in range(n))]
    wild_q = ["".join("z" if rng.random() < 0.3 else k for k in c)[:4] for c in (rng.choice(codes) for _ in range(n))]
    rows = [
        summary("char lookup (full code + all codes)", timed(lambda c: (d.full_code(c), d.codes(c)), char_q)),
        summary("char lookup, everything (CharInfo)", timed(d.lookup, char_q)),
        summary("exact-code candidates", timed(lambda c: d.candidates(c, completions=False), code_q)),
        summary("prefix candidates (page of 10)", timed(lambda c: d.candidates(c, limit=10), prefix_q)),
        summary("wildcard candidates (page of 10)", timed(lambda c: d.candidates(c, limit=10), wild_q)),
    ]
    open_ms, with_import_ms = open_times_ms()
    print(
        f"open + first query (fresh process): median {open_ms:.1f} ms; with Python imports: {with_import_ms:.1f} ms\n"
    )
    print("| query | n | median ms | p99 ms | max ms |\n|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
