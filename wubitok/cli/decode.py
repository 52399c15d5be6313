"""``wubitok decode``: token ids back to text with any saved model."""
from __future__ import annotations

import argparse
import re
import sys

from ..engines.base import load_tokenizer
from ..errors import InputError, excerpt
from ..fileio import JsonError, atomic_write_bytes, check_output, parse_json
from .common import add_encoding, help_formatter, note_encoding, read_input


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "decode", help="decode token ids back to text with a saved model",
        formatter_class=help_formatter,
        description="Decode token ids with a model file. IDS are integers separated by spaces or\n"
                    "commas; --ids-file takes what 'wubitok encode --json' printed, a JSON list of\n"
                    "ids, or the plain output of 'wubitok encode'. The text is written exactly as\n"
                    "decoded (no newline added), to stdout or, with -o, to a file (atomically).",
        epilog="examples:\n"
               "  wubitok decode -m wubi8k.json 1234 567 89\n"
               "  wubitok encode -m wubi8k.json --file a.txt --json > a.json\n"
               "  wubitok decode -m wubi8k.json --ids-file a.json -o a.roundtrip.txt",
    )
    p.add_argument("--model", "-m", required=True, metavar="MODEL", help="a model file (JSON)")
    p.add_argument("ids", nargs="*", metavar="IDS", help="token ids (or use --ids-file)")
    p.add_argument("--ids-file", metavar="PATH", help="read the ids from a file (- for stdin)")
    add_encoding(p)
    p.add_argument("--output", "-o", metavar="OUT", help="write the text to this file instead of stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.ids and args.ids_file:
        raise InputError("give IDS or --ids-file, not both")
    if args.ids_file:
        ids = _ids_from_file(args)
    elif args.ids:
        ids = _parse_ids(" ".join(args.ids), "IDS")
    else:
        raise InputError("no input: give IDS or --ids-file PATH")
    if args.output is not None:
        check_output(args.output, [args.model, *([args.ids_file] if args.ids_file else [])])
    tokenizer = load_tokenizer(args.model)
    data = _to_bytes(tokenizer.decode(ids))
    if args.output is not None:
        atomic_write_bytes(args.output, data)
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    return 0


def _to_bytes(text: str) -> bytes:
    # Text from the command line may hold undecodable bytes as lone surrogates
    # (surrogateescape): give those bytes back.  Other lone surrogates cannot
    # be UTF-8; they are written as their surrogatepass bytes.
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


# Plain ASCII decimal (not "+5", "1_000" or Arabic-Indic digits, which int()
# takes); 18 digits are far more than any vocabulary needs.
_ID = re.compile(r"[0-9]{1,18}")
_MAX_ID = 10**18


def _parse_ids(text: str, source: str) -> list[int]:
    out = []
    for word in re.split(r"[\s,]+", text.strip()):
        if not word:
            continue
        if not _ID.fullmatch(word):
            raise InputError(f"{source}: not a token id: {excerpt(word)}")
        out.append(int(word))
    return out


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _MAX_ID


def _ids_from_file(args: argparse.Namespace) -> list[int]:
    path = args.ids_file
    document = read_input(path, args.encoding)
    note_encoding(args, path, document.encoding)
    text = document.text
    try:
        data = parse_json(text)
    except JsonError as exc:
        if text.lstrip().startswith(("[", "{")):
            raise InputError(f"{path}: not a JSON list of ids ({exc})") from None
        return _parse_ids(text, path)  # the plain output of 'wubitok encode'
    if isinstance(data, dict):
        if "ids" not in data:
            raise InputError(f"{path}: a JSON object without \"ids\"")
        data = data["ids"]
    if _is_id(data):
        data = [data]
    if not isinstance(data, list) or not all(_is_id(i) for i in data):
        raise InputError(f"{path}: expected a JSON list of token ids (0 or more) or encode --json output")
    return data
