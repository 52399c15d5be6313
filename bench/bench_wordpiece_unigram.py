"""WordPiece and Unigram: our trainers vs Hugging Face ``tokenizers`` and
``sentencepiece``, side by side.

    python bench/bench_wordpiece_unigram.py [--engine wordpiece unigram] [--vocab 8000 32000]
                                            [--runs 1] [--memory-mb 50]

On the manpages-zh corpus (``bench/corpus.py``), for each engine and vocab
size, three trainings, each in a fresh process (so that peak memory is that
run's own):

* ``python`` — ``WordPiece.train`` / ``Unigram.train`` on the file: our
  pre-tokenizer and pure-Python trainer, counting included;
* ``fast``   — the same with ``backend="fast"`` (HF's WordPieceTrainer on the
  same BERT words / sentencepiece on the same lines), converted into our model;
* ``ref``    — the reference library on its own: an HF ``Tokenizer`` with
  ``BertNormalizer`` + ``BertPreTokenizer`` and ``WordPieceTrainer`` reading
  the file, or ``SentencePieceTrainer`` reading the file with the settings our
  Unigram engine mirrors (identity normalization, no dummy prefix, spaces
  kept, byte fallback, all characters).

Reported: training wall time and its ratio to ``ref`` (issue targets: python
WordPiece <= 5x, python Unigram <= 20x, fast <= 1.3x), CPU time of all
threads (the references use every core, ours one), peak RSS, encode
throughput on the held-out file (one ``encode`` call on the whole text, cold
cache) and held-out token counts.  ``--memory-mb N`` adds a peak-memory run
of our trainers on an N MB synthetic corpus (``bench_bpe.synthetic_corpus``).
Not a test: figures go into docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import corpus_paths  # noqa: E402

MODES = ("python", "fast", "ref")
REFERENCE = {"wordpiece": "HF WordPieceTrainer", "unigram": "sentencepiece"}


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _reference_wordpiece(vocab: int, train: str):
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True,
                                                strip_accents=False, lowercase=False)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab, min_frequency=2, show_progress=False,
                                        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    tok.train([train], trainer)
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


def _reference_unigram(vocab: int, train: str):
    import sentencepiece as spm

    proto = io.BytesIO()
    spm.SentencePieceTrainer.train(
        input=train, model_writer=proto, model_type="unigram", vocab_size=vocab,
        normalization_rule_name="identity", byte_fallback=True, character_coverage=1.0,
        add_dummy_prefix=False, remove_extra_whitespaces=False, max_sentence_length=1 << 30,
        num_threads=os.cpu_count() or 1, minloglevel=2)
    sp = spm.SentencePieceProcessor(model_proto=proto.getvalue())
    return lambda text: len(sp.encode(text))


def child(engine: str, mode: str, vocab: int, train: str, heldout: str) -> dict:
    """One training and one encode, measured in this (fresh) process."""
    held = Path(heldout).read_text(encoding="utf-8")
    t0, c0 = time.perf_counter(), _cpu_s()
    if mode == "ref":
        count = (_reference_wordpiece if engine == "wordpiece" else _reference_unigram)(vocab, train)
    else:
        from wubitok.engines.unigram.model import Unigram
        from wubitok.engines.wordpiece.model import WordPiece

        cls = WordPiece if engine == "wordpiece" else Unigram
        model = cls.train(files=[train], vocab_size=vocab, min_frequency=2, backend=mode)
        count = lambda text: len(model.encode(text))  # noqa: E731
    train_s, train_cpu = time.perf_counter() - t0, _cpu_s() - c0
    t0 = time.perf_counter()
    n_tokens = count(held)
    encode_s = time.perf_counter() - t0
    mb = len(held.encode("utf-8")) / 1e6
    return {"engine": engine, "mode": mode, "vocab": vocab, "train_s": train_s, "train_cpu_s": train_cpu,
            "peak_rss_mb": _rss_mb(), "encode_mb_s": mb / encode_s, "heldout_tokens": n_tokens}


def run_child(engine: str, mode: str, vocab: int, train: Path, heldout: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", engine, mode, str(vocab), str(train), str(heldout)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", nargs="+", choices=("wordpiece", "unigram"), default=["wordpiece", "unigram"])
    ap.add_argument("--vocab", type=int, nargs="+", default=[8000, 32000])
    ap.add_argument("--runs", type=int, default=1, help="repeat each training; the median time is shown")
    ap.add_argument(
        "--memory-mb", type=int, default=0, help="also measure our trainers' peak memory on a corpus this big"
    )
    ap.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        engine, mode, vocab, train, heldout = args.child
        print(json.dumps(child(engine, mode, int(vocab), train, heldout)))
        return

    train, heldout = corpus_paths()
    print(f"corpus: {train.name} {train.stat().st_size / 1e6:.1f} MB, held-out {heldout.name} "
          f"{heldout.stat().st_size / 1e6:.2f} MB; {args.runs} run(s) each, median time; "
          f"{os.cpu_count()} cores\n")
    print("| engine | vocab | trainer | train s (wall) | x ref | train s (CPU) | peak RSS MB | encode MB/s "
          "| held-out tokens | tokens vs python |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for engine in args.engine:
        for vocab in args.vocab:
            results = {}
            for mode in MODES:
                runs = [run_child(engine, mode, vocab, train, heldout) for _ in range(args.runs)]
                r = dict(runs[0])
                for key in ("train_s", "train_cpu_s", "encode_mb_s"):
                    r[key] = statistics.median(x[key] for x in runs)
                r["peak_rss_mb"] = max(x["peak_rss_mb"] for x in runs)
                results[mode] = r
            ref_s = results["ref"]["train_s"]
            py_tokens = results["python"]["heldout_tokens"]
            for mode in MODES:
                r = results[mode]
                label = REFERENCE[engine] if mode == "ref" else mode
                print(f"| {engine} | {vocab:,} | {label} | {r['train_s']:.1f} | {r['train_s'] / ref_s:.2f} | "
                      f"{r['train_cpu_s']:.1f} | {r['peak_rss_mb']:.0f} | {r['encode_mb_s']:.2f} | "
                      f"{r['heldout_tokens']:,} | {r['heldout_tokens'] / py_tokens - 1:+.2%} |", flush=True)
    if args.memory_mb:
        from bench_bpe import synthetic_corpus

        big = synthetic_corpus(train, args.memory_mb)
        vocab = max(args.vocab)
        print(f"\n{big.name}: {big.stat().st_size / 1e6:.0f} MB, vocab {vocab:,}\n")
        print("| engine | trainer | train s (wall) | train s (CPU) | peak RSS MB |")
        print("|---|---|---:|---:|---:|")
        for engine in args.engine:
            for mode in ("python", "ref"):
                r = run_child(engine, mode, vocab, big, heldout)
                label = REFERENCE[engine] if mode == "ref" else mode
                print(f"| {engine} | {label} | {r['train_s']:.0f} | {r['train_cpu_s']:.0f} | {r['peak_rss_mb']:.0f} |",
                      flush=True)


if __name__ == "__main__":
    main()
