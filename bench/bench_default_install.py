"""Wubi-BPE on a default install against HF ``tokenizers``' byte-level BPE, per genre, in one run.

    .venv/bin/python bench/bench_default_install.py [--vocab 8000] [--repeat 3] [--genres zh_CN fortunes mixed]

For each genre of ``genres.py`` (its training split to train, its held-out
split to encode):

* training at ``--vocab``: CPU seconds of ``WubiBPE.train(files=[...])`` with
  the Python trainer and with ``backend="fast"`` (both count the corpus
  first), against HF ``BpeTrainer`` fed the same pre-tokens already spelled
  (each as often as it occurs; neither counting nor spelling timed), one
  thread each (``TOKENIZERS_PARALLELISM=false``: CPU time, not wall);
* encoding the held-out lines in blocks of 2,000 (as corpus encoding does):
  MB per CPU second of Wubi-BPE's ``encode_batch`` (ids, tokens, offsets) and
  ``encode_batch_ids``, each with a cold pre-token cache, against HF's
  byte-level BPE of the same vocabulary size (our ``ByteLevelBPE`` trained
  on the same split, loaded from its ``tokenizer.json`` export):
  ``encode_batch`` (with offsets) and ``encode_batch_fast`` (ids only).
  Ours returns Python lists; HF's ``Encoding`` keeps its offsets in Rust
  until asked, so the offsets ratio counts HF reading each encoding's
  ``ids`` and ``offsets`` into Python, as a caller who wants offsets does;
  the column "HF not read" is HF's ``encode_batch`` alone, for reference.

The fastest of ``--repeat`` runs counts (encoding: of at least 5 rounds, the
methods taking turns within each round).  Prints a markdown table with the
ratios (ours / HF: above 1 is faster than HF, for training below 1.5 is the
target).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ["TOKENIZERS_PARALLELISM"] = "false"  # one thread: CPU seconds compare like with like

sys.path.insert(0, str(Path(__file__).resolve().parent))
from genres import load_genres  # noqa: E402
from tokenizers import Tokenizer as HFTokenizer  # noqa: E402
from tokenizers import models, pre_tokenizers, trainers  # noqa: E402

from wubitok.engines.bpe.byte_level import ByteLevelBPE  # noqa: E402
from wubitok.engines.bpe.wubi import WubiBPE  # noqa: E402
from wubitok.exports import export  # noqa: E402

BLOCK = 2000
# Encoding takes a fraction of a second per pass: at least this many interleaved rounds.
ENCODE_ROUNDS = 5


def cpu(repeat: int, fn, *args, **kwargs) -> tuple[object, float]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        out = fn(*args, **kwargs)
        best = min(best, time.process_time() - start)
    return out, best


def hf_train(spelled: list[tuple[str, int]], alphabet: list[str], vocab: int) -> None:
    def feed():
        for word, count in spelled:
            while count > 0:
                k = min(count, 4096)
                yield " ".join([word] * k)
                count -= k

    tok = HFTokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(vocab_size=vocab, min_frequency=2, initial_alphabet=alphabet, show_progress=False)
    tok.train_from_iterator(feed(), trainer)


def encode_blocks(method, blocks: list[list[str]], wubi: WubiBPE | None, read: bool = False) -> None:
    if wubi is not None:
        wubi._cache.clear()  # cold: every pre-token new, as on a new corpus
    for block in blocks:
        if wubi is not None:
            method(block)
        elif read:
            for e in method(block, add_special_tokens=False):
                e.ids, e.offsets  # noqa: B018 (HF builds these Python lists when asked)
        else:
            method(block, add_special_tokens=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vocab", type=int, default=8000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--genres", nargs="+", default=["zh_CN", "fortunes", "mixed"])
    args = ap.parse_args()
    genres = load_genres()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for genre in args.genres:
            path = Path(tmp) / f"{genre}.txt"
            path.write_text("\n".join(genres[genre]["train"]), encoding="utf-8")
            wubi, py_s = cpu(args.repeat, WubiBPE.train, files=[path], vocab_size=args.vocab)
            _, fast_s = cpu(args.repeat, WubiBPE.train, files=[path], vocab_size=args.vocab, backend="fast")
            counts = WubiBPE.count(files=[path])
            tokens = wubi.codec.tokens
            alphabet = [chr(0x100 + i) for i in range(wubi.codec.end_id)]  # any one-character symbols
            spelled = [("".join(alphabet[s] for s in wubi.codec.encode(w)), c) for w, c in sorted(counts.items())]
            _, hf_s = cpu(args.repeat, hf_train, spelled, alphabet[4:wubi.codec.end_id], args.vocab - 4)
            del tokens, spelled

            byte = ByteLevelBPE.train(files=[path], vocab_size=args.vocab, backend="fast")
            export(byte, "tokenizer.json", Path(tmp) / "t.json")
            hf = HFTokenizer.from_file(str(Path(tmp) / "t.json"))
            hf.no_padding()
            lines = [ln for doc in genres[genre]["test"] for ln in doc.splitlines() if ln.strip()]
            blocks = [lines[i:i + BLOCK] for i in range(0, len(lines), BLOCK)]
            mb = sum(len(ln.encode("utf-8")) for ln in lines) / 1e6

            methods = (("ours", wubi.encode_batch, wubi, False), ("ours_ids", wubi.encode_batch_ids, wubi, False),
                       ("hf", hf.encode_batch, None, True), ("hf_unread", hf.encode_batch, None, False),
                       ("hf_ids", hf.encode_batch_fast, None, False))
            # Interleaved rounds, the fastest of each method's counting: the machine's load
            # changes over a run, and each method sees the same stretches of it.
            best = dict.fromkeys([m[0] for m in methods], float("inf"))
            for _ in range(max(args.repeat, ENCODE_ROUNDS)):
                for name, method, cold, read in methods:
                    best[name] = min(best[name], cpu(1, encode_blocks, method, blocks, cold, read)[1])
            rates = {name: mb / seconds for name, seconds in best.items()}
            rows.append((genre, mb, py_s, fast_s, hf_s, rates, wubi.encoder_backend))
    print("| genre | train CPU s: python / fast / HF | python / HF | fast / HF | held-out MB | encoder "
          "| MB per CPU s with offsets: ours / HF | ratio | HF not read | ratio | ids only: ours / HF | ratio |")
    print("|---|---|--:|--:|--:|---|---|--:|--:|--:|---|--:|")
    for genre, mb, py_s, fast_s, hf_s, r, backend in rows:
        print(f"| {genre} | {py_s:.2f} / {fast_s:.2f} / {hf_s:.2f} | {py_s / hf_s:.2f}x | {fast_s / hf_s:.2f}x "
              f"| {mb:.2f} | {backend} | {r['ours']:.2f} / {r['hf']:.2f} | {r['ours'] / r['hf']:.2f}x "
              f"| {r['hf_unread']:.2f} | {r['ours'] / r['hf_unread']:.2f}x "
              f"| {r['ours_ids']:.2f} / {r['hf_ids']:.2f} | {r['ours_ids'] / r['hf_ids']:.2f}x |")


if __name__ == "__main__":
    main()
