#!/usr/bin/env python3
"""Recreate the character frequency lists in this folder from Debian's ``rime-essay``.

    python resources/frequency/make_frequency.py [--deb rime-essay_*.deb]

``essay.txt`` is Rime's word list with usage weights, in traditional characters.
A character's weight is the sum of the weights of the words it occurs in;
``traditional.txt`` holds the most used characters in that order.
``simplified.txt`` is the same list after OpenCC's ``t2s`` (the weights of
characters that share a simplified form add up: 後 and 后 both count for 后).
Encoding detection (``wubitok/fileio/encoding.py``) reads them to tell which
reading of a legacy-encoded file is text.  See SOURCES.md for provenance.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

import opencc

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from debian_package import unpack  # noqa: E402

# How many characters each list keeps: measured on the bench's dev texts
# (bench/bench_encoding_detection.py), 3,000 to 12,000 detect alike within 1%.
KEEP = 6000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deb", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root, version = unpack("rime-essay", Path(tmp), args.deb)
        essay = (root / "usr" / "share" / "rime-data" / "essay.txt").read_text(encoding="utf-8")
    print(f"rime-essay {version}")
    traditional: Counter[str] = Counter()
    for line in essay.splitlines():
        word, _, weight = line.partition("\t")
        for char in word:
            traditional[char] += int(weight)
    t2s = opencc.OpenCC("t2s")
    simplified: Counter[str] = Counter()
    for char, weight in traditional.items():
        simple = t2s.convert(char)
        if len(simple) == 1:
            simplified[simple] += weight
    for name, counts in (("traditional.txt", traditional), ("simplified.txt", simplified)):
        # Ties broken by code point, so the lists are the same on every run.
        ranked = sorted(counts, key=lambda c: (-counts[c], c))[:KEEP]
        (HERE / name).write_text("".join(ranked) + "\n", encoding="utf-8", newline="\n")
        print(f"{name}: {len(ranked):,} characters")


if __name__ == "__main__":
    main()
