#!/usr/bin/env python3
"""Build ``dicts/wubi86.sqlite`` from Debian's ibus-table-wubi package.

Usage::

    python dicts/build_dictionary.py                 # fetch the .deb with apt-get download
    python dicts/build_dictionary.py --source wubi-jidian86.db
    python dicts/build_dictionary.py --deb ibus-table-wubi_1.8.12-1_all.deb

The output is a pure function of the source table and the versions of
pypinyin, sqlite-utils and SQLite (all recorded in the ``meta`` table):
rows are inserted in a fixed order and the file is VACUUMed, so two runs
give byte-identical files.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import pypinyin
import sqlite_utils
from pypinyin import Style

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "resources"))
from debian_package import unpack  # noqa: E402

OUTPUT = HERE / "wubi86.sqlite"
SOURCE_PACKAGE = "ibus-table-wubi"
TABLE_PATH = "usr/share/ibus-table/tables/wubi-jidian86.db"
SCHEMA_VERSION = 1


def fetch_source(deb: Path | None, workdir: Path) -> tuple[Path, str]:
    """Return (path to wubi-jidian86.db, package version)."""
    root, version = unpack(SOURCE_PACKAGE, workdir, deb)
    return root / TABLE_PATH, version


def code_kind(code: str, full: str | None) -> str:
    if code == full:
        return "full"
    if len(code) == 1:
        return "short1"  # 一级简码: one key, not always a prefix (不 = i, 发 = v)
    if full and len(code) < len(full) and full.startswith(code):
        return f"short{len(code)}"
    return "alt"  # another complete code (variant decomposition)


def pick_full_code(goucima: str, own_codes: list[tuple[str, int]]) -> str | None:
    """The character's full Wubi code; ``goucima`` of symbols starts with z."""
    if not goucima.startswith("z"):
        return goucima
    wubi = [(len(c), w, c) for c, w in own_codes if not c.startswith("z")]
    if not wubi:
        return None  # a symbol with only z shortcuts (e.g. ¤): no Wubi code
    # longest code, then heaviest, then alphabetical: deterministic
    return max(wubi, key=lambda t: (t[0], t[1], [-ord(x) for x in t[2]]))[2]


def is_common(text: str) -> bool:
    try:
        text.encode("gb2312")
        return True
    except UnicodeEncodeError:
        return False


def readings(char: str) -> list[str]:
    out = pypinyin.pinyin(char, style=Style.TONE, heteronym=True, errors="ignore")
    return out[0] if out else []


