"""The ``wubitok`` command line: a thin client of the library.

Each command lives in its own module here and exposes ``register(subparsers)``,
which adds a parser whose ``func(args) -> int`` runs the command.  User errors
(``WubitokError``) become one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn, Sequence

from .. import __version__
from ..errors import WubitokError

# Order here is the order in ``wubitok --help``.
COMMAND_MODULES = [
    "lookup",
    "candidates",
    "pinyin",
    "convert",
    "segment",
    "typing_cmd",
    "phrase",
    "settings_cmd",
    "userdata",
    "table",
    "train",
    "count",
    "encode",
    "decode",
    "export",
    "gui",
    "compare",
    "ibus",
    "codec_cost",
]

EXIT_USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other user error; --help has the usage.
        self.exit(EXIT_USER_ERROR, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="wubitok",
        description="Wubi-86 dictionary, typing and Wubi-BPE tokenizers, offline.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'wubitok COMMAND --help' for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"wubitok {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def _utf8_streams() -> None:
    # Redirected output on Windows uses the locale's code page, which cannot
    # hold every character we print (Ext B, full-width token symbols).
    for stream in (sys.stdout, sys.stderr):
        if (getattr(stream, "encoding", "") or "").lower().replace("-", "") != "utf8" and hasattr(
            stream, "reconfigure"
        ):
            stream.reconfigure(encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    _utf8_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except WubitokError as exc:
        print(f"wubitok {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print(f"wubitok {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `wubitok ... | head` closed the pipe: not an error worth a traceback.
        return 0


def run() -> None:
    sys.exit(main())
