"""``wubitok lm-eval``: does a tokenizer help a language model?  Bits per character on held-out text."""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import InputError
from .common import ProgressLine, add_encoding, help_formatter, print_json

if TYPE_CHECKING:
    from ..services.lm_eval import LmEvalRequest

EPILOG = """\
examples:
  wubitok lm-eval -t wubi-bpe-6000 -t bpe-6000 --train corpus.txt --quick
  wubitok lm-eval -t wubi-bpe.json -t bpe.json -t chars --train train.txt --test test.txt --seeds 5
  wubitok lm-eval -t wubi-bpe-6000 -t tokenizer.json --train corpus.txt --steps 1000 --json > result.json

Each tokenizer (2-4: a model file of any kind 'wubitok compare' opens, a
bundled model by name: wubi-bpe-6000, bpe-6000, unigram-6000, wordpiece-6000,
or 'chars[:SIZE]', the character-level baseline) gets one small causal
transformer per seed, all of the same shape, trained on the same text for the
same steps, each window covering the same number of characters.  Reported on
the test text (or the last tenth of the training file): bits per character
(total NLL in bits / characters; comparable across tokenizers, unlike per-token
loss), the same on rare characters (outside the 3,500 most frequent of the
training text), tokens per character, parameters (embedding / non-embedding),
GFLOPs and CPU seconds.  Mean over the seeds with the 95% interval.
--quick: a small preset (300 steps, 64-character windows, the first million
characters of training text); two tokenizers on 3 MB take minutes on 2 cores.
The same seed gives the same numbers again on the same machine and --threads.
Needs PyTorch: pip install wubitok[lm].  A GPU is used when PyTorch sees one."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lm-eval", help="train a small language model per tokenizer and compare bits per character",
        formatter_class=help_formatter, epilog=EPILOG,
        description="Train one small causal language model per tokenizer on the same text and score\n"
                    "held-out text in bits per character (mean and 95% interval over seeds).",
    )
    p.add_argument("-t", "--tokenizer", action="append", default=[], metavar="MODEL",
                   help="a model file, a bundled model's name, or chars[:SIZE] (2-4 times)")
    p.add_argument("--train", nargs="+", required=True, metavar="FILE", help="training text files")
    p.add_argument("--test", nargs="+", default=[], metavar="FILE",
                   help="test text files (default: the last tenth of the training text)")
    add_encoding(p)
    p.add_argument("--seeds", type=int, default=3, metavar="N", help="seeds 0..N-1 (default 3)")
    p.add_argument("--quick", action="store_true", help="the small preset: minutes on 2 cores")
    p.add_argument("--steps", type=int, metavar="N", help="optimizer steps (default 400; --quick 300)")
    p.add_argument("--context-chars", type=int, metavar="N",
                   help="characters a training window covers (default 128; --quick 64)")
    p.add_argument("--batch", type=int, default=16, metavar="N", help="windows per step (default 16)")
    p.add_argument("--layers", type=int, default=2, metavar="N", help="transformer blocks (default 2)")
    p.add_argument("--heads", type=int, default=4, metavar="N", help="attention heads (default 4)")
    p.add_argument("--width", type=int, default=128, metavar="N", help="model width (default 128)")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (default 0.003)")
    p.add_argument("--train-chars", type=int, metavar="N", help="use the first N characters of the training text")
    p.add_argument("--test-chars", type=int, metavar="N", help="use the first N characters of the test text")
    p.add_argument("--threads", type=int, default=1, metavar="N", help="CPU threads (default 1; part of a run's seed)")
    p.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto", help="default: the GPU if there is one")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def request_from(args: argparse.Namespace) -> LmEvalRequest:
    # Imported here: numpy loads with them, and `wubitok --help` need not wait for it.
    from ..lm.experiment import LmConfig
    from ..services.lm_eval import LmEvalRequest

    if not 2 <= len(args.tokenizer) <= 4:
        raise InputError(f"give 2 to 4 tokenizers with -t, not {len(args.tokenizer)}")
    if args.seeds < 1:
        raise InputError("--seeds must be at least 1")
    for name in ("train_chars", "test_chars"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            raise InputError(f"--{name.replace('_', '-')} must be at least 1")
    config = LmConfig(n_layer=args.layers, n_head=args.heads, d_model=args.width, batch=args.batch, lr=args.lr,
                      seeds=tuple(range(args.seeds)), threads=args.threads, device=args.device)
    request = LmEvalRequest(args.tokenizer, args.train, args.test, config, args.train_chars, args.test_chars,
                            args.encoding)
    if args.quick:
        request = request.quick()
    changes = {k: v for k, v in (("steps", args.steps), ("context_chars", args.context_chars)) if v is not None}
    return replace(request, config=replace(request.config, **changes)) if changes else request


def run(args: argparse.Namespace) -> int:
    from ..lm.report import format_notes, format_table
    from ..services.lm_eval import run_lm_eval

    request = request_from(args)
    progress = ProgressLine(sys.stderr)
    try:
        result = run_lm_eval(request, progress=progress)
    finally:
        progress.finish()
    if args.json:
        print_json(result.to_json())
    else:
        sys.stdout.write(format_table(result) + format_notes(result))
    return 0
