"""Dictionary commands: lookup, candidates, pinyin, convert."""
from __future__ import annotations

import argparse
import sys

from ..convert import CODE_STYLES, to_codes, to_hanzi
from ..dictionary import CHARSETS, default_dictionary
from ..errors import InputError, UnknownCodeError
from .common import add_text_or_file, help_formatter, print_json, text_or_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lookup", help="codes, pinyin and shared codes of characters",
        formatter_class=help_formatter,
        description="Look up every character of TEXT in the Wubi-86 dictionary.",
        epilog="examples:\n  wubitok lookup 你好\n  wubitok lookup 中国 --json\n\n"
               "With several characters, the phrase code by the Wubi-86 rules is printed too.",
    )
    p.add_argument("text", metavar="TEXT")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run_lookup)

    p = sub.add_parser(
        "candidates", help="ranked candidates for a code or code prefix",
        formatter_class=help_formatter,
        description="Entries for a Wubi code: exact matches in selector order, then completions "
                    "(most used first). 'z' stands for any one key.",
        epilog="examples:\n  wubitok candidates aaaa\n  wubitok candidates wq --limit 5\n"
               "  wubitok candidates wzi --json",
    )
    p.add_argument("code", metavar="CODE")
    p.add_argument("--limit", type=int, default=20, metavar="N", help="at most N candidates (default 20; 0 = all)")
    p.add_argument("--charset", choices=CHARSETS, default="all",
                   help="gbk: no CJK Ext B or private use; gb2312: simplified everyday characters")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run_candidates)

    p = sub.add_parser(
        "pinyin", help="characters for a pinyin syllable, with their Wubi codes",
        formatter_class=help_formatter,
        description="Reverse lookup by pinyin, with or without tones, most used characters first.",
        epilog="examples:\n  wubitok pinyin ni\n  wubitok pinyin ni3\n  wubitok pinyin nǐ --limit 5 --json\n"
               "  wubitok pinyin lv4      (v or u: for ü)",
    )
    p.add_argument("pinyin", metavar="PINYIN")
    p.add_argument("--limit", type=int, default=30, metavar="N", help="at most N characters (default 30; 0 = all)")
    p.add_argument("--charset", choices=CHARSETS, default="all")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run_pinyin)

    p = sub.add_parser(
        "convert", help="Chinese text to Wubi codes, or codes to Chinese",
        formatter_class=help_formatter,
        description="--to wubi: each Chinese character becomes its code; adjacent codes are separated\n"
                    "by SEP (a space); everything else is passed through verbatim.\n"
                    "--to hanzi: CODES are separated by whitespace; each becomes the top-ranked entry\n"
                    "for that code (what the space bar would type); tokens without letters pass through.",
        epilog="examples:\n  wubitok convert --to wubi 你好，世界\n      wqiy vbg，anv lwjj\n"
               "  wubitok convert --to wubi --style shortest 我们的中国\n"
               "  wubitok convert --to wubi --file article.txt > codes.txt\n"
               "  wubitok convert --to hanzi 'wqiy vbg'\n      你好",
    )
    p.add_argument("--to", required=True, choices=("wubi", "hanzi"), help="direction")
    add_text_or_file(p)
    p.add_argument("--style", choices=CODE_STYLES, default="full",
                   help="with --to wubi: full codes or the shortest code that types the character first")
    p.add_argument("--sep", default=" ", metavar="SEP", help="with --to wubi: separator between codes")
    p.set_defaults(func=run_convert)


def _limit(n: int) -> int | None:
    if n < 0:
        raise InputError("--limit must be 0 (all) or more")
    return None if n == 0 else n


def run_lookup(args: argparse.Namespace) -> int:
    d = default_dictionary()
    text = args.text
    if not text.strip():
        raise InputError("empty input")
    infos = [(ch, d.lookup(ch)) for ch in text if not ch.isspace()]
    if not any(info for _, info in infos):
        raise UnknownCodeError(f"no character of {text!r} is in the Wubi-86 dictionary")
    chars = [ch for ch, info in infos if info]
    phrase = d.phrase_code("".join(chars)) if len(chars) > 1 and all(i and i.full_code for _, i in infos) else None
    items = []
    for ch, info in infos:
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
        })
    if phrase:
        items.append({"text": "".join(chars), "phrase_code": phrase,
                      "in_table": any(c.text == "".join(chars) for c in d.exact_candidates(phrase))})
    if args.json:
        print_json(items)
        return 0
    for it in items:
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
    return 0


def run_candidates(args: argparse.Namespace) -> int:
    d = default_dictionary()
    found = d.candidates(args.code, limit=_limit(args.limit), charset=args.charset)
    if not found:
        raise UnknownCodeError(f"no entry for code {args.code!r}")
    if args.json:
        print_json([{"text": c.text, "code": c.code, "rank": c.rank, "weight": c.weight, "exact": c.exact}
                    for c in found])
        return 0
    for i, c in enumerate(found, 1):
        mark = "" if c.exact else "  (completion)"
        print(f"{i}\t{c.text}\t{c.code}\trank {c.rank}\tweight {c.weight}{mark}")
    return 0


def run_pinyin(args: argparse.Namespace) -> int:
    d = default_dictionary()
    hits = d.by_pinyin(args.pinyin, limit=_limit(args.limit), charset=args.charset)
    if not hits:
        raise UnknownCodeError(f"no character is read {args.pinyin!r}")
    if args.json:
        print_json([{"text": h.char, "pinyin": h.reading, "code": h.full_code, "weight": h.weight} for h in hits])
        return 0
    for h in hits:
        print(f"{h.char}\t{h.reading}\t{h.full_code or '-'}")
    return 0


def run_convert(args: argparse.Namespace) -> int:
    text = text_or_file(args)
    if args.to == "wubi":
        sys.stdout.write(to_codes(text, style=args.style, separator=args.sep))
        if not text.endswith("\n"):
            sys.stdout.write("\n")
    else:
        print(to_hanzi(text))
    return 0
