"""``wubitok lookup``: codes, pinyin and shared codes of the characters of a text."""
from __future__ import annotations

import argparse
from typing import Any

from ..errors import InputError, UnknownCodeError, excerpt
from ..ime.user_lookup import UserPhrase, phrases_in_text, phrases_of_code, read_user_phrases
from ..wubi.dictionary import WubiDictionary, default_dictionary, is_wubi_code
from ..wubi.query import code_entries, split_items, text_entries, verified_split
from .common import help_formatter, print_json, utf8_argument


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lookup", help="codes, pinyin and shared codes of characters",
        formatter_class=help_formatter,
        description="Look up every character of TEXT in the Wubi-86 dictionary, or the entries of a code.",
        epilog="examples:\n  wubitok lookup 你好\n  wubitok lookup 中国 --json\n  wubitok lookup wqiy\n\n"
               "Under each character, its split into roots (字根) and their keys: 钅 彐 二 廴 → q v f p,\n"
               "shown only where it gives the dictionary's own code (docs/wubi-splits.md).\n"
               "With several characters, the phrase code by the Wubi-86 rules is printed too.\n"
               "Your own phrases (wubitok phrase add) in TEXT or under CODE are shown as 'user phrase',\n"
               "read from the user database of the data folder (WUBITOK_DATA_DIR overrides it).",
    )
    p.add_argument("text", metavar="TEXT|CODE", help="Chinese text, or a Wubi code (1-4 keys a-y)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _user_item(p: UserPhrase) -> dict[str, Any]:
    return {"text": p.text, "code": p.code, "user": True, "source": p.source}


def _user_line(text: str, code: str) -> str:
    return f"{text}\t{code}\tuser phrase"


def run(args: argparse.Namespace) -> int:
    d = default_dictionary()
    text = utf8_argument(args.text)
    if not text.strip():
        raise InputError("empty input")
    if is_wubi_code(text):
        return _run_code(d, text, args.json)
    mine = phrases_in_text(read_user_phrases(), text)
    found = text_entries(text, dictionary=d)
    if not found.known and not mine:
        raise UnknownCodeError(f"no character of {excerpt(text)} is in the Wubi-86 dictionary")
    items: list[dict[str, Any]] = []
    splits = {ch: verified_split(ch, dictionary=d) for ch, info in found.chars if info and info.full_code}
    for ch, info in found.chars:
        if info is None:
            items.append({"text": ch, "full_code": None, "codes": [], "pinyin": [], "rank": None,
                          "shares_code_with": [], "in_dictionary": False})
            continue
        items.append({
            "text": ch, "full_code": info.full_code,
            "codes": [{"code": c.code, "kind": c.kind, "rank": c.rank} for c in info.codes],
            "pinyin": info.pinyin, "rank": info.rank, "weight": info.weight, "common": info.common,
            "shares_code_with": [{"text": c.text, "rank": c.rank} for c in info.shares_code_with],
            "in_dictionary": True,
            "split": split_items(splits.get(ch)),
        })
    if found.phrase:
        items.append({"text": "".join(found.known), "phrase_code": found.phrase, "in_table": found.phrase_in_table})
    items += [_user_item(p) for p in mine]
    if args.json:
        print_json(items)
        return 0
    for it in items:
        if it.get("user"):
            print(_user_line(it["text"], it["code"]))
            continue
        if "phrase_code" in it:
            print(f"{it['text']}\tphrase code {it['phrase_code']}" + ("" if it["in_table"] else " (not in table)"))
        elif not it["in_dictionary"]:
            print(f"{it['text']}\t(not in the dictionary)")
        else:
            short = " ".join(c["code"] for c in it["codes"] if c["kind"].startswith("short"))
            shares = " ".join(f"{s['rank'] + 1}.{s['text']}" for s in it["shares_code_with"])
            line = f"{it['text']}\t{it['full_code'] or '-'}"
            line += f"\tshort: {short}" if short else ""
            line += f"\t{'/'.join(it['pinyin'])}" if it["pinyin"] else ""
            if it["rank"] is not None:
                line += f"\tselector {it['rank'] + 1}"
            line += f"\tshares code with: {shares}" if shares else ""
            print(line)
            if not it["full_code"]:
                continue
            split = splits.get(it["text"])
            print("\t" + (split.text() if split else "no verified split (docs/wubi-splits.md)"))
    return 0


def _run_code(d: WubiDictionary, code: str, as_json: bool) -> int:
    """The dictionary's entries of ``code`` in selector order, then the user's phrases under it."""
    entries = code_entries(code, dictionary=d)
    mine = phrases_of_code(read_user_phrases(), code)
    if not entries and not mine:
        raise UnknownCodeError(f"no character of {excerpt(code)} is in the Wubi-86 dictionary,"
                               " and no entry or phrase of yours has it as its code")
    if as_json:
        print_json([{"text": c.text, "code": c.code, "rank": c.rank, "weight": c.weight, "user": False}
                    for c in entries] + [_user_item(p) for p in mine])
        return 0
    for c in entries:
        print(f"{c.text}\t{c.code}\tselector {c.rank + 1}")
    for p in mine:
        print(_user_line(p.text, p.code))
    return 0
