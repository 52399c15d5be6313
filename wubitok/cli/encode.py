"""``wubitok encode``: text to token ids with any saved model, from one text to a whole corpus."""
from __future__ import annotations

import argparse
import os
import sys

from ..engines.base import load_tokenizer
from ..errors import InputError
from ..fileio import check_output
from ..scale import DOC_MODES, OUTPUT_FORMATS, encode_files
from .common import ProgressLine, help_formatter, print_json, read_input


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "encode", help="encode text (or a corpus, on all cores or a Dask cluster) to token ids",
        formatter_class=help_formatter,
        description="Encode TEXT (or a UTF-8 file, newlines included) with a model file made by\n"
                    "'wubitok train' (any model type). Plain output: the ids on one line, separated\n"
                    "by spaces. --json: one object {\"ids\", \"tokens\", \"offsets\"} for the whole input;\n"
                    "offsets are [start, end] character positions in the input.\n\n"
                    "With -o, a corpus: every document of the --file(s) (--docs lines, paragraphs or\n"
                    "files) encoded on its own, streamed, in order, into OUT as --format\n"
                    "  jsonl  one {\"ids\": [...]} per document (+ \"offsets\" with --offsets)\n"
                    "  bin    all ids back to back, little-endian uint16 (uint32 if the vocabulary\n"
                    "         needs it), OUT.idx (uint64 document starts + total) and OUT.json (header)\n"
                    "  npy    the same array as a .npy file, with OUT.idx and OUT.json\n"
                    "The output is the same for any --workers or --cluster, and appears only when\n"
                    "complete (Ctrl-C or an error leaves nothing).",
        epilog="examples:\n"
               "  wubitok encode -m wubi8k.json 你好，世界\n"
               "  wubitok encode -m wubi8k.json --file article.txt --json > article.ids.json\n"
               "  wubitok encode -m wubi8k.json --file a.txt --file b.txt -o train.bin --workers 2 --eod\n"
               "  wubitok encode -m wubi8k.json --file corpus.txt -o corpus.jsonl --offsets\n"
               "  wubitok encode -m wubi8k.json --file corpus.txt -o ids.npy --cluster local:2\n"
               "  wubitok encode -m wubi8k.json --file corpus.txt -o ids.bin --cluster tcp://10.0.0.5:8786\n"
               "  python -c \"import numpy; print(numpy.memmap('train.bin', 'uint16', 'r')[:10])\"",
    )
    p.add_argument("--model", "-m", required=True, metavar="MODEL", help="a model file (JSON)")
    p.add_argument("text", nargs="*", metavar="TEXT", help="the input text (or use --file)")
    p.add_argument("--file", "-f", action="append", default=[], metavar="PATH",
                   help="read the input from a UTF-8 file (repeatable with -o)")
    p.add_argument("--json", action="store_true", help="print ids, tokens and offsets as JSON")
    corpus = p.add_argument_group("corpus encoding (with -o)")
    corpus.add_argument("--output", "-o", metavar="OUT", help="write the encoded corpus here")
    corpus.add_argument("--format", choices=OUTPUT_FORMATS, help="jsonl, bin or npy (default: by OUT's extension)")
    corpus.add_argument("--docs", choices=DOC_MODES, default="lines", help="what a document is (default: lines)")
    corpus.add_argument("--workers", type=int, default=1, metavar="N", help="processes to encode with (default 1)")
    corpus.add_argument("--cluster", metavar="WHERE",
                        help="encode on Dask: local:N (a LocalCluster of N processes) or tcp://HOST:PORT")
    corpus.add_argument("--eod", action="store_true", help="end every document with the model's </s> ([SEP])")
    corpus.add_argument("--offsets", action="store_true", help="jsonl: add each token's [start, end] characters")
    corpus.add_argument("--quiet", "-q", action="store_true", help="no progress or summary on stderr")
    p.set_defaults(func=run, stdin_copied=("file",))


def _format(args: argparse.Namespace) -> str:
    if args.format:
        return args.format
    ext = os.path.splitext(args.output)[1].lstrip(".").lower()
    if ext in OUTPUT_FORMATS:
        return ext
    raise InputError(f"give --format ({', '.join(OUTPUT_FORMATS)}): {args.output!r} has no known extension")


def run_corpus(args: argparse.Namespace) -> int:
    if args.text:
        raise InputError("with -o, give the corpus as --file PATH (repeatable), not TEXT")
    if not args.file:
        raise InputError("with -o, give the corpus as --file PATH (repeatable)")
    check_output(args.output, [*args.file, args.model])
    tokenizer = load_tokenizer(args.model)
    # A progress line on a terminal only: in a log or a pipe it would be noise.
    bar = ProgressLine(sys.stderr) if not args.quiet and sys.stderr.isatty() else None
    try:
        header = encode_files(tokenizer, args.file, args.output, fmt=_format(args), docs=args.docs, eod=args.eod,
                              offsets=args.offsets, workers=args.workers, cluster=args.cluster,
                              progress=None if bar is None else (lambda done, total: bar("encoding", done, total)))
    finally:
        if bar is not None:
            bar.finish()
    if not args.quiet:
        print(f"wrote {args.output}: {header['documents']:,} documents, {header['tokens']:,} tokens"
              + (f" ({header['dtype']})" if header["dtype"] else ""), file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.output is not None:
        return run_corpus(args)
    corpus_only = [flag for flag, on in (("--workers", args.workers != 1), ("--cluster", args.cluster),
                                         ("--eod", args.eod), ("--offsets", args.offsets), ("--format", args.format))
                   if on]
    if corpus_only:
        raise InputError(f"{corpus_only[0]} is for corpus encoding: add -o OUT")
    if len(args.file) > 1:
        raise InputError("one --file without -o (several files: encode them as a corpus with -o OUT)")
    if args.text and args.file:
        raise InputError("give TEXT or --file, not both")
    if args.file:
        text = read_input(args.file[0], None).text
    elif args.text:
        text = " ".join(args.text)
    else:
        raise InputError("no input: give TEXT or --file PATH")
    tokenizer = load_tokenizer(args.model)
    enc = tokenizer.encode(text)
    if args.json:
        print_json(enc.to_json())
    else:
        sys.stdout.write(" ".join(map(str, enc.ids)) + "\n")
    return 0
