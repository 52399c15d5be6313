"""Corpus scale: encode throughput on 1 and 2 workers and on Dask beside HF ``encode_batch``;
training time and peak memory beside HF ``BpeTrainer`` and sentencepiece.

    nice -n 10 python bench/bench_scale.py [--mb 20] [--text generated|chinese|manpages] [--runs 1]
    nice -n 10 python bench/bench_scale.py --mb 0 --train-mb 200 [--max-words N] [--rss-cap GB]

Encoding (``--mb``): a document is a line; every measurement runs in a fresh
process:

* ``ours, workers N`` — ``wubitok.encode_files(tokenizer, ..., fmt="bin")`` with N
  processes: wall time from the call to the renamed output (process start-up
  and model loading included), so MB/s is what a user sees;
* ``ours, local:2`` — the same on a Dask ``LocalCluster`` of 2 worker
  processes, cluster start-up included;
* ``ours, python encoder`` — Wubi-BPE with ``use_encoder("python")`` (the
  other rows use the default, HF tokenizers' Rust BPE for the merges);
* ``HF encode_batch`` — the byte-level BPE model exported to
  ``tokenizer.json`` (the same vocabulary and merges: the ids are equal),
  ``Tokenizer.encode_batch`` on batches of 1,000 lines, with one Rayon
  thread and with all cores, and ``encode_batch_fast`` (ids without
  offsets, as the ``bin`` output needs) on one thread.

Reported: MB/s (wall), the speed-up over one worker, MB per CPU second
of all processes (the per-core figure, which a loaded machine distorts
least), and the speed-up N processes would give on N idle cores as the CPU
seconds say it: N x (CPU s of one worker) / (CPU s of N workers), i.e. the
work split evenly and nothing else running.  The load average is printed
before and after, then the two targets of issue #15 as ratios: per CPU
second at least HF's byte-level BPE on Chinese; 2 workers >= 1.7x one worker
on 2 cores (by wall time, and as the CPU seconds say it).

Training (``--train-mb``): vocab 32,000 on an order-2 Markov text generated
from manpages-zh (``bench_bpe.synthetic_corpus``; clauses almost all
distinct, a harsh case for memory): ours (count on 1 / 2 workers /
``local:2``, then ``train_from_counts``), HF ``BpeTrainer`` with the GPT-4
split (``hf:0``: fed an iterator of lines; ``hf:file``: reading the file
itself, in Rust on every core), sentencepiece BPE on a 2M-line sample.  Wall and CPU seconds, peak RSS
of the main process and of its largest worker.  ``--rss-cap GB`` stops a
trainer whose processes together hold more than that (HF holds every distinct
pre-token of the corpus: at 2 GB it would take the machine) and reports how
long it ran and how much of the corpus it had read.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
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
    out = source.parent / f"{source.stem}-{megabytes:g}mb.txt"
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
    if kind in ("hf", "hf-fast"):
        from tokenizers import Tokenizer

        from wubitok.engines.base import load_tokenizer
        from wubitok.exports.hf_json import bpe_tokenizer_json

        tok = Tokenizer.from_str(bpe_tokenizer_json(load_tokenizer(model)))
        lines = Path(corpus).read_text(encoding="utf-8").split("\n")[:-1]
        t0, c0 = time.perf_counter(), _cpu_s()
        n = 0
        encode = tok.encode_batch if kind == "hf" else tok.encode_batch_fast  # _fast: no offsets
        for i in range(0, len(lines), 1000):
            n += sum(len(e.ids) for e in encode(lines[i:i + 1000], add_special_tokens=False))
        return {"seconds": time.perf_counter() - t0, "cpu": _cpu_s() - c0, "tokens": n, "mb": size / 1e6}
    from wubitok import encode_files, load_tokenizer

    tok = load_tokenizer(model)
    tok.use_encoder("python" if kind == "ours-python" else "auto")
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), _cpu_s()
        if how.startswith("local:"):
            header = encode_files(tok, [corpus], os.path.join(tmp, "ids.bin"), cluster=how)
        else:
            header = encode_files(tok, [corpus], os.path.join(tmp, "ids.bin"), workers=int(how))
        seconds, cpu = time.perf_counter() - t0, _cpu_s() - c0
    return {"seconds": seconds, "cpu": cpu, "tokens": header["tokens"], "mb": size / 1e6}


def train_child(kind: str, corpus: str, how: str, vocab: int, max_words: int) -> dict:
    """One training, measured in this (fresh) process: wall, CPU and peak RSS of it and its workers."""
    t0, c0 = time.perf_counter(), _cpu_s()
    if kind == "hf":
        from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

        from wubitok.engines.pre_tokenizers.gpt4 import GPT4_PATTERN
        from wubitok.fileio import iter_lines

        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(GPT4_PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
        trainer = trainers.BpeTrainer(vocab_size=vocab, min_frequency=2, show_progress=False,
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
        if how == "file":  # HF reads the file itself (in Rust, on every core), as most of its users train
            tok.train([corpus], trainer)
        else:
            tok.train_from_iterator(iter_lines([corpus]), trainer)
    elif kind == "spm":
        import sentencepiece as spm

        with tempfile.TemporaryDirectory() as tmp:
            spm.SentencePieceTrainer.train(input=corpus, model_prefix=os.path.join(tmp, "m"), vocab_size=vocab,
                                           model_type="bpe", character_coverage=0.9995, minloglevel=2,
                                           input_sentence_size=int(how), shuffle_input_sentence=True,
                                           num_threads=2, max_sentence_length=1 << 16)
    else:
        from wubitok.scale.training import count_pretokens, train_from_counts

        where = {"cluster": how} if how.startswith("local:") else {"workers": int(how)}
        counts = count_pretokens(files=[corpus], model=kind, max_words=max_words or None, **where)
        train_from_counts(counts, model=kind, vocab_size=vocab, backend="python")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"seconds": time.perf_counter() - t0, "cpu": _cpu_s() - c0, "rss_mb": own, "worker_rss_mb": kids}


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants, in MB (Linux /proc)."""
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                total += next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), 0) / 1024
            with open(f"/proc/{p}/task/{p}/children") as fh:
                todo += [int(c) for c in fh.read().split()]
        except OSError:
            pass  # gone meanwhile
    return total


