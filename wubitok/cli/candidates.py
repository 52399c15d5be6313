"""``wubitok candidates``: ranked entries for a Wubi code or code prefix."""
from __future__ import annotations

import argparse

from ..errors import UnknownCodeError, excerpt
from ..wubi.dictionary import CHARSETS, default_dictionary
from .common import help_formatter, limit_arg, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "candidates", help="ranked candidates for a code or code prefix",
        formatter_class=help_formatter,
        description="Entries for a Wubi code: exact matches in selector order, then completions "
                    "(most used first). 'z' stands for any one key.",
        epilog="examples:\n  wubitok candidates aaaa\n  wubitok candidates wq --limit 5\n"
               "  wubitok candidates wzi --json",
    )
    p.add_argument("code", metavar="CODE")
    p.add_argument("--limit", type=int, default=20, metavar="N", help="at most N candidates (default 20; 0 = all)")
    p.add_argument("--charset", choices=CHARSETS, default="all",
                   help="gbk: no CJK Ext B or private use; gb2312: simplified everyday characters")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    d = default_dictionary()
    found = d.candidates(args.code, limit=limit_arg(args.limit), charset=args.charset)
    if not found:
        raise UnknownCodeError(f"no entry for code {excerpt(args.code)}")
    if args.json:
        print_json([{"text": c.text, "code": c.code, "rank": c.rank, "weight": c.weight, "exact": c.exact}
                    for c in found])
        return 0
    for i, c in enumerate(found, 1):
        mark = "" if c.exact else "  (completion)"
        print(f"{i}\t{c.text}\t{c.code}\trank {c.rank}\tweight {c.weight}{mark}")
    return 0
