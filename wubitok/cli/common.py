"""Helpers shared by the CLI commands: input from TEXT or --file, JSON output."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..codec import CodecOptions
from ..errors import InputError
from ..fileio import read_text


def add_text_or_file(parser: argparse.ArgumentParser, what: str = "TEXT") -> None:
    # nargs="*": unquoted words (wubitok convert --to hanzi wqiy vbg) are joined by spaces.
    parser.add_argument("text", nargs="*", metavar=what, help=f"the input {what.lower()} (or use --file)")
    parser.add_argument("--file", "-f", metavar="PATH", help="read the input from a UTF-8 file instead")


def text_or_file(args: argparse.Namespace, *, allow_empty: bool = False) -> str:
    words = args.text
    if isinstance(words, list):
        words = " ".join(words) if words else None
    if words is not None and args.file:
        raise InputError("give TEXT or --file, not both")
    if args.file:
        text = read_text(args.file)
    elif words is not None:
        text = words
    else:
        raise InputError("no input: give TEXT or --file PATH")
    if not text and not allow_empty:
        raise InputError("empty input")
    return text


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def help_formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def default_codec() -> str:
    o = CodecOptions()
    return f"{o.code}/{o.boundary}/{o.index}"


def codec_options(text: str) -> CodecOptions:
    """``--codec CODE[/BOUNDARY[/INDEX]]``: the parts left out take the defaults."""
    parts = text.split("/")
    if len(parts) > 3 or not all(parts):
        raise InputError(f"--codec takes CODE[/BOUNDARY[/INDEX]], not {text!r}")
    default = CodecOptions()
    values = parts + [default.boundary, default.index][len(parts) - 1 :]
    return CodecOptions(*values)