def _read_fraction(pid: int, corpus: Path) -> float | None:
    """How far the process has read ``corpus`` (its open file's position / size), if it has it open."""
    target, size = str(corpus.resolve()), corpus.stat().st_size
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                with open(f"/proc/{pid}/fdinfo/{fd}") as fh:
                    return int(fh.readline().split()[1]) / size
    except OSError:
        pass
    return None


def run_train_child(kind: str, corpus: Path, how: str, vocab: int, max_words: int, rss_cap_mb: float = 0) -> dict:
    """One training in a fresh process.  With ``rss_cap_mb``, a watchdog kills the process
    (and its workers) once together they hold more than that, and reports when and how far
    it had read the corpus: ``{"capped": True, ...}``."""
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen([sys.executable, __file__, "--train-child", kind, str(corpus), how, str(vocab),
                                 str(max_words)], stdout=out, text=True, start_new_session=True)
        t0, read = time.perf_counter(), None
        try:
            while proc.poll() is None:
                time.sleep(0.5)
                if not rss_cap_mb:
                    continue
                read = _read_fraction(proc.pid, corpus) or read
                rss = _tree_rss_mb(proc.pid)
                if rss > rss_cap_mb:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                    return {"capped": True, "seconds": time.perf_counter() - t0, "rss_mb": rss, "read": read}
        except BaseException:
            # Ctrl+C reaches this process only (the child has a session of its own): a training
            # of many GB must not go on alone.
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
        if proc.returncode:
            raise subprocess.CalledProcessError(proc.returncode, proc.args)
        out.seek(0)
        return json.loads(out.read())


