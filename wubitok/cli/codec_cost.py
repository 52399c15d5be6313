"""``wubitok codec-cost``: per character, Wubi symbols against UTF-8 bytes."""
from __future__ import annotations

import argparse
import sys

from ..wubi.codec_cost import char_costs
from .common import add_text_or_file, codec_options, default_codec, help_formatter, print_json, text_or_file
from .segment import escape


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "codec-cost", help="what each character costs in Wubi symbols against UTF-8 bytes",
        formatter_class=help_formatter,
        description="Before merges, Wubi-BPE sees a character as its Wubi spelling (keys, the final\n"
                    "key, index digits) and byte-level BPE as its UTF-8 bytes. This prints, per\n"
                    "script, the symbols of the text under both, then the characters where the\n"
                    "Wubi spelling costs most over bytes (count x (symbols - bytes)): CHAR, COUNT,\n"
                    "SPELLING (as typed; digits are the index), WUBI symbols, UTF-8 bytes, EXTRA.\n"
                    "Use --cheapest for the characters where Wubi saves most.",
        epilog="examples:\n"
               "  wubitok codec-cost '宋词一百首'\n"
               "  wubitok codec-cost --file song100.txt --top 30\n"
               "  wubitok codec-cost --file a.txt --codec full --json",
    )
    add_text_or_file(p)
    p.add_argument("--codec", metavar="CODE[/BOUNDARY[/INDEX[/LAYOUT]]]",
                   help=f"codec options to spell with (default {default_codec()})")
    p.add_argument("--top", type=int, default=20, metavar="N", help="characters to list (default 20)")
    p.add_argument("--cheapest", action="store_true", help="list where Wubi saves most instead")
    p.add_argument("--json", action="store_true", help="print every character's figures as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = text_or_file(args)
    report = char_costs(text, codec_options(args.codec) if args.codec else None)
    if args.json:
        o = report.options
        print_json({
            "codec": f"{o.code}/{o.boundary}/{o.index}/{o.layout}",
            "chars": report.total_chars, "wubi_symbols": report.wubi_symbols, "utf8_bytes": report.utf8_bytes,
            "by_script": {k: {"chars": n, "wubi_symbols": w, "utf8_bytes": b}
                          for k, (n, w, b) in report.by_script().items()},
            "per_char": [{"char": c.char, "count": c.count, "spelling": c.spelling, "wubi": c.wubi,
                          "utf8": c.utf8, "extra": c.extra} for c in report.chars],
        })
        return 0
    out = sys.stdout
    out.write("script\tchars\twubi symbols\tutf-8 bytes\twubi/char\tbytes/char\n")
    rows = sorted(report.by_script().items()) + [("all", (report.total_chars, report.wubi_symbols,
                                                          report.utf8_bytes))]
    for script, (n, w, b) in rows:
        out.write(f"{script}\t{n}\t{w}\t{b}\t{w / n:.2f}\t{b / n:.2f}\n")
    chars = report.chars[::-1] if args.cheapest else report.chars
    out.write("\nchar\tcount\tspelling\twubi\tutf-8\textra\n")
    for c in chars[: max(0, args.top)]:
        out.write(f"{escape(c.char)}\t{c.count}\t{c.spelling or '-'}\t{c.wubi}\t{c.utf8}\t{c.extra:+d}\n")
    return 0
