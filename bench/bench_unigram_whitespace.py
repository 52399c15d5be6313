"""Unigram on indented text: our trainer and sentencepiece, with and without whitespace-only pieces.

    nice -n 10 .venv/bin/python bench/bench_unigram_whitespace.py                 # Debian's Python files
    nice -n 10 .venv/bin/python bench/bench_unigram_whitespace.py DIR... --vocab-size 2000

The Python files under the given folders (default: a few packages of
Debian's /usr/lib/python3/dist-packages) in path order; every fifth file is
held out, the rest is the training text.  Each trainer learns a model of
``--vocab-size`` pieces with sentencepiece's settings for this engine
(identity normalization, byte fallback, no dummy prefix, no extra-whitespace
removal), once with ``allow_whitespace_only_pieces`` (our
``whitespace_pieces``, the default) and once without; the held-out tokens
are counted line by line (sentencepiece reads lines; a line break is not
one of its pieces).
"""
from __future__ import annotations

import argparse
import io
import json
import time
from pathlib import Path

DEFAULT_DIRS = [Path("/usr/lib/python3/dist-packages") / d for d in ("yaml", "markdown", "apt", "dbus")]


def python_files(dirs: list[Path]) -> list[Path]:
    return sorted(p for d in dirs for p in d.rglob("*.py"))


def sentencepiece_model(lines: list[str], vocab_size: int, whitespace_pieces: bool):
    import sentencepiece as spm

    proto = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=proto, model_type="unigram", vocab_size=vocab_size,
        normalization_rule_name="identity", byte_fallback=True, character_coverage=1.0, add_dummy_prefix=False,
        remove_extra_whitespaces=False, split_by_whitespace=True, allow_whitespace_only_pieces=whitespace_pieces,
        max_sentence_length=1 << 20, num_threads=1, minloglevel=2)
    return spm.SentencePieceProcessor(model_proto=proto.getvalue())


def main(argv: list[str] | None = None) -> int:
    from wubitok.engines.unigram.model import Unigram

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dirs", nargs="*", type=Path, default=DEFAULT_DIRS, help="folders of Python files")
    parser.add_argument("--vocab-size", type=int, default=4000)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    files = python_files(args.dirs)
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in files]
    train = "".join(t for i, t in enumerate(texts) if i % 5)
    held = [line for i, t in enumerate(texts) if not i % 5 for line in t.splitlines() if line]
    rows = {}
    for ws in (True, False):
        start = time.perf_counter()
        ours = Unigram.train(train, vocab_size=args.vocab_size, whitespace_pieces=ws)
        rows[f"wubitok unigram, whitespace_pieces={ws}"] = (
            sum(len(ours.encode(line)) for line in held), time.perf_counter() - start)
        start = time.perf_counter()
        sp = sentencepiece_model(train.splitlines(), args.vocab_size, ws)
        rows[f"sentencepiece, allow_whitespace_only_pieces={ws}"] = (
            sum(len(sp.encode(line)) for line in held), time.perf_counter() - start)
    summary = {"files": len(files), "train_chars": len(train), "held_out_lines": len(held),
               "held_out_chars": sum(map(len, held)), "vocab_size": args.vocab_size,
               "tokens": {name: tokens for name, (tokens, _) in rows.items()}}
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    print(f"{len(files)} files, {len(train):,} characters to train on, {summary['held_out_chars']:,} held out "
          f"({len(held):,} lines), vocabulary {args.vocab_size:,}")
    for name, (tokens, seconds) in rows.items():
        print(f"  {name:<48} {tokens:>9,} tokens  (train + encode {seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
