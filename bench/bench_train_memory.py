"""Wubi-BPE training: peak memory and CPU time of each backend, and whether their merges agree.

    python bench/bench_train_memory.py [--vocab 8000] [--genres zh_CN fortunes mixed]

For each genre's training split (``genres.py``) each backend trains in a
fresh process (``WubiBPE.train(files=[...], backend=...)``, counting
included), which reports its peak resident set (``ru_maxrss``), its CPU
time and a hash of its merges; the process's RSS before training (Python,
wubitok and the dictionary loaded) is reported too, so the growth is what
training itself costs.  The issue's target: the fast backend's peak at most
1.5x the Python trainer's, and the same merges.  Prints a markdown table.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from genres import load_genres  # noqa: E402

_CHILD = r"""
import hashlib, json, resource, sys, time
from wubitok.engines.bpe.wubi import WubiBPE
WubiBPE()  # the dictionary and codec loaded, as before any training
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
cpu = time.process_time()
tok = WubiBPE.train(files=[sys.argv[1]], vocab_size=int(sys.argv[2]), backend=sys.argv[3])
cpu = time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"before": before / 1024, "peak": peak / 1024, "cpu": cpu, "merges": len(tok.merges),
                  "hash": hashlib.sha256(json.dumps(tok.merges).encode()).hexdigest()[:12]}))
"""


def run(path: Path, vocab: int, backend: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(vocab), backend],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vocab", type=int, default=8000)
    ap.add_argument("--genres", nargs="+", default=["zh_CN", "fortunes", "mixed"])
    args = ap.parse_args()
    genres = load_genres()
    print("| genre | MB | python peak / growth MB | fast peak / growth MB | peak ratio | CPU s python / fast"
          " | same merges |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for genre in args.genres:
            path = Path(tmp) / f"{genre}.txt"
            path.write_text("\n".join(genres[genre]["train"]), encoding="utf-8")
            py, fast = run(path, args.vocab, "python"), run(path, args.vocab, "fast")
            same = "yes" if py["hash"] == fast["hash"] else "NO"
            print(f"| {genre} | {path.stat().st_size / 1e6:.1f} | {py['peak']:.0f} / {py['peak'] - py['before']:.0f}"
                  f" | {fast['peak']:.0f} / {fast['peak'] - fast['before']:.0f} | {fast['peak'] / py['peak']:.2f}x"
                  f" | {py['cpu']:.1f} / {fast['cpu']:.1f} | {same} ({py['merges']}) |")


if __name__ == "__main__":
    main()
