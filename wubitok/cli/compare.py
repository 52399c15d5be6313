"""``wubitok compare``: measure tokenizers side by side, or train them all and measure."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..compare.experiment import DEFAULT_MODELS, train_and_compare
from ..compare.external import TIKTOKEN_PATTERNS, load_external
from ..compare.report import FORMATS, format_results, json_records
from ..compare.run import compare_tokenizers
from ..compare.spans import TokenSpan, sample_spans
from ..engines.base import Tokenizer, load_tokenizer
from ..errors import InputError
from ..fileio import TextPath, check_output, check_readable_text
from ..services.earlyinit import require_qt
from .common import ProgressLine, add_encoding, help_formatter, note_encodings, print_json

EPILOG = """\
examples:
  wubitok compare 我们的中国很好 -m wubi-bpe.json -m bpe.json
  wubitok compare --file article.txt -m wubi-bpe.json --hf-tokenizer bert/tokenizer.json --format md
  wubitok compare --file a.txt --file b.txt -m wubi-bpe.json --spm-model zh.model --plot chart.png
  wubitok compare --file big.txt -m wubi-bpe.json -m bpe.json --workers 2
  wubitok compare --file poems.txt -m wubi-bpe.json --per-line --format json
  wubitok compare 你好 -m wubi-bpe.json --tiktoken cl100k_base.tiktoken --spans
  wubitok compare --train corpus.txt --vocab-size 8000 --held-out test.txt -o models/
  wubitok compare --train a.txt b.txt --vocab-size 2000 --held-out t.txt --models wubi-bpe,bpe --format json

The TEXT and each file are one sample each, whole, line breaks included: the
token count is what the tokenizer gives for that text or file (a file over 4 M
characters is measured in parts cut between lines). --per-line makes every
non-empty line a sample instead (line endings not encoded, empty lines skipped).
Columns: chars/tok and bytes/tok = input characters / UTF-8 bytes
per token; tok/Han = tokens covering a Han character per Han character; unk =
share of unknown tokens; round-trip = share of samples with decode(encode(x)) == x;
used = distinct ids seen; Rényi(2.5) = Rényi efficiency of the token distribution
(Zouhar et al. 2023); MB/s = encode throughput (a measurement, it varies).
External tokenizers need their packages: pip install wubitok[fast] (tokenizers,
sentencepiece) or wubitok[tiktoken]."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare", help="compare tokenizers on the same text, or train them all and compare",
        formatter_class=help_formatter, epilog=EPILOG,
        description="Measure wubitok models and other libraries' tokenizers on the same text;\n"
                    "with --train, first train every engine with the same vocabulary size.",
    )
    p.add_argument("text", nargs="*", metavar="TEXT", help="the input text (or use --file)")
    p.add_argument("--file", "-f", action="append", default=[], metavar="PATH",
                   help="read the input from text files (repeatable; streamed; - for stdin)")
    add_encoding(p)
    p.add_argument("-m", "--model", action="append", default=[], metavar="MODEL",
                   help="a wubitok model file (repeatable)")
    p.add_argument("--hf-tokenizer", action="append", default=[], metavar="PATH",
                   help="a Hugging Face tokenizer.json (repeatable)")
    p.add_argument("--spm-model", action="append", default=[], metavar="PATH",
                   help="a SentencePiece .model (repeatable)")
    p.add_argument("--tiktoken", action="append", default=[], metavar="PATH",
                   help="a tiktoken rank file, base64 token and rank per line (repeatable)")
    p.add_argument("--tiktoken-pattern", choices=("auto", *TIKTOKEN_PATTERNS), default="auto",
                   help="pre-tokenizer of the rank files (auto: by their size; default cl100k)")
    p.add_argument("--format", choices=FORMATS, default="table", help="output format (default: table)")
    p.add_argument("--plot", metavar="OUT.png", help="also draw a PNG chart: characters per token and token lengths")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="measure --file on N processes (same figures; encode time summed over them)")
    p.add_argument("--per-line", action="store_true",
                   help="every non-empty line is a sample, without its line ending (default: each text or file whole)")
    p.add_argument("--spans", action="store_true", help="also show each token of TEXT with the characters it covers")
    t = p.add_argument_group("training experiment")
    t.add_argument("--train", nargs="+", metavar="CORPUS", help="train the engines on these text files")
    t.add_argument("--vocab-size", type=int, metavar="N", help="vocabulary size of every trained model")
    t.add_argument("--held-out", nargs="+", metavar="FILE", help="measure on these files (not in the corpus)")
    t.add_argument("--models", default=",".join(DEFAULT_MODELS), metavar="LIST",
                   help=f"engines to train, comma-separated (default: {','.join(DEFAULT_MODELS)})")
    t.add_argument("--min-frequency", type=int, default=2, metavar="N", help="minimum pair/piece frequency (default 2)")
    t.add_argument("-o", "--output-dir", metavar="DIR", help="keep the trained models there as <model>.json")
    p.set_defaults(func=run, stdin_copied=("file", "train", "held_out"))


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}#{n}", n + 1
    taken.add(candidate)
    return candidate


def _display_name(path: str) -> str:
    p = Path(path)
    # Hugging Face files are all called tokenizer.json: the folder says which.
    return (p.parent.name or p.stem) if p.stem == "tokenizer" else p.stem


