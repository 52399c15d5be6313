"""Wubi-BPE's tokenizer.json export in HF tokenizers: same ids as ours, per genre, and how fast.

    .venv/bin/python bench/bench_wubi_tokenizer_json.py [MODEL.json] [--lines 20000] [--repeat 3]

For each genre of ``genres.py`` (all splits, up to ``--lines`` lines each):

* ids: our ``encode_batch`` against HF ``tokenizers`` loading our
  ``tokenizer.json`` export (``encode_batch``), and the offsets too; any
  line where either differs is counted (and the first one printed);
* encoding time, in one run side by side: ours (the default "auto"
  encoder, offsets included, a cold cache each run), the export in HF, and
  HF's byte-level BPE (the bundled ``bpe-6000`` model's export, the GPT-4
  split) as the reference: best wall and CPU time (all threads) of
  ``--repeat`` runs, and the CPU ratio to byte-level BPE;
* decoding time of the first 500 lines' ids: ours against the export's
  decoder (``decode_batch``), and HF's ``DecodeStream`` fed those ids one
  at a time (per token) against ours (``Tokenizer.decode_stream``).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from tokenizers import Tokenizer as HFTokenizer
from tokenizers.decoders import DecodeStream

from wubitok import load_tokenizer
from wubitok.exports import export
from wubitok.paths import resources_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from genres import GENRES, load_genres  # noqa: E402

MODELS = resources_dir() / "models"


def timed(run, repeat: int, setup=lambda: None):
    best = None
    out = None
    for _ in range(repeat):
        state = setup()  # not timed
        wall, cpu = time.perf_counter(), time.process_time()
        out = run(state)
        took = (time.perf_counter() - wall, time.process_time() - cpu)
        best = took if best is None or took[1] < best[1] else best
    return out, best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model", nargs="?", default=str(MODELS / "wubi-bpe-6000.json"))
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        export(load_tokenizer(args.model), "tokenizer.json", Path(tmp) / "wubi.json")
        export_s = time.perf_counter() - started
        export(load_tokenizer(MODELS / "bpe-6000.json"), "tokenizer.json", Path(tmp) / "bpe.json")
        started = time.perf_counter()
        wubi_hf = HFTokenizer.from_file(str(Path(tmp) / "wubi.json"))
        load_s = time.perf_counter() - started
        bpe_hf = HFTokenizer.from_file(str(Path(tmp) / "bpe.json"))
    for tok in (wubi_hf, bpe_hf):
        tok.no_padding()
    print(f"{time.strftime('%Y-%m-%d')}: export {export_s:.1f} s, HF load {load_s:.2f} s; best of {args.repeat} by CPU")
    genres = load_genres()
    for genre in GENRES:
        lines = [ln for split in genres[genre].values() for doc in split for ln in doc.splitlines(keepends=True)]
        report(genre, lines[: args.lines], args.model, args.repeat, wubi_hf, bpe_hf)


def report(genre: str, lines: list[str], model_path: str, repeat: int, wubi_hf, bpe_hf) -> None:
    mb = sum(len(t.encode("utf-8")) for t in lines) / 1e6

    def setup():
        return load_tokenizer(model_path)  # a cold cache each run

    ours, (o_wall, o_cpu) = timed(lambda m: m.encode_batch(lines), repeat, setup)
    theirs, (h_wall, h_cpu) = timed(lambda _: wubi_hf.encode_batch(lines, add_special_tokens=False), repeat)
    _, (b_wall, b_cpu) = timed(lambda _: bpe_hf.encode_batch(lines, add_special_tokens=False), repeat)
    bad = [i for i, (a, b) in enumerate(zip(ours, theirs))
           if a.ids != b.ids or [tuple(o) for o in a.offsets] != b.offsets]
    print(f"{genre:>9}: {len(lines):,} lines, {mb:.2f} MB; ids+offsets differ on {len(bad)} lines")
    if bad:
        print(f"           first: {lines[bad[0]]!r}")
    for name, wall, cpu in (("wubitok", o_wall, o_cpu), ("export/HF", h_wall, h_cpu), ("BBPE/HF", b_wall, b_cpu)):
        print(f"           {name:>9}: wall {wall:6.3f} s, CPU {cpu:6.3f} s ({mb / cpu:5.2f} MB/CPU-s, "
              f"{b_cpu / cpu:4.2f}x byte-level BPE's speed)")
    sample = [e.ids for e in ours[:500]]
    model = load_tokenizer(model_path)
    _, (_, d_ours) = timed(lambda _: [model.decode(ids) for ids in sample], 1)
    texts, (_, d_hf) = timed(lambda _: wubi_hf.decode_batch(sample, skip_special_tokens=False), 1)
    same = sum(t == model.decode(ids) for t, ids in zip(texts, sample))
    print(f"           decode 500 lines: wubitok {d_ours:.3f} CPU-s, export/HF {d_hf:.3f} CPU-s "
          f"({d_hf / max(d_ours, 1e-9):.0f}x), same text on {same}")

    def hf_stream(_):
        out = []
        for ids in sample:
            stream = DecodeStream(skip_special_tokens=False)
            out.append("".join(filter(None, (stream.step(wubi_hf, i) for i in ids))))
        return out

    def our_stream(_):
        out = []
        for ids in sample:
            stream = model.decode_stream()
            out.append("".join(stream.step(i) for i in ids) + stream.finish())
        return out

    streamed, (_, s_hf) = timed(hf_stream, 1)
    _, (_, s_ours) = timed(our_stream, 1)
    n = sum(map(len, sample))
    same = sum(t == model.decode(ids) for t, ids in zip(streamed, sample))
    print(f"           stream {n:,} tokens: wubitok {s_ours / n * 1e6:.0f} us/token, export/HF DecodeStream "
          f"{s_hf / n * 1e6:.0f} us/token, same text on {same}")


if __name__ == "__main__":
    main()
