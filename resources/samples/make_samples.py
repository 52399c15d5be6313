#!/usr/bin/env python3
"""Recreate the sample texts in this folder from Debian's ``fortunes-zh``.

    python resources/samples/make_samples.py [--deb fortunes-zh_2.98_all.deb]

Strips the ANSI colour escapes and the fortune separators ("%" lines) and
writes UTF-8 text with LF line endings.  See SOURCES.md for provenance.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from debian_package import unpack  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;]*m")
# name in the package -> (output file, how many characters to keep; None = all)
FILES = {
    "tang300": ("tang300.txt", None),
    "song100": ("song100.txt", None),
    "chinese": ("fortunes-zh.txt", 400_000),
}


def clean(text: str) -> str:
    lines = [ANSI.sub("", ln).rstrip() for ln in text.splitlines()]
    out = "\n".join("" if ln == "%" else ln for ln in lines)
    return re.sub(r"\n{3,}", "\n\n", out).strip() + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deb", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root, version = unpack("fortunes-zh", Path(tmp), args.deb)
        print(f"fortunes-zh {version}")
        src = root / "usr" / "share" / "games" / "fortunes"
        for name, (out, limit) in FILES.items():
            text = clean((src / name).read_text(encoding="utf-8"))
            if limit is not None and len(text) > limit:
                cut = text.rfind("\n\n", 0, limit)  # end on a whole fortune
                text = text[: cut + 1]
            (HERE / out).write_text(text, encoding="utf-8", newline="\n")
            print(f"{out}: {len(text):,} characters")


if __name__ == "__main__":
    main()
