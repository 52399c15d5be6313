"""Byte-level BPE: our trainer vs Hugging Face ``tokenizers``, side by side.

    python bench/bench_bpe.py [--vocab 8000 32000] [--runs 1] [--memory-mb 50]

On the manpages-zh corpus (``bench/corpus.py``), for each vocab size, three
trainings, each in a fresh process (so that peak memory is that run's own):

* ``python`` — ``ByteLevelBPE.train(files=...)``: our pre-tokenizer and the
  pure-Python trainer (counting included);
* ``fast``   — the same with ``backend="fast"``: our pre-token counts, HF's
  ``BpeTrainer``, converted into our model;
* ``hf``     — HF's own: a ``tokenizers.Tokenizer`` with the same GPT-4 regex
  and ByteLevel pre-tokenizer trained by ``BpeTrainer`` on the same text
  chunks, so it sees the same pre-tokens.

Reported: training wall time and its ratio to ``hf`` (issue targets: python
<= 3x, fast <= 1.3x); CPU time of all threads (HF uses every core, ours one;
on a shared machine CPU time is the steadier figure); peak RSS of the
process; encode throughput on the held-out file (one ``encode`` call on the
whole text, cold cache, per CPU second); the number of held-out tokens.

``--memory-mb N`` adds a peak-memory run of our trainer on an N MB corpus.
manpages-zh is only 4 MB, so that corpus is generated from it: an order-2
character Markov chain (seeded), cached in ``bench/data/``.  Its clauses are
almost all distinct, so it has far more distinct pre-tokens than real text
of that size: a pessimistic stand-in.  Not a test: figures go into docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import corpus_paths  # noqa: E402

MODES = ("python", "fast", "hf")


def _rss_mb() -> float:
    # ru_maxrss is in KiB on Linux.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_s() -> float:
    # All threads of this process: HF trains on every core, ours on one.
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child(mode: str, vocab: int, train: str, heldout: str) -> dict:
    """One training and one encode, measured in this (fresh) process."""
    from wubitok.engines.bpe.byte_level import ByteLevelBPE
    from wubitok.engines.corpus import Corpus
    from wubitok.engines.pre_tokenizers.gpt4 import GPT4_PATTERN

    held = Path(heldout).read_text(encoding="utf-8")
    base_rss = _rss_mb()
    if mode == "hf":
        from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

        t0, c0 = time.perf_counter(), _cpu_s()
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(GPT4_PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ])
        trainer = trainers.BpeTrainer(vocab_size=vocab, min_frequency=2, show_progress=False,
                                      special_tokens=["<pad>", "<unk>", "<s>", "</s>"],
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
        tok.train_from_iterator(Corpus(files=[train]).blocks(), trainer)
        train_s, train_cpu = time.perf_counter() - t0, _cpu_s() - c0
        c0 = _cpu_s()
        n_tokens = len(tok.encode(held).ids)
        encode_s = _cpu_s() - c0
    else:
        t0, c0 = time.perf_counter(), _cpu_s()
        tok = ByteLevelBPE.train(files=[train], vocab_size=vocab, min_frequency=2, backend=mode)
        train_s, train_cpu = time.perf_counter() - t0, _cpu_s() - c0
        c0 = _cpu_s()
        n_tokens = len(tok.encode(held))
        encode_s = _cpu_s() - c0
    mb = len(held.encode("utf-8")) / 1e6
    return {"mode": mode, "vocab": vocab, "train_s": train_s, "train_cpu_s": train_cpu, "peak_rss_mb": _rss_mb(),
            "base_rss_mb": base_rss, "encode_mb_s": mb / encode_s, "heldout_tokens": n_tokens}


def synthetic_corpus(source: Path, megabytes: int) -> Path:
    """An order-2 character Markov text of ``megabytes`` MB built from ``source``."""
    out = source.parent / f"synthetic-zh-{megabytes}mb.txt"
    if out.exists():
        return out
    text = source.read_text(encoding="utf-8")
    follow: dict[str, list[str]] = {}
    for i in range(len(text) - 2):
        follow.setdefault(text[i:i + 2], []).append(text[i + 2])
    starts = sorted(follow)
    rng = random.Random(0)
    target, size, state = megabytes * 1_000_000, 0, text[:2]
    tmp = out.with_suffix(".part")
    with open(tmp, "w", encoding="utf-8") as fh:
        while size < target:
            buf = []
            for _ in range(100_000):
                nxt = follow.get(state)
                if nxt is None:
                    state = rng.choice(starts)
                    continue
                ch = rng.choice(nxt)
                buf.append(ch)
                state = state[1] + ch
            chunk = "".join(buf)
            fh.write(chunk)
            size += len(chunk.encode("utf-8"))
    tmp.replace(out)
    return out


def run_child(mode: str, vocab: int, train: Path, heldout: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", mode, str(vocab), str(train), str(heldout)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vocab", type=int, nargs="+", default=[8000, 32000])
    ap.add_argument("--runs", type=int, default=1, help="repeat each training; the median time is shown")
    ap.add_argument("--memory-mb", type=int, default=0, help="also measure peak memory on a synthetic corpus this big")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        mode, vocab, train, heldout = args.child
        print(json.dumps(child(mode, int(vocab), train, heldout)))
        return

    train, heldout = corpus_paths()
    print(f"corpus: {train.name} {train.stat().st_size / 1e6:.1f} MB, held-out {heldout.name} "
          f"{heldout.stat().st_size / 1e6:.2f} MB; {args.runs} run(s) each, median time\n")
    print(
        "| vocab | trainer | train s (wall) | x HF | train s (CPU) | peak RSS MB | encode MB/CPU s "
        "| held-out tokens | tokens vs python |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for vocab in args.vocab:
        results = {}
        for mode in MODES:
            runs = [run_child(mode, vocab, train, heldout) for _ in range(args.runs)]
            best = runs[0]
            best["train_s"] = statistics.median(r["train_s"] for r in runs)
            best["train_cpu_s"] = statistics.median(r["train_cpu_s"] for r in runs)
            best["peak_rss_mb"] = max(r["peak_rss_mb"] for r in runs)
            best["encode_mb_s"] = statistics.median(r["encode_mb_s"] for r in runs)
            results[mode] = best
        hf_s = results["hf"]["train_s"]
        py_tokens = results["python"]["heldout_tokens"]
        for mode in MODES:
            r = results[mode]
            print(
                f"| {vocab:,} | {mode} | {r['train_s']:.1f} | {r['train_s'] / hf_s:.2f} | {r['train_cpu_s']:.1f} "
                f"| {r['peak_rss_mb']:.0f} | "
                f"{r['encode_mb_s']:.2f} | {r['heldout_tokens']:,} | {r['heldout_tokens'] / py_tokens - 1:+.2%} |"
            )
    if args.memory_mb:
        big = synthetic_corpus(train, args.memory_mb)
        vocab = max(args.vocab)
        print(f"\n{big.name}: {big.stat().st_size / 1e6:.0f} MB, vocab {vocab:,}\n")
        print("| trainer | train s (wall) | train s (CPU) | peak RSS MB |")
        print("|---|---:|---:|---:|")
        for mode in ("python", "hf"):
            r = run_child(mode, vocab, big, heldout)
            print(f"| {mode} | {r['train_s']:.0f} | {r['train_cpu_s']:.0f} | {r['peak_rss_mb']:.0f} |")


if __name__ == "__main__":
    main()
