"""``wubitok table``: the typing table for Rime and fcitx5, and user dictionaries into your phrases."""
from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from ..errors import FileError
from ..ime import UserFrequencies, load_options
from ..ime.tables import completions, import_phrases, typing_table, write_fcitx5, write_rime
from ..ime.tables.fcitx5 import NAME as FCITX5_NAME
from ..ime.tables.rime import SCHEMA_ID
from ..ime.userdb import open_for_reading
from ..wubi.dictionary import CHARSETS, default_dictionary
from .common import actions_of, help_formatter

EPILOG = """\
examples:
  wubitok table export --to rime -o ~/.local/share/fcitx5/rime    (or ~/.config/ibus/rime)
      then: rime_deployer --add-schema wubi86_wubitok in that folder, and redeploy Rime
  wubitok table export --to fcitx5 -o out/
      then: copy out/wubitok.main.dict to ~/.local/share/fcitx5/table/ and
            out/wubitok.conf to ~/.local/share/fcitx5/inputmethod/, restart fcitx5
  wubitok table export --to rime -o out/ --charset all
  wubitok table import my_phrases.dict.yaml     (a Rime user dictionary)
  wubitok table import wubi86.dict.yaml --skip-invalid   (leave out symbols and z codes)
  wubitok table import words.txt                (word<TAB>code lines; no code: the standard phrase code)
  wubitok table import wubitok.txt              (code phrase lines: fcitx5 / fcitx / ibus-table / 极点 tables)
  wubitok table import mine.txt                 (Microsoft's code,pos=phrase lines)

The export holds the dictionary with your phrases, learned order and pins, in the
order the pad lists them, under your charset setting.  WUBITOK_DATA_DIR names the
data folder."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("table", help="export the typing table to Rime / fcitx5, import a user dictionary",
                       formatter_class=help_formatter, epilog=EPILOG,
                       description="Export the Wubi-86 table with your phrases and learned order as a Rime "
                                   "schema or an fcitx5 table, or import a user dictionary into your phrases: "
                                   "a Rime .dict.yaml, code phrase lines (fcitx5, fcitx, ibus-table, 极点), "
                                   "Microsoft's code,pos=phrase, or word<TAB>code lines.")
    action = actions_of(p, EPILOG)
    export = action("export", "write a Rime schema or an fcitx5 table", run_export)
    export.add_argument("--to", required=True, choices=("rime", "fcitx5"), help="the input method framework")
    export.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write into")
    export.add_argument("--charset", choices=CHARSETS, help="characters to include (default: your setting)")
    imp = action("import", "add a user dictionary (Rime, fcitx, ibus-table, 极点, Microsoft) to your phrases",
                 run_import)
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--skip-invalid", action="store_true",
                     help="leave out lines that are no Chinese phrase with a Wubi code (default: stop at the first)")


def run_export(args: argparse.Namespace) -> int:
    options = load_options()
    if args.charset:
        options = type(options).from_dict({**options.to_dict(), "charset": args.charset})
    out = Path(args.output)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileError(f"{out}: cannot create the folder ({exc.strerror or exc})") from None
    db = open_for_reading()
    try:
        entries = typing_table(default_dictionary(), db, options)
    finally:
        db.close()
    if args.to == "rime":
        # Ten pages of the completions of each code of 1-3 keys, in wubitok's order.
        listed = completions(default_dictionary(), options, count=10 * options.page_size)
        paths = write_rime(entries, out, page_size=options.page_size, completions=listed)
        how = f"add '{SCHEMA_ID}' to Rime's schema list (rime_deployer --add-schema {SCHEMA_ID}) and redeploy"
    else:
        paths = write_fcitx5(entries, out)
        dict_name = f"{FCITX5_NAME}.main.dict"
        if shutil.which("libime_tabledict") is None:
            how = (f"compile it with libime's tool (libime-bin): libime_tabledict {out / (FCITX5_NAME + '.txt')} "
                   f"{out / dict_name}; then ")
        else:
            how = ""
        how += (f"copy {dict_name} to ~/.local/share/fcitx5/table/ and {FCITX5_NAME}.conf to "
                "~/.local/share/fcitx5/inputmethod/, restart fcitx5")
    users = sum(e.user for e in entries)
    print(f"wrote {len(entries)} entries ({users} of them your phrases) to " + ", ".join(map(str, paths)))
    print(how)
    return 0


def run_import(args: argparse.Namespace) -> int:
    db = UserFrequencies()
    try:
        done = import_phrases(args.file, default_dictionary(), db, skip_invalid=args.skip_invalid)
    finally:
        db.close()
    skipped = f", {done.skipped} invalid lines skipped" if args.skip_invalid else ""
    print(f"added {done.added} phrases from {args.file} ({done.known} already typed by their codes{skipped})")
    return 0
