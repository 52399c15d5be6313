"""``wubitok userdata``: the typist's phrases, learned choices, pins and settings as one file."""
from __future__ import annotations

import argparse

from ..fileio import check_output
from ..ime.options import settings_path
from ..ime.userdata import export_user_data, import_user_data
from ..ime.userdb import FILENAME
from ..paths import user_data_dir
from .common import actions_of, help_formatter

EPILOG = """\
examples:
  wubitok userdata export ~/wubitok-userdata.json
  wubitok userdata import ~/wubitok-userdata.json      (on the other machine)

Import checks the whole file first and changes nothing if any of it is wrong;
then it merges: a learned count becomes the larger of the two, phrases are
added, pins and the settings replaced.  WUBITOK_DATA_DIR names the data folder."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("userdata", help="move phrases, learned choices and settings to another machine",
                       formatter_class=help_formatter, epilog=EPILOG,
                       description="Export the user's typing data (own phrases, learned choices, pins, "
                                   "settings) to one JSON file, or import such a file.")
    action = actions_of(p, EPILOG)
    action("export", "write the data to FILE", run_export).add_argument("file", metavar="FILE")
    action("import", "merge FILE into this machine's data", run_import).add_argument("file", metavar="FILE")


def _summary(data: tuple) -> str:
    frequencies, phrases, pins, _ = data
    return f"{len(phrases)} phrases, {len(frequencies)} learned choices, {len(pins)} pins and the settings"


def run_export(args: argparse.Namespace) -> int:
    check_output(args.file, [user_data_dir() / FILENAME, settings_path()])
    print(f"wrote {_summary(export_user_data(args.file))} to {args.file}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    print(f"imported {_summary(import_user_data(args.file))} from {args.file}")
    return 0
