#!/usr/bin/env python3
"""Recreate the sample texts in this folder from Debian's ``fortunes-zh`` and ``rime-essay``.

    python resources/samples/make_samples.py [--deb fortunes-zh_2.98_all.deb] [--essay-deb rime-essay_*.deb]

From ``fortunes-zh``: strips the ANSI colour escapes and the fortune
separators ("%" lines).  From ``rime-essay``: the most used words of Rime's
word list (``essay.txt``, traditional characters, with usage weights),
heaviest first, converted to simplified characters by OpenCC's ``t2s``, one a
line (the modern everyday words the poems and fortunes lack: 吗, 呢, 她, 吃
are not in them).  UTF-8 text with LF line endings.  See SOURCES.md for
provenance.
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
WORDS_FILE = "words-zh.txt"
# How many of essay.txt's heaviest words: enough that the bundled Wubi-BPE
# model makes each of the 500 most used characters one token
# (tests/test_default_models.py), and its demo sentence has no piece of a character.
WORDS = 40_000
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


def words(essay: str) -> str:
    """The heaviest ``WORDS`` words of ``essay.txt`` in simplified characters, one a line
    (ties in weight by the word, so every run gives the same file)."""
    import opencc

    rows = []
    for line in essay.splitlines():
        word, _, weight = line.partition("\t")
        rows.append((-int(weight), word))
    t2s = opencc.OpenCC("t2s")
    kept = dict.fromkeys(t2s.convert(word) for _, word in sorted(rows)[:WORDS])
    return "\n".join(kept) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deb", type=Path)
    ap.add_argument("--essay-deb", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root, version = unpack("rime-essay", Path(tmp), args.essay_deb)
        print(f"rime-essay {version}")
        text = words((root / "usr" / "share" / "rime-data" / "essay.txt").read_text(encoding="utf-8"))
        (HERE / WORDS_FILE).write_text(text, encoding="utf-8", newline="\n")
        print(f"{WORDS_FILE}: {len(text):,} characters")
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
