"""``wubitok phrase``: the typist's own phrases (造词), forgetting a choice, pinning one."""
from __future__ import annotations

import argparse

from ..errors import InputError
from ..ime import UserFrequencies
from ..ime.phrases import check_code, phrase_entry, typed_by_table
from ..ime.userdata import MAX_POSITION
from ..ime.userdb import open_for_reading
from ..wubi.dictionary import default_dictionary
from .common import actions_of, help_formatter, print_json

EPILOG = """\
examples:
  wubitok phrase add 五笔输入法
      added 五笔输入法 under gtli (standard phrase code)
  wubitok phrase add 小明 --code ijjj
  wubitok phrase forget wqiy 仰泳      (forget its learned rank, or a phrase of yours)
  wubitok phrase pin wqiy 仰泳          (仰泳 first on wqiy from now on)
  wubitok phrase pin aaaa 工 --position 2
  wubitok phrase list --json

Phrases, learned choices and pins live in the user database of the data folder
(WUBITOK_DATA_DIR overrides it), shared with the pad and the IBus engine."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("phrase", help="own phrases (造词), forget or pin a candidate",
                       formatter_class=help_formatter, epilog=EPILOG,
                       description="Add your own phrases, forget a learned choice or a phrase, "
                                   "fix a candidate's place on its code, list what you added.")
    action = actions_of(p, EPILOG)

    add = action("add", "add a phrase under the standard Wubi phrase code or --code", run_add)
    add.add_argument("text", metavar="TEXT", help="Chinese characters only")
    add.add_argument("--code", metavar="CODE", help="1-4 keys a-y (default: the standard phrase code)")

    forget = action("forget", "forget a learned choice or your phrase on CODE", run_forget)
    forget.add_argument("code", metavar="CODE")
    forget.add_argument("text", metavar="TEXT")

    pin = action("pin", "keep TEXT at a fixed place among the candidates of CODE", run_pin)
    pin.add_argument("code", metavar="CODE")
    pin.add_argument("text", metavar="TEXT")
    pin.add_argument("--position", type=int, default=1, metavar="N", help="1 = first (default)")

    listing = action("list", "your phrases and pins", run_list)
    listing.add_argument("--json", action="store_true", help="print JSON")


def run_add(args: argparse.Namespace) -> int:
    d = default_dictionary()
    code, text = phrase_entry(d, args.text, args.code)
    if typed_by_table(d, code, text):
        print(f"{text} is in the table under {code} already")
        return 0
    db = UserFrequencies()
    try:
        added = db.add_phrase(code, text)
    finally:
        db.close()
    how = "" if args.code else " (standard phrase code)"
    print(f"added {text} under {code}{how}" if added else f"{text} is your phrase under {code} already")
    return 0


def run_forget(args: argparse.Namespace) -> int:
    code = check_code(args.code)
    db = UserFrequencies()
    try:
        forgotten = db.forget(code, args.text)
    finally:
        db.close()
    if not forgotten:
        raise InputError(f"nothing learned or added for {args.text} under {code}")
    print(f"forgot {args.text} under {code}")
    return 0


def run_pin(args: argparse.Namespace) -> int:
    code = check_code(args.code)
    if not 1 <= args.position <= MAX_POSITION + 1:
        raise InputError(f"--position must be 1-{MAX_POSITION + 1}, not {args.position}")
    db = UserFrequencies()
    try:
        # Only what the code types can be pinned there: a table entry or a phrase of the user's.
        if not typed_by_table(default_dictionary(), code, args.text) and args.text not in db.phrase_texts(code):
            raise InputError(f"{code} does not type {args.text} (add it first: wubitok phrase add)")
        db.pin(code, args.text, args.position - 1)
    finally:
        db.close()
    print(f"pinned {args.text} at {args.position} on {code}")
    return 0


def run_list(args: argparse.Namespace) -> int:
    db = open_for_reading()
    try:
        data = db.export_data()
    finally:
        db.close()
    rows = [{"code": c, "text": t, "source": s} for c, t, s in data["phrases"]]
    pins = [{"code": c, "text": t, "position": p + 1} for c, t, p in data["pins"]]
    if args.json:
        print_json({"phrases": rows, "pins": pins})
        return 0
    for r in rows:
        print(f"{r['code']}\t{r['text']}\t{r['source']}")
    for pin in pins:
        print(f"{pin['code']}\t{pin['text']}\tpinned at {pin['position']}")
    return 0
