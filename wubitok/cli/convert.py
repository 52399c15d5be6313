"""``wubitok convert``: Chinese text to Wubi codes, or codes to Chinese."""
from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from ..text.script import SCRIPTS, convert_script
from ..wubi.convert import CODE_STYLES, to_codes, to_hanzi
from .common import add_text_or_file, help_formatter, text_or_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert", help="Chinese text to Wubi codes, or codes to Chinese",
        formatter_class=help_formatter,
        description="--to wubi: each Chinese character becomes its code, SEP (a space) between codes.\n"
                    "The codes read back exactly: a character that is not the first entry on its code\n"
                    "gets its selector (fcu2 = 支, fcu = 去); text that could be read as codes (Latin\n"
                    "letters, digits, spaces) is quoted in backquotes (`` for a backquote in it).\n"
                    "--plain: codes only, everything else verbatim (what a typist reads; not exact).\n"
                    "--to hanzi: each code becomes the entry its selector names (the first without\n"
                    "one); quoted text and everything that is not a code is kept, separators dropped.\n"
                    "--to simplified|traditional|tw|hk: the text in that script through OpenCC's\n"
                    "standard tables (the 'opencc' extra), phrases in context (头发 -> 頭髮).",
        epilog="examples:\n  wubitok convert --to wubi 支持 f-string 和\n      fcu2 rffy ` f-string ` tkg\n"
               "  wubitok convert --to hanzi 'fcu2 rffy ` f-string ` tkg'\n      支持 f-string 和\n"
               "  wubitok convert --to wubi --plain 你好，世界\n      wqiy vbg，anv lwjj\n"
               "  wubitok convert --to wubi --style shortest 我们的中国\n"
               "  wubitok convert --to wubi --file article.txt > codes.txt\n"
               "  wubitok convert --to traditional 头发和面条\n      頭髮和麪條\n"
               "  wubitok convert --to simplified 頭髮",
    )
    p.add_argument("--to", required=True, choices=("wubi", "hanzi", *SCRIPTS),
                   help="Wubi codes, Chinese from codes, or a script: " + ", ".join(SCRIPTS))
    add_text_or_file(p)
    p.add_argument("--style", choices=CODE_STYLES, default="full",
                   help="with --to wubi: full codes or the shortest code that types the character first")
    p.add_argument("--sep", default=" ", metavar="SEP", help="separator between codes (default: a space)")
    p.add_argument("--plain", action="store_true",
                   help="with --to wubi: plain codes without selectors or quotes (not exact on the way back)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = text_or_file(args)
    if args.to == "wubi":
        sys.stdout.write(to_codes(text, style=args.style, separator=args.sep, plain=args.plain))
        if not text.endswith("\n"):
            sys.stdout.write("\n")
    elif args.plain:
        raise InputError("--plain goes with --to wubi")
    elif args.to == "hanzi":
        print(to_hanzi(text, separator=args.sep))
    else:
        sys.stdout.write(convert_script(text, args.to))
        if not text.endswith("\n"):
            sys.stdout.write("\n")
    return 0
