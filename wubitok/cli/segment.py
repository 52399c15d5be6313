"""The ``segment`` command: show the mixed-script runs of a text."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Iterable

from ..text.segment import Run, segment, segment_stream
from .common import add_text_or_file, help_formatter, streamed_file, text_or_file

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
    chunks = streamed_file(args)
    # A file is segmented as it is read (segment_stream: the same runs), so memory does not grow
    # with the file or its longest line (issue #37, 5).
    runs: Iterable[Run] = segment(text_or_file(args)) if chunks is None else segment_stream(chunks)
    if args.json:
        _write_json_list({"text": r.text, "kind": r.kind, "start": r.start, "end": r.end} for r in runs)
    else:
        sys.stdout.writelines(f"{r.kind}\t{r.start}\t{r.end}\t{escape(r.text)}\n" for r in runs)
    return 0


def _write_json_list(items: Iterable[dict]) -> None:
    """``print_json(list(items))``, written an item at a time."""
    first = True
    for item in items:
        body = json.dumps(item, ensure_ascii=False, indent=2).replace("\n", "\n  ")
        sys.stdout.write(("[\n  " if first else ",\n  ") + body)
        first = False
    sys.stdout.write("[]\n" if first else "\n]\n")
