"""``wubitok convert``: Chinese text to Wubi codes, or codes to Chinese."""
from __future__ import annotations

import argparse
import sys

from ..convert import CODE_STYLES, to_codes, to_hanzi
from .common import add_text_or_file, help_formatter, text_or_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert", help="Chinese text to Wubi codes, or codes to Chinese",
        formatter_class=help_formatter,
        description="--to wubi: each Chinese character becomes its code; adjacent codes are separated\n"
                    "by SEP (a space); everything else is passed through verbatim.\n"
                    "--to hanzi: CODES are separated by whitespace; each becomes the top-ranked entry\n"
                    "for that code (what the space bar would type); tokens without letters pass through.",
        epilog="examples:\n  wubitok convert --to wubi 你好，世界\n      wqiy vbg，anv lwjj\n"
               "  wubitok convert --to wubi --style shortest 我们的中国\n"
               "  wubitok convert --to wubi --file article.txt > codes.txt\n"
               "  wubitok convert --to hanzi 'wqiy vbg'\n      你好",
    )
    p.add_argument("--to", required=True, choices=("wubi", "hanzi"), help="direction")
    add_text_or_file(p)
    p.add_argument("--style", choices=CODE_STYLES, default="full",
                   help="with --to wubi: full codes or the shortest code that types the character first")
    p.add_argument("--sep", default=" ", metavar="SEP", help="with --to wubi: separator between codes")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = text_or_file(args)
    if args.to == "wubi":
        sys.stdout.write(to_codes(text, style=args.style, separator=args.sep))
        if not text.endswith("\n"):
            sys.stdout.write("\n")
    else:
        print(to_hanzi(text))
    return 0
