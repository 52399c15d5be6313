"""``wubitok train``: train a tokenizer of any registered type on text files."""
from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from ..engines.backends import AUTO_FAST_BYTES, BACKENDS, SAME_MODEL
from ..engines.base import available_models
from ..engines.pre_tokenizers.wubi import DEFAULT_MODE
from ..errors import InputError
from ..fileio import check_output, check_readable_text
from ..services.training import TrainRequest, check_options, resolve_backend, train_to_file
from ..wubi.codec import BOUNDARY_CHOICES, CODE_CHOICES, INDEX_CHOICES, LAYOUT_CHOICES
from .common import (
    ProgressLine,
    add_encoding,
    add_pre_tokens,
    codec_options,
    default_codec,
    help_formatter,
    note_encodings,
)
from .scale_options import add_scale_options


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train", help="train a tokenizer (wubi-bpe, bpe, ...) on UTF-8 text files",
        formatter_class=help_formatter,
        description="Train a tokenizer on one or more UTF-8 corpus files and save it as one JSON model\n"
                    "file (written only when training finished; Ctrl-C leaves no partial file).\n"
                    "Progress goes to stderr.",
        epilog="examples:\n"
               "  wubitok train --model wubi-bpe --vocab-size 8000 -o wubi8k.json corpus.txt\n"
               "  wubitok train --model bpe --vocab-size 32000 --special-token '<mask>' -o bpe.json a.txt b.txt\n"
               "  wubitok train --model wubi-bpe --vocab-size 32000 --backend fast -o wubi32k.json corpus.txt\n"
               "  wubitok train --model wubi-bpe --vocab-size 8000 --codec shortest/final-key -o s.json corpus.txt\n"
               "  wubitok train --model wubi-bpe --vocab-size 32000 --workers 2 -o wubi32k.json big.txt\n"
               "  wubitok train --model bpe --vocab-size 32000 --cluster tcp://10.0.0.5:8786 -o bpe.json big.txt\n"
               "  wubitok train --model wubi-bpe --vocab-size 32000 --counts part1.tsv --counts part2.tsv -o w.json\n"
               "  wubitok train --model wubi-bpe --vocab-size 8000 --sample 1000000 -o w.json huge.txt\n\n"
               "--workers, --cluster, --counts and --max-words train from pre-token counts (see\n"
               "'wubitok count'): the same model file as training in one process, except that\n"
               "--max-words prunes rare pre-tokens. wordpiece and unigram then use the built-in\n"
               "(python) trainer. --sample trains on N lines drawn at random (the same N and\n"
               "--seed, the same lines). The model file then works with 'wubitok encode' and\n"
               "'wubitok decode'.",
    )
    p.add_argument("corpus", nargs="*", metavar="CORPUS", help="text files to train on")
    add_encoding(p)
    p.add_argument("--model", "-m", required=True, type=_model_type, metavar="MODEL",
                   help="model type, e.g. wubi-bpe (a wrong name lists the available ones)")
    p.add_argument("--vocab-size", "-v", required=True, type=int, metavar="N",
                   help="vocabulary size, special tokens and base symbols included")
    p.add_argument("--min-frequency", type=int, default=2, metavar="F",
                   help="ignore pairs/pieces seen fewer than F times (default 2)")
    p.add_argument("--special-token", action="append", default=[], metavar="T", dest="special_tokens",
                   help="an extra special token, never split (repeatable)")
    p.add_argument("--backend", choices=BACKENDS, default="auto",
                   help="python (built in) or fast (tokenizers / sentencepiece: pip install wubitok[fast]); "
                        f"auto (default) = fast for corpora of {AUTO_FAST_BYTES // 1_000_000} MB or more "
                        "when installed, and always for wubi-bpe and bpe (the same model either way), "
                        "else python")
    p.add_argument("--codec", metavar="CODE[/BOUNDARY[/INDEX[/LAYOUT]]]",
                   help="wubi-bpe only: how Han characters are spelled, CODE one of "
                        f"{', '.join(CODE_CHOICES)}; BOUNDARY {', '.join(BOUNDARY_CHOICES)}; "
                        f"INDEX {', '.join(INDEX_CHOICES)}; LAYOUT {', '.join(LAYOUT_CHOICES)} "
                        f"(default {default_codec()}; index-last is not prefix-free: decoding part of "
                        "the ids can show a wrong character; measured in docs/benchmarks.md)")
    add_pre_tokens(p, f"default {DEFAULT_MODE}; stored in the model")
    add_scale_options(p)
    p.add_argument("--counts", action="append", default=[], metavar="TSV",
                   help="word<TAB>count file(s) made by 'wubitok count' (or Spark, Ray...) to train from, "
                        "added to the CORPUS counts (repeatable)")
    p.add_argument("--sample", type=int, metavar="N",
                   help="train on N lines of the corpus drawn at random (memory holds N lines)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="which random sample (default 0)")
    p.add_argument("--output", "-o", required=True, metavar="MODEL.json", help="where to save the model")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    p.set_defaults(func=run, stdin_copied=("corpus",))


def _model_type(name: str) -> str:
    known = available_models()
    if name not in known:
        raise argparse.ArgumentTypeError(f"unknown model type {name!r} (choose from {', '.join(known)})")
    return name


def run(args: argparse.Namespace) -> int:
    if args.codec is not None and args.model != "wubi-bpe":
        raise InputError(f"--codec is for wubi-bpe models, not {args.model}")
    if not args.corpus and not args.counts:
        raise InputError("no corpus: give text files to train on (or --counts TSV)")
    if args.sample is not None and args.sample < 1:
        raise InputError(f"--sample must be 1 or more, not {args.sample}")
    check_output(args.output, [*args.corpus, *(args.counts or [])])
    request = TrainRequest(
        model_type=args.model,
        files=tuple(args.corpus),
        vocab_size=args.vocab_size,
        output=Path(args.output),
        min_frequency=args.min_frequency,
        special_tokens=tuple(args.special_tokens),
        backend=args.backend,
        codec=codec_options(args.codec) if args.codec is not None else None,
        pre_tokens=args.pre_tokens,
        workers=args.workers,
        cluster=args.cluster,
        counts=tuple(args.counts),
        sample=args.sample,
        seed=args.seed,
        max_words=args.max_words,
    )
    check_options(request)  # before the corpus is read
    # Each file's encoding found (and named if not UTF-8) once, here.
    paths = check_readable_text(args.corpus, encoding=args.encoding) if args.corpus else []
    note_encodings(args, paths)
    request = dataclasses.replace(request, files=tuple(paths))
    if (args.backend == "auto" and request.model_type not in SAME_MODEL and resolve_backend(request) == "fast"
            and not args.quiet):
        corpus_bytes = sum(Path(f).stat().st_size for f in request.files)
        print(f"corpus is {corpus_bytes / 1e6:.0f} MB: training with the fast backend", file=sys.stderr)
    bar = None if args.quiet else ProgressLine(sys.stderr)
    result = train_to_file(request, progress=bar)
    if bar is not None:
        bar.finish()
    print(f"saved {args.model} model with {result.vocab_size} tokens to {args.output}", file=sys.stderr)
    return 0
