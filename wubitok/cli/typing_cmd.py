"""``wubitok type``: feed a key script through the input engine, print what it commits."""
from __future__ import annotations

import argparse
import dataclasses
import sys

from ..errors import InputError, MissingExtraError
from ..ime import ImeEngine, load_options, parse_keys
from ..ime.options import EMPTY_CODE_RULES, OUTPUTS, missing_part
from ..wubi.dictionary import CHARSETS
from .common import help_formatter, print_json
from .typing_session import interactive

DESCRIPTION = """\
Feed KEYS through the Wubi-86 input engine as if typed, and print the committed text.

KEYS: letters, digits and punctuation stand for themselves, a space character for
the space bar; named keys go in braces: {space} {enter} {bs} {esc} {shift} {pgdn}
{pgup} {full} (full-width toggle) {punct} (Chinese punctuation toggle); {{ is a literal '{'.  As in an editor, {enter}
starts a new line and {bs} deletes the last character when no code is being typed.

The engine's rules: a-y type a code of up to 4 keys, z after the first key is a
wildcard; z first starts a pinyin lookup (digits pick, as everywhere; ; then 1-5
filters by tone: zni;3); space or punctuation commits the first
candidate of the page, 1-9 pick one, - and = turn pages; a 4-key code with one
candidate commits itself, a 5th key commits the first one.

Nothing is learned unless --learn is given, so a script types the same text every
time; with --learn, choices are remembered in the user's data folder (as in the pad)."""

EPILOG = """\
examples:
  wubitok type 'wqiyvb{space}'
      你好
  wubitok type 'khlg{space}g{space},wqiy2'
      中国一，仰泳
  wubitok type 'zni' --json            (pinyin lookup: 你 with its code wqiy as hint)
  wubitok type 'a=' --json --page-size 9
  wubitok type '"wqiy{shift}hello{shift}"'
      “wqiyhello”
  wubitok type 'znihao{space}'          (pinyin lookup of a phrase: 你好, hint wqvb)
  wubitok type 'zni3'                   (the third candidate of zni: 尼)
  wubitok type 'zni;3' --json           (only the readings ni3)
  wubitok type '3.14[ggtt]'
      3.14「五笔」
  wubitok type 'udnt{space}' --output traditional
      頭髮
  wubitok type 'cg{space}' --charset gb2312
  wubitok type                          (an interactive session: the pre-edit and candidates as you type)
  echo 'wqvb ' | wubitok type -         (the key script from a pipe)"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("type", help="type Wubi: feed keys through the input engine",
                       formatter_class=help_formatter, description=DESCRIPTION, epilog=EPILOG)
    p.add_argument("keys", metavar="KEYS", nargs="?",
                   help="the key script (quote it for the shell); none or -: an interactive session in the "
                        "terminal showing the pre-edit and the candidates (from a pipe: the script is read)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: committed text and the engine's state at the end "
                        "(preedit, candidates of the page with text/code/hint, page from 0, modes)")
    p.add_argument("--learn", action=argparse.BooleanOptionalAction, default=False,
                   help="order by and record the user's choices (default: --no-learn)")
    p.add_argument("--page-size", type=int, metavar="N", help="candidates per page, 1-9 (default 5)")
    p.add_argument("--charset", choices=CHARSETS,
                   help="all (incl. CJK Ext A/B), gbk (simplified and traditional), gb2312 (simplified)")
    p.add_argument("--simplified-first", action=argparse.BooleanOptionalAction,
                   help="list GB2312 text before the other candidates of a code")
    p.add_argument("--output", choices=OUTPUTS,
                   help="convert what is committed through OpenCC (traditional, tw, hk, simplified)")
    p.add_argument("--empty-code", choices=EMPTY_CODE_RULES,
                   help="a code without candidates on Space / a 5th key: clear it, keep it, keep it and beep")
    p.add_argument("--auto-commit", action=argparse.BooleanOptionalAction,
                   help="a 4-key code with a single candidate commits itself")
    p.add_argument("--top-commit", action=argparse.BooleanOptionalAction,
                   help="顶字: a 5th key commits the first candidate and starts a new code")
    p.set_defaults(func=run)


# Options of this command that override the saved settings of the same name.
_OVERRIDES = ("page_size", "charset", "simplified_first", "output", "empty_code", "auto_commit", "top_commit")


def run(args: argparse.Namespace) -> int:
    session = args.keys in (None, "-") and sys.stdin.isatty()
    if session and args.json:
        raise InputError("--json needs a key script (an interactive session has no end state to print)")
    keys = [] if session else parse_keys(sys.stdin.read() if args.keys in (None, "-") else args.keys)
    if not keys and not session:
        raise InputError("no keys given")
    options = load_options().to_dict()
    options.update({name: getattr(args, name) for name in _OVERRIDES if getattr(args, name) is not None})
    options["learning"] = args.learn
    needs = missing_part("output", args.output) if args.output is not None else None
    if needs is not None:  # asked for here: refused (a stored setting falls back instead, said once)
        raise MissingExtraError(f"--output {args.output} needs {needs}")
    engine = ImeEngine(**options)
    if engine.user_db is not None and engine.user_db.notice:
        print(f"wubitok type: {engine.user_db.notice}", file=sys.stderr)  # once: the next run finds a fresh file
    if session:
        try:
            return interactive(engine)
        finally:
            engine.close()
    try:
        text: list[str] = []
        for key in keys:
            result = engine.process(key)
            text.extend(result.committed)
            if not result.handled:
                # The keys an editor handles itself when no code is being typed.
                if key == "enter":
                    text.append("\n")
                elif key == "backspace" and text:
                    text.pop()
        state = engine.state
    finally:
        # Said after the keys too: the index and a write that fails make theirs while typing.
        for notice in engine.take_notices():
            print(f"wubitok type: {notice}", file=sys.stderr)
        engine.close()
    committed = "".join(text)
    if not args.json:
        print(committed)
        return 0
    print_json({
        "committed": committed,
        "preedit": state.preedit,
        "candidates": [dataclasses.asdict(c) for c in state.candidates],
        "page": state.page,
        "page_count": state.page_count,
        "chinese": state.chinese,
        "full_width": state.full_width,
        "chinese_punctuation": state.chinese_punctuation,
        "english_run": state.english_run,
        "pinyin": state.pinyin,
        "last_commit": dataclasses.asdict(state.last_commit) if state.last_commit else None,
        "alert": state.alert,
    })
    return 0
