"""Corpus scale: encode throughput on 1 and 2 workers and on Dask, beside HF ``encode_batch``.

    nice -n 10 python bench/bench_scale.py [--mb 4] [--runs 1]

The text is manpages-zh's training file (``bench/corpus.py``), cut to
``--mb`` MB; a document is a line.  Every measurement runs in a fresh
process:

* ``ours, workers N`` — ``Tokenizer.encode_files(..., fmt="bin")`` with N
  processes: wall time from the call to the renamed output (process start-up
  included), so MB/s is what a user sees;
* ``ours, local:2`` — the same on a Dask ``LocalCluster`` of 2 worker
  processes, cluster start-up included;
* ``HF encode_batch`` — the byte-level BPE model exported to
  ``tokenizer.json`` (the same vocabulary and merges: the ids are equal),
  ``Tokenizer.encode_batch`` on batches of 1,000 lines, with one Rayon
  thread (per core) and with all cores.

Reported: MB/s (wall), the speed-up over one worker, and MB per CPU second
of all processes (the per-core figure; it is what a loaded machine does not
distort).  Targets (issue
#15): 2 workers >= 1.7x one worker on 2 cores; per core at least HF's
byte-level BPE.  On a shared machine wall times are noisy; the runs are
interleaved so that load hits them alike.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import corpus_paths  # noqa: E402

MODELS = ROOT / "resources" / "models"


def cut_corpus(source: Path, megabytes: float) -> Path:
    out = source.parent / f"scale-{megabytes:g}mb.txt"
    if not out.exists():
        data = source.read_bytes()
        limit = int(megabytes * 1_000_000)
        while len(data) < limit:
            data += data
        data = data[:limit]
        out.write_bytes(data[: data.rindex(b"\n") + 1])
    return out


def _cpu_s() -> float:
    # This process and its finished children (pool workers, a LocalCluster's processes).
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def child(kind: str, model: str, corpus: str, how: str) -> dict:
    size = Path(corpus).stat().st_size
    if kind == "hf":
        from tokenizers import Tokenizer

        from wubitok.engines.base import load_tokenizer
        from wubitok.exports.hf_json import bpe_tokenizer_json

        tok = Tokenizer.from_str(bpe_tokenizer_json(load_tokenizer(model)))
        lines = Path(corpus).read_text(encoding="utf-8").split("\n")[:-1]
        t0, c0 = time.perf_counter(), _cpu_s()
        n = 0
        for i in range(0, len(lines), 1000):
            n += sum(len(e.ids) for e in tok.encode_batch(lines[i:i + 1000], add_special_tokens=False))
        return {"seconds": time.perf_counter() - t0, "cpu": _cpu_s() - c0, "tokens": n, "mb": size / 1e6}
    from wubitok.engines.base import load_tokenizer

    tok = load_tokenizer(model)
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), _cpu_s()
        if how.startswith("local:"):
            header = tok.encode_files([corpus], os.path.join(tmp, "ids.bin"), cluster=how)
        else:
            header = tok.encode_files([corpus], os.path.join(tmp, "ids.bin"), workers=int(how))
        seconds, cpu = time.perf_counter() - t0, _cpu_s() - c0
    return {"seconds": seconds, "cpu": cpu, "tokens": header["tokens"], "mb": size / 1e6}


def run_child(kind: str, model: Path, corpus: Path, how: str) -> dict:
    env = dict(os.environ)
    if kind == "hf":
        env["RAYON_NUM_THREADS"] = how  # "1": one core; "0": Rayon's default, every core
    out = subprocess.run([sys.executable, __file__, "--child", kind, str(model), str(corpus), how],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=4.0, help="corpus size in MB (default 4)")
    ap.add_argument("--runs", type=int, default=1, help="repeat each measurement; the median is shown")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    train, _ = corpus_paths()
    corpus = cut_corpus(train, args.mb)
    print(f"corpus: {corpus.name}, {corpus.stat().st_size / 1e6:.1f} MB, a document per line; "
          f"{os.cpu_count()} cores; median of {args.runs}\n")
    rows = [
        ("Wubi-BPE 6000", "ours", "wubi-bpe", "1"), ("Wubi-BPE 6000", "ours", "wubi-bpe", "2"),
        ("Wubi-BPE 6000", "ours", "wubi-bpe", "local:2"),
        ("byte-level BPE 6000", "ours", "bpe", "1"), ("byte-level BPE 6000", "ours", "bpe", "2"),
        ("byte-level BPE 6000", "ours", "bpe", "local:2"),
        ("byte-level BPE 6000", "hf", "bpe", "1"), ("byte-level BPE 6000", "hf", "bpe", "0"),
    ]
    results: dict[tuple, list[dict]] = {row: [] for row in rows}
    load = os.getloadavg()
    for _ in range(args.runs):
        for row in rows:
            _, kind, model, how = row
            results[row].append(run_child(kind, MODELS / f"{model}-6000.json", corpus, how))
    print("| model | encoder | MB/s (wall) | x one worker | MB per CPU s | tokens |")
    print("|---|---|---:|---:|---:|---:|")
    base: dict[str, float] = {}
    for row in rows:
        label, kind, model, how = row
        seconds = statistics.median(r["seconds"] for r in results[row])
        cpu = statistics.median(r["cpu"] for r in results[row])
        rate = results[row][0]["mb"] / seconds
        if kind == "ours" and how == "1":
            base[model] = rate
        name = (f"HF encode_batch, {'1 thread' if how == '1' else 'all cores'}" if kind == "hf"
                else f"ours, {'workers ' + how if how.isdigit() else how}")
        print(f"| {label} | {name} | {rate:.2f} | {rate / base[model]:.2f} | {results[row][0]['mb'] / cpu:.2f} "
              f"| {results[row][0]['tokens']:,} |")
    print(f"\nload average before / after: {load[0]:.1f} / {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