def _tokenizers(args: argparse.Namespace, taken: set[str]) -> list[tuple[str, Tokenizer]]:
    pairs: list[tuple[str, Tokenizer]] = []
    for path in args.model:
        pairs.append((_unique(_display_name(path), taken), load_tokenizer(path)))
    for kind, paths in (("hf", args.hf_tokenizer), ("spm", args.spm_model), ("tiktoken", args.tiktoken)):
        options = {"pattern": args.tiktoken_pattern} if kind == "tiktoken" else {}
        for path in paths:
            pairs.append((_unique(_display_name(path), taken), load_external(kind, path, **options)))
    return pairs


def _check_mode(args: argparse.Namespace) -> None:
    training = args.train is not None
    if training:
        if args.text or args.file:
            raise InputError("with --train the input is --held-out; give no TEXT or --file")
        if args.vocab_size is None or not args.held_out:
            raise InputError("--train needs --vocab-size N and --held-out FILE")
        if args.spans:
            raise InputError("--spans shows the tokens of TEXT; not with --train")
    else:
        extra = [flag for flag, value in (("--vocab-size", args.vocab_size), ("--held-out", args.held_out),
                                          ("--output-dir", args.output_dir)) if value is not None]
        if extra:
            raise InputError(f"{', '.join(extra)} only go with --train")
        if args.text and args.file:
            raise InputError("give TEXT or --file, not both")
        if not args.text and not args.file:
            raise InputError("no input: give TEXT, --file PATH or --train")
        if args.spans and not args.text:
            raise InputError("--spans shows the tokens of TEXT; not with --file")
    if args.spans and args.format == "csv":
        raise InputError("--spans cannot be shown as CSV; use --format table, md or json")


def _text_files(args: argparse.Namespace, paths: list[str], *, allow_empty: bool = False) -> list[TextPath]:
    checked = check_readable_text(paths, encoding=args.encoding, allow_empty=allow_empty)
    note_encodings(args, checked)
    return checked


_VISIBLE = str.maketrans({" ": "␣", "\t": "⇥", "\n": "⏎", "\r": "␍"})


def _spans_text(spans: dict[str, list[TokenSpan]]) -> str:
    lines = ["", "Tokens (␣ = space; a token that is a piece of a character shows that character in brackets):"]
    for name, toks in spans.items():
        shown = [s.display.translate(_VISIBLE) + (f"[{s.text.translate(_VISIBLE)}]" if s.partial else "") for s in toks]
        lines.append(f"{name} ({len(toks)}): " + " | ".join(shown))
    return "\n".join(lines) + "\n"


def _check_outputs(args: argparse.Namespace, models: list[str]) -> None:
    """Before any work: no output may replace an input or the bundled data."""
    inputs = [*args.file, *(args.train or []), *(args.held_out or []), *args.model, *args.hf_tokenizer,
              *args.spm_model, *args.tiktoken]
    if args.plot is not None:
        require_qt("--plot")  # the chart is drawn with Qt: say so before the comparison runs
        check_output(args.plot, inputs)
    if args.output_dir is not None:
        folder = check_output(args.output_dir, inputs)
        for model in models:
            check_output(folder / f"{model}.json", inputs)


def run(args: argparse.Namespace) -> int:
    _check_mode(args)
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    _check_outputs(args, models if args.train is not None else [])
    taken: set[str] = set()
    progress = ProgressLine(sys.stderr)
    try:
        if args.train is not None:
            taken.update(models)
            externals = _tokenizers(args, taken)
            corpus, held_out = _text_files(args, args.train), _text_files(args, args.held_out)
            experiment = train_and_compare(corpus, held_out, args.vocab_size, models=models,
                                           externals=externals, out_dir=args.output_dir,
                                           min_frequency=args.min_frequency, progress=progress,
                                           per_line=args.per_line)
            results = experiment.results
            pairs: list[tuple[str, Tokenizer]] = []
        else:
            pairs = _tokenizers(args, taken)
            if not pairs:
                raise InputError("no tokenizers: give -m MODEL, --hf-tokenizer, --spm-model or --tiktoken")
            # Without training, a log of stages would only be noise in a pipe.
            report = progress if progress.tty else None
            if args.text:
                if args.workers != 1:
                    raise InputError("--workers is for --file input")
                results = compare_tokenizers(pairs, " ".join(args.text), progress=report, per_line=args.per_line)
            else:
                files = _text_files(args, args.file, allow_empty=True)
                results = compare_tokenizers(pairs, files=files, progress=report, workers=args.workers,
                                             per_line=args.per_line)
    finally:
        progress.finish()

    spans = sample_spans(pairs, " ".join(args.text)) if args.spans else None
    if args.format == "json":
        records: list[dict[str, Any]] = json_records(results)
        if spans is not None:
            for rec in records:
                rec["spans"] = [s.to_json() for s in spans[rec["name"]]]
        print_json(records)
    else:
        sys.stdout.write(format_results(results, args.format))
        if spans is not None:
            sys.stdout.write(_spans_text(spans))
    if args.plot:
        # Qt only here, and only when a chart is asked for.
        from ..gui.widgets.report_chart import save_chart_png

        save_chart_png(results, args.plot)
        print(f"chart written to {args.plot}", file=sys.stderr)
    if args.train is not None and args.output_dir:
        print(f"trained models saved in {args.output_dir}", file=sys.stderr)
    return 0
