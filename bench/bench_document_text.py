"""What DocumentText costs per keystroke in a 1 MB editor: BMP-only text against the same text with
one character outside the BMP (an emoji), which once made it read the whole document after each edit.

Run: QT_QPA_PLATFORM=offscreen python bench/bench_document_text.py [--chars N] [--keys K]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication, QPlainTextEdit

from wubitok.gui.support.document_text import DocumentText, raw_text

SAMPLE = Path(__file__).resolve().parent.parent / "resources" / "samples" / "tang300.txt"


def per_key_ms(text: str, keys: int) -> list[float]:
    edit = QPlainTextEdit()
    edit.setPlainText(text)
    follower = DocumentText(edit.document())
    cursor = edit.textCursor()
    cursor.setPosition(len(text) // 2)
    times = []
    for _ in range(keys):
        start = time.perf_counter()
        cursor.insertText("字")
        times.append((time.perf_counter() - start) * 1000)
    assert follower.text() == raw_text(edit.document())  # the copy is still the document's text
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chars", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=30)
    args = parser.parse_args()
    _app = QApplication(sys.argv)
    base = SAMPLE.read_text(encoding="utf-8")
    text = (base * (args.chars // len(base) + 1))[:args.chars]
    for label, sample in (("BMP only", text), ("with one emoji", text + "\U0001F600")):
        times = per_key_ms(sample, args.keys)
        print(f"{label:15} per key: median {statistics.median(times):.2f} ms, max {max(times):.2f} ms")


if __name__ == "__main__":
    main()
