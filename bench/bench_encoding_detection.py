"""Encoding detection of short Chinese texts: wubitok.fileio vs charset-normalizer.

Random snippets of the bundled samples (simplified, in GB18030) and of the same
text converted to traditional characters with Debian's ``opencc`` (in Big5);
the share of snippets whose encoding each detector names correctly.  Only
snippets that are not valid UTF-8 or ASCII count (those never reach a guess).

    python bench/bench_encoding_detection.py [--samples 500]
"""
from __future__ import annotations

import argparse
import random
import shutil
import subprocess

import charset_normalizer

from wubitok.fileio import detect_encoding
from wubitok.paths import resources_dir

GB_FAMILY = {"gb18030", "gbk", "gb2312"}


def _reference(data: bytes) -> str | None:
    best = charset_normalizer.from_bytes(data).best()
    return best.encoding if best else None


def _right(found: str | None, encoding: str) -> bool:
    return found is not None and (found == encoding or (encoding == "gb18030" and found in GB_FAMILY)
                                  or (encoding == "big5" and found in {"big5", "cp950", "big5hkscs"}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=500)
    args = ap.parse_args()
    simplified = "".join((resources_dir() / "samples" / n).read_text(encoding="utf-8")
                         for n in ("tang300.txt", "song100.txt", "fortunes-zh.txt"))
    texts = [("GB18030", simplified, "gb18030")]
    if shutil.which("opencc"):
        traditional = subprocess.run(["opencc", "-c", "s2t.json"], input=simplified, capture_output=True,
                                     text=True, check=True).stdout
        texts.append(("Big5", traditional, "big5"))
    rnd = random.Random(1)
    print("| encoding | characters | ours | charset-normalizer |\n|---|---|---|---|")
    for label, text, encoding in texts:
        for n in (2, 4, 8, 16, 64):
            ours = ref = total = 0
            while total < args.samples:
                start = rnd.randrange(len(text) - n)
                try:
                    data = text[start:start + n].encode(encoding)
                    data.decode("utf-8")
                    continue  # ASCII or valid UTF-8: not a guess
                except UnicodeEncodeError:
                    continue
                except UnicodeDecodeError:
                    pass
                total += 1
                ours += _right(detect_encoding(data), encoding)
                ref += _right(_reference(data), encoding)
            print(f"| {label} | {n} | {ours / total:.1%} | {ref / total:.1%} |")


if __name__ == "__main__":
    main()
