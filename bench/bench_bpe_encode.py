"""Byte-level BPE corpus ids: ours (Python), ours handing the merges to HF ("fast"), HF's own, side by side.

    .venv/bin/python bench/bench_bpe_encode.py [MODEL.json] [--repeat 3]

The lines of the three samples (resources/samples, ~440,000 characters) are
encoded as corpus encoding does (``encode_batch_ids`` per block of 2,000
lines, a cold cache each run) by the bundled byte-level BPE model with the
"python" and the "fast" encoder, and by HF ``tokenizers`` loading our
``tokenizer.json`` export (``encode_batch``).  Reported: best wall time and
CPU time (all threads) of ``--repeat`` runs (loading the model and
building its fast encoder not counted), MB/s, the ratio to HF, and
whether the ids are identical.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from tokenizers import Tokenizer as HFTokenizer

from wubitok import load_tokenizer
from wubitok.exports import export
from wubitok.paths import resources_dir

SAMPLES = resources_dir() / "samples"
BLOCK = 2000


def lines() -> list[str]:
    return [line for name in ("tang300.txt", "song100.txt", "fortunes-zh.txt")
            for line in (SAMPLES / name).read_text(encoding="utf-8").splitlines()]


def timed(run, repeat: int, setup=lambda: None):
    best = None
    for _ in range(repeat):
        state = setup()  # not timed: loading the model (and building its fast encoder)
        wall, cpu = time.perf_counter(), time.process_time()
        out = run(state)
        took = (time.perf_counter() - wall, time.process_time() - cpu)
        best = took if best is None or took[0] < best[0] else best
    return out, best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model", nargs="?", default=str(resources_dir() / "models" / "bpe-6000.json"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts = lines()
    blocks = [texts[i:i + BLOCK] for i in range(0, len(texts), BLOCK)]
    mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        export(load_tokenizer(args.model), "tokenizer.json", Path(tmp) / "t.json")
        hf = HFTokenizer.from_file(str(Path(tmp) / "t.json"))
    hf.no_padding()
    results = {}
    for name in ("python", "fast"):
        def setup(name=name):
            model = load_tokenizer(args.model)  # a cold cache each run
            assert model.use_encoder(name) == name
            return model

        results[name] = timed(lambda model: [ids for block in blocks for ids in model.encode_batch_ids(block)],
                              args.repeat, setup)
    def hf_ids(_):
        return [e.ids for block in blocks for e in hf.encode_batch(block, add_special_tokens=False)]

    results["hf"] = timed(hf_ids, args.repeat)
    ref = results["hf"][1]
    print(f"{len(texts):,} lines, {mb:.2f} MB, best of {args.repeat} ({time.strftime('%Y-%m-%d')})")
    for name, (ids, (wall, cpu)) in results.items():
        same = ids == results["hf"][0]
        print(f"{name:>6}: wall {wall:6.3f} s ({mb / wall:5.2f} MB/s, {wall / ref[0]:4.2f}x HF), "
              f"CPU {cpu:6.3f} s ({cpu / ref[1]:4.2f}x HF), ids {'identical' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
