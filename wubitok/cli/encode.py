"""``wubitok encode``: text to token ids with any saved model."""
from __future__ import annotations

import argparse
import sys

from ..engines.base import load_tokenizer
from .common import add_text_or_file, help_formatter, print_json, text_or_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "encode", help="encode text to token ids with a saved model",
        formatter_class=help_formatter,
        description="Encode TEXT (or a UTF-8 file, newlines included) with a model file made by\n"
                    "'wubitok train' (any model type). Plain output: the ids on one line, separated\n"
                    "by spaces. --json: one object {\"ids\", \"tokens\", \"offsets\"} for the whole input;\n"
                    "offsets are [start, end] character positions in the input.",
        epilog="examples:\n"
               "  wubitok encode -m wubi8k.json 你好，世界\n"
               "  wubitok encode -m wubi8k.json --file article.txt --json > article.ids.json\n"
               "  wubitok decode -m wubi8k.json --ids-file article.ids.json -o article.txt",
    )
    p.add_argument("--model", "-m", required=True, metavar="MODEL", help="a model file (JSON)")
    add_text_or_file(p)
    p.add_argument("--json", action="store_true", help="print ids, tokens and offsets as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    tokenizer = load_tokenizer(args.model)
    text = text_or_file(args, allow_empty=True)
    enc = tokenizer.encode(text)
    if args.json:
        print_json(enc.to_json())
    else:
        sys.stdout.write(" ".join(map(str, enc.ids)) + "\n")
    return 0