def run_child(kind: str, model: Path, corpus: Path, how: str) -> dict:
    env = dict(os.environ)
    if kind.startswith("hf"):
        env["RAYON_NUM_THREADS"] = how  # "1": one core; "0": Rayon's default, every core
    out = subprocess.run([sys.executable, __file__, "--child", kind, str(model), str(corpus), how],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=4.0,
                    help="encode a corpus of this many MB (default 4; 0: no encode table)")
    ap.add_argument("--text", choices=("manpages", "chinese", "generated"), default="generated",
                    help="manpages-zh (30%% Han; repeated if --mb is bigger), the bundled Chinese samples "
                         "repeated (pre-token caches help one process most), or an order-2 Markov text "
                         "generated from manpages-zh (no repeats; default)")
    ap.add_argument("--runs", type=int, default=1, help="repeat each measurement; the median is shown")
    ap.add_argument("--encode-models", default="wubi-bpe,bpe",
                    help="our engines in the encode table (default wubi-bpe,bpe; HF's rows always run)")
    ap.add_argument("--train-mb", type=int, default=0,
                    help="also train (vocab 32,000) on a generated corpus of this many MB")
    ap.add_argument("--max-words", type=int, default=0, help="with --train-mb: our count table's bound")
    ap.add_argument("--rss-cap", type=float, default=0,
                    help="with --train-mb: kill a trainer whose processes hold more than this many GB "
                         "and report how far it got (default: no cap)")
    ap.add_argument("--trainers", default="wubi-bpe:1,wubi-bpe:2,wubi-bpe:local:2,bpe:2,hf:0,spm:2000000",
                    help="with --train-mb: the rows, KIND:HOW,... (default: all)")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("--train-child", nargs=5, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    if args.train_child:
        kind, corpus, how, vocab, max_words = args.train_child
        print(json.dumps(train_child(kind, corpus, how, int(vocab), int(max_words))))
        return
    train, _ = corpus_paths()
    if args.mb:
        encode_table(args, train)
    if args.train_mb:
        runs = [tuple(r.split(":", 1)) for r in args.trainers.split(",")]
        train_table(train, args.train_mb, args.max_words, runs, args.rss_cap)


def encode_table(args: argparse.Namespace, train: Path) -> None:
    if args.text == "generated":
        from bench_bpe import synthetic_corpus

        corpus = synthetic_corpus(train, int(args.mb))
    elif args.text == "chinese":
        source = train.parent / "samples-zh.txt"
        if not source.exists():
            samples = ROOT / "resources" / "samples"
            source.write_text("".join((samples / n).read_text(encoding="utf-8")
                                      for n in ("tang300.txt", "song100.txt", "fortunes-zh.txt")), encoding="utf-8")
        corpus = cut_corpus(source, args.mb)
    else:
        corpus = cut_corpus(train, args.mb)
    print(f"corpus: {corpus.name}, {corpus.stat().st_size / 1e6:.1f} MB, a document per line; "
          f"{os.cpu_count()} cores; median of {args.runs}\n", flush=True)
    rows = [
        ("Wubi-BPE 6000", "ours", "wubi-bpe", "1"), ("Wubi-BPE 6000", "ours", "wubi-bpe", "2"),
        ("Wubi-BPE 6000", "ours", "wubi-bpe", "local:2"), ("Wubi-BPE 6000", "ours-python", "wubi-bpe", "1"),
        ("byte-level BPE 6000", "ours", "bpe", "1"), ("byte-level BPE 6000", "ours", "bpe", "2"),
        ("byte-level BPE 6000", "ours", "bpe", "local:2"),
        ("byte-level BPE 6000", "hf", "bpe", "1"), ("byte-level BPE 6000", "hf", "bpe", "0"),
        ("byte-level BPE 6000", "hf-fast", "bpe", "1"),
    ]
    rows = [r for r in rows if r[1].startswith("hf") or r[2] in args.encode_models.split(",")]
    results: dict[tuple, list[dict]] = {}
    load = os.getloadavg()
    print("| model | encoder | MB/s (wall) | x one worker | MB per CPU s | x one worker on idle cores (CPU s) "
          "| tokens |")
    print("|---|---|---:|---:|---:|---:|---:|")
    base: dict[str, float] = {}
    base_cpu: dict[str, float] = {}
    hf_rate = hf_fast_rate = 0.0  # HF encode_batch(_fast) on one thread, MB per CPU second
    for row in rows:  # each row printed when measured: a long run on a busy machine shows progress
        label, kind, model, how = row
        results[row] = [run_child(kind, MODELS / f"{model}-6000.json", corpus, how) for _ in range(args.runs)]
        seconds = statistics.median(r["seconds"] for r in results[row])
        cpu = statistics.median(r["cpu"] for r in results[row])
        rate = results[row][0]["mb"] / seconds
        if kind == "ours" and how == "1":
            base[model], base_cpu[model] = rate, cpu
        if kind == "hf" and how == "1":
            hf_rate = results[row][0]["mb"] / cpu
        if kind == "hf-fast":
            hf_fast_rate = results[row][0]["mb"] / cpu
        name = (f"HF encode_batch, {'1 thread' if how == '1' else 'all cores'}" if kind == "hf"
                else "HF encode_batch_fast (ids, no offsets), 1 thread" if kind == "hf-fast"
                else f"ours{', python encoder' if kind == 'ours-python' else ''}, "
                     f"{'workers ' + how if how.isdigit() else how}")
        n = int(how.split(":")[-1]) if kind == "ours" else 0
        ideal = f"{n * base_cpu[model] / cpu:.2f}" if n else ""
        versus = f"{rate / base[model]:.2f}" if model in base else ""
        print(f"| {label} | {name} | {rate:.2f} | {versus} | {results[row][0]['mb'] / cpu:.2f} "
              f"| {ideal} | {results[row][0]['tokens']:,} |", flush=True)
    print(f"\nload average before / after: {load[0]:.1f} / {os.getloadavg()[0]:.1f}")
    # The two targets, from the rows above.
    def per_cpu(row: tuple) -> float:
        return results[row][0]["mb"] / statistics.median(r["cpu"] for r in results[row])

    def wall(row: tuple) -> float:
        return results[row][0]["mb"] / statistics.median(r["seconds"] for r in results[row])

    one, two = ("Wubi-BPE 6000", "ours", "wubi-bpe", "1"), ("Wubi-BPE 6000", "ours", "wubi-bpe", "2")
    print(f"\ntarget: Wubi-BPE per CPU second / HF encode_batch (1 thread) per CPU second >= 1: "
          f"{per_cpu(one) / hf_rate:.2f} (against encode_batch_fast, which skips offsets as our bin "
          f"output does: {per_cpu(one) / hf_fast_rate:.2f})")
    print(f"target: Wubi-BPE 2 workers / 1 worker >= 1.7 on 2 idle cores: wall {wall(two) / wall(one):.2f}, "
          f"from CPU s {2 * per_cpu(two) / per_cpu(one):.2f}")


def train_table(source: Path, megabytes: int, max_words: int, runs: list[tuple[str, ...]],
                rss_cap_gb: float = 0) -> None:
    from bench_bpe import synthetic_corpus

    big = synthetic_corpus(source, megabytes)
    print(f"\ntraining at vocab 32,000 on {big.name} ({big.stat().st_size / 1e6:.0f} MB, generated)"
          + (f", our count table bounded at {max_words:,} words" if max_words else "") + "\n")
    print("| trainer | wall s | CPU s | peak RSS MB (main / largest worker) |")
    print("|---|---:|---:|---:|")
    load = os.getloadavg()
    for kind, how in runs:
        r = run_train_child(kind, big, how, 32000, max_words, rss_cap_gb * 1024)
        hf = "HF BpeTrainer (byte-level, GPT-4 split" + (", reading the file itself)" if how == "file" else ")")
        name = {"hf": hf,
                "spm": "sentencepiece BPE (input_sentence_size 2M, 2 threads)"}.get(kind, f"ours {kind}, {how}")
        if r.get("capped"):
            where = f", {r['read']:.0%} of the corpus read" if r["read"] is not None else ""
            print(f"| {name} | exceeded {rss_cap_gb:g} GB after {r['seconds']:.0f} s{where} | | "
                  f"{r['rss_mb']:.0f} (killed) |", flush=True)
            continue
        print(f"| {name} | {r['seconds']:.0f} | {r['cpu']:.0f} | {r['rss_mb']:.0f} / {r['worker_rss_mb']:.0f} |",
              flush=True)
    print(f"\nload average before / after: {load[0]:.1f} / {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
