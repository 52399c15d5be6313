"""``wubitok settings``: the typing settings shared by the pad, ``wubitok type`` and IBus."""
from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

from ..errors import InputError, MissingExtraError
from ..ime.options import ImeOptions, load_options, missing_part, save_options, settings_path, update_options
from .common import actions_of, help_formatter, print_json

EPILOG = """\
examples:
  wubitok settings show
  wubitok settings set charset gb2312
  wubitok settings set page_size 9
  wubitok settings set auto_phrase 3        (a string typed char by char 3 times becomes a phrase)
  wubitok settings set output traditional
  wubitok settings set punctuation '{"[": "「", "]": "」"}'
  wubitok settings reset

Booleans take true/false (on/off, yes/no, 1/0).  The file is ime_settings.json in
the data folder (WUBITOK_DATA_DIR overrides it)."""

_TRUE = ("true", "on", "yes", "1")
_FALSE = ("false", "off", "no", "0")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("settings", help="show or change the typing settings",
                       formatter_class=help_formatter, epilog=EPILOG,
                       description="Show, change or reset the typing settings "
                                   "(candidates per page, charset, output script, 顶字, ...).")
    action = actions_of(p, EPILOG)
    show = action("show", "every setting and its value", run_show)
    show.add_argument("--json", action="store_true", help="print JSON")
    change = action("set", "change one setting", run_set)
    change.add_argument("key", metavar="KEY", help="a name as 'settings show' lists it")
    change.add_argument("value", metavar="VALUE")
    action("reset", "back to the defaults", run_reset)


def run_show(args: argparse.Namespace) -> int:
    values = load_options().to_dict()
    if args.json:
        print_json(values)
        return 0
    for key, value in values.items():
        print(f"{key}\t{json.dumps(value, ensure_ascii=False) if key == 'punctuation' else _show(value)}")
    return 0


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def run_set(args: argparse.Namespace) -> int:
    fields = {f.name: f for f in dataclasses.fields(ImeOptions)}
    if args.key not in fields:
        raise InputError(f"unknown setting {args.key!r} (one of {', '.join(fields)})")
    default = fields[args.key].default
    value = _parse(args.key, args.value, default)
    needs = missing_part(args.key, value)
    if needs is not None:  # stored, it would only fall back to the default wherever it is read
        raise MissingExtraError(f"{args.key} {args.value} needs {needs}")

    def change(saved: ImeOptions) -> ImeOptions:
        # from_dict checks the value against the others' rules
        return ImeOptions.from_dict({**saved.to_dict(), args.key: value})
    update_options(change)
    print(f"{args.key}\t{_show(args.value)}")
    return 0


def _parse(key: str, text: str, default: Any) -> Any:
    if isinstance(default, bool):
        word = text.strip().lower()
        if word not in _TRUE + _FALSE:
            raise InputError(f"{key} must be true or false, not {text!r}")
        return word in _TRUE
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise InputError(f"{key} must be a whole number, not {text!r}") from None
    if isinstance(default, tuple):  # the punctuation map: a JSON object
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if not isinstance(value, dict):
            raise InputError(f'{key} must be a JSON object such as {{"[": "「"}}, not {text!r}')
        return value
    return text


def run_reset(args: argparse.Namespace) -> int:
    save_options(ImeOptions())
    print(f"settings reset to the defaults ({settings_path()})")
    return 0
