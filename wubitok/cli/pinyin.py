"""``wubitok pinyin``: characters read as a pinyin syllable, with their Wubi codes."""
from __future__ import annotations

import argparse

from ..errors import UnknownCodeError, excerpt
from ..wubi.dictionary import CHARSETS, default_dictionary
from .common import help_formatter, limit_arg, print_json, utf8_argument


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "pinyin", help="characters for a pinyin syllable, with their Wubi codes",
        formatter_class=help_formatter,
        description="Reverse lookup by pinyin, with or without tones, most used characters first.",
        epilog="examples:\n  wubitok pinyin ni\n  wubitok pinyin ni3\n  wubitok pinyin nǐ --limit 5 --json\n"
               "  wubitok pinyin lv4      (v or u: for ü)",
    )
    p.add_argument("pinyin", metavar="PINYIN")
    p.add_argument("--limit", type=int, default=30, metavar="N", help="at most N characters (default 30; 0 = all)")
    p.add_argument("--charset", choices=CHARSETS, default="all")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    d = default_dictionary()
    hits = d.by_pinyin(utf8_argument(args.pinyin, "PINYIN"), limit=limit_arg(args.limit), charset=args.charset)
    if not hits:
        raise UnknownCodeError(f"no character is read {excerpt(args.pinyin)}")
    if args.json:
        print_json([{"text": h.char, "pinyin": h.reading, "code": h.full_code, "weight": h.weight} for h in hits])
        return 0
    for h in hits:
        print(f"{h.char}\t{h.reading}\t{h.full_code or '-'}")
    return 0