def build(source: Path, version: str, output: Path) -> dict:
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    ime = dict(src.execute("SELECT attr, val FROM ime"))
    goucima = dict(src.execute("SELECT zi, goucima FROM goucima"))
    rows = src.execute("SELECT tabkeys, phrase, freq FROM phrases ORDER BY id").fetchall()
    src.close()

    single_codes: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for code, text, weight in rows:
        if len(text) == 1:
            single_codes[text].append((code, weight))

    chars = {}
    for ch in sorted(goucima, key=ord):
        full = pick_full_code(goucima[ch], single_codes[ch])
        own = dict(single_codes[ch])
        weight = own.get(full, max(own.values(), default=0)) if full else max(own.values(), default=0)
        chars[ch] = {"char": ch, "cp": ord(ch), "full_code": full, "weight": weight,
                     "common": int(is_common(ch)), "source_code": goucima[ch]}

    entries, symbols = [], []
    for code, text, weight in rows:
        if code.startswith("z"):
            symbols.append({"code": code, "text": text, "weight": weight})
            continue
        single = len(text) == 1
        entries.append({
            "code": code, "text": text, "weight": weight,
            "kind": code_kind(code, chars[text]["full_code"]) if single else "phrase",
            "n_chars": len(text),
            "common": chars[text]["common"] if single else int(is_common(text)),
        })

    # 重码: rank every entry within its code by weight, then code point(s).
    by_code = defaultdict(list)
    for e in entries:
        by_code[e["code"]].append(e)
    for group in by_code.values():
        group.sort(key=lambda e: (-e["weight"], e["text"]))
        for i, e in enumerate(group):
            e["rank"] = i
    entries.sort(key=lambda e: (e["code"], e["rank"]))

    # The codec's index: rank among single characters sharing a full code.
    by_full = defaultdict(list)
    for c in chars.values():
        if c["full_code"]:
            by_full[c["full_code"]].append(c)
    for group in by_full.values():
        group.sort(key=lambda c: (-c["weight"], c["cp"]))
        for i, c in enumerate(group):
            c["char_rank"] = i
    for c in chars.values():
        c.setdefault("char_rank", None)

    symbols.sort(key=lambda s: (s["code"], -s["weight"], s["text"]))
    pinyin_rows = []
    for c in chars.values():
        for i, r in enumerate(readings(c["char"])):
            plain = pypinyin.contrib.tone_convert.to_normal(r)
            numbered = pypinyin.contrib.tone_convert.to_tone3(r, neutral_tone_with_five=True)
            pinyin_rows.append({"char": c["char"], "reading": r, "plain": plain.replace("ü", "v"),
                                "numbered": numbered.replace("ü", "v"), "ord": i, "weight": c["weight"]})

    if output.exists():
        output.unlink()
    db = sqlite_utils.Database(output)
    db.conn.execute("PRAGMA page_size = 4096")
    db["chars"].create({"char": str, "cp": int, "full_code": str, "weight": int, "char_rank": int,
                        "common": int, "source_code": str}, pk="char", not_null={"cp", "weight", "common"})
    db["entries"].create({"code": str, "rank": int, "text": str, "kind": str, "weight": int,
                          "n_chars": int, "common": int}, pk=("code", "rank"))
    db["symbols"].create({"code": str, "text": str, "weight": int}, pk=("code", "text"))
    db["pinyin"].create({"char": str, "ord": int, "reading": str, "plain": str, "numbered": str,
                         "weight": int}, pk=("char", "ord"))
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["chars"].insert_all(chars.values(), batch_size=5000)
    db["entries"].insert_all(entries, batch_size=5000)
    db["symbols"].insert_all(symbols, batch_size=5000)
    db["pinyin"].insert_all(pinyin_rows, batch_size=5000)
    db["entries"].create_index(["text"], index_name="entries_by_text")
    # Completions of a one-key prefix walk entries heaviest first and stop
    # after a page; a range scan would sort a twenty-fifth of the table.
    db.conn.execute("CREATE INDEX entries_by_weight ON entries (weight DESC, code, rank)")
    db["chars"].create_index(["full_code", "char_rank"], index_name="chars_by_full_code")
    db["pinyin"].create_index(["plain", "weight"], index_name="pinyin_by_plain")
    db["pinyin"].create_index(["numbered", "weight"], index_name="pinyin_by_numbered")
    db["pinyin"].create_index(["reading", "weight"], index_name="pinyin_by_reading")

    counts = {
        "characters": len(chars),
        "characters_with_wubi_code": sum(1 for c in chars.values() if c["full_code"]),
        "phrases": sum(1 for e in entries if e["n_chars"] > 1),
        "entries": len(entries),
        "symbol_shortcuts": len(symbols),
        "shared_codes": sum(1 for g in by_code.values() if len(g) > 1),
        "common_characters": sum(c["common"] for c in chars.values()),
        "pinyin_readings": len(pinyin_rows),
    }
    content_hash = hashlib.sha256()
    for table in ("chars", "entries", "symbols", "pinyin"):
        for row in db.conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2"):
            content_hash.update(json.dumps(row, ensure_ascii=False).encode("utf-8"))
            content_hash.update(b"\n")
    meta = {
        "schema_version": str(SCHEMA_VERSION),
        "source": f"Debian package {SOURCE_PACKAGE}, {TABLE_PATH}",
        "source_package": SOURCE_PACKAGE,
        "source_version": version,
        "source_table_name": ime.get("name", ""),
        "source_table_name_zh": ime.get("name.zh_cn", ""),
        "source_author": ime.get("author", ""),
        "source_license": ime.get("license", ""),
        "source_serial_number": ime.get("serial_number", ""),
        "build_tool": "dicts/build_dictionary.py",
        "pypinyin_version": pypinyin.__version__,
        "sqlite_utils_version": sqlite_utils.__version__
        if hasattr(sqlite_utils, "__version__")
        else _dist_version("sqlite-utils"),
        "sqlite_version": sqlite3.sqlite_version,
        "counts": json.dumps(counts, sort_keys=True),
        "content_hash": "sha256:" + content_hash.hexdigest(),
    }
    db["meta"].insert_all([{"key": k, "value": v} for k, v in sorted(meta.items())])
    db.conn.commit()
    db.conn.execute("VACUUM")
    db.conn.close()
    return meta


def _dist_version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--deb", type=Path, help=f"a downloaded {SOURCE_PACKAGE} .deb")
    g.add_argument("--source", type=Path, help="wubi-jidian86.db already extracted")
    ap.add_argument("--source-version", default="unknown", help="package version, with --source")
    ap.add_argument("-o", "--output", type=Path, default=OUTPUT)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.source:
            source, version = args.source, args.source_version
        else:
            source, version = fetch_source(args.deb.resolve() if args.deb else None, Path(tmp))
        tmp_out = args.output.with_name(args.output.name + ".tmp")
        meta = build(source, version, tmp_out)
        os.replace(tmp_out, args.output)
    print(f"wrote {args.output}: {meta['counts']} {meta['content_hash']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
