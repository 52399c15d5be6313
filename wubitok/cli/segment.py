"""The ``segment`` command: show the mixed-script runs of a text."""
from __future__ import annotations

import argparse
import sys

from ..text.segment import segment
from .common import add_text_or_file, help_formatter, print_json, text_or_file

_NAMED_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "segment", help="split text into han / latin / digit / space / punct / emoji / other runs",
        formatter_class=help_formatter,
        description="Split TEXT into runs of one kind each, with their offsets (in characters).\n"
                    "Plain output is one run per line: KIND, START, END, TEXT, separated by tabs;\n"
                    "in TEXT, newlines, tabs, other invisible characters and backslashes are\n"
                    "escaped as in Python (\\n, \\u3000, \\\\), so every run stays on one line.",
        epilog="examples:\n  wubitok segment '你好abc'\n      han\t0\t2\t你好\n      latin\t2\t5\tabc\n"
               "  wubitok segment 'Hello, 世界! 123' --json\n  wubitok segment --file notes.txt",
    )
    add_text_or_file(p)
    p.add_argument("--json", action="store_true",
                   help='print a JSON list of {"text", "kind", "start", "end"}')
    p.set_defaults(func=run)


def escape(text: str) -> str:
    """``text`` on one visible line: invisible characters and backslashes escaped."""
    if text.isprintable() and "\\" not in text:
        return text
    return "".join(_escape_char(ch) for ch in text)


def _escape_char(ch: str) -> str:
    if ch in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[ch]
    if ch.isprintable():
        return ch
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def run(args: argparse.Namespace) -> int:
    text = text_or_file(args)
    runs = segment(text)
    if args.json:
        print_json([{"text": r.text, "kind": r.kind, "start": r.start, "end": r.end} for r in runs])
    else:
        sys.stdout.writelines(f"{r.kind}\t{r.start}\t{r.end}\t{escape(r.text)}\n" for r in runs)
    return 0
