"""Encoding detection of Chinese text files: wubitok.fileio vs charset-normalizer.

Two tables, on the held-out test split of the genre corpora (``genres.py``:
Debian's manpages-zh in zh_CN and zh_TW, fortunes-zh's modern fortunes and
classical poems), none of which the detector's frequency lists come from:

1. **Short texts**: random snippets of 2 to 64 characters, simplified text in
   GB18030, traditional text in Big5 (zh_TW as written; fortunes and classical
   converted with OpenCC's ``s2t``).  Only snippets that are not valid UTF-8 or
   ASCII count (those never reach a guess).  Right = the encoding is named.
2. **Files with a flaw**: 64-character snippets that end inside their last
   character (a cut file), or with one foreign sequence in the middle (a
   GB18030 four-byte character in Big5 text; a stray ``\\xff`` in GB18030 or
   UTF-8 text).  Right = the snippet's own encoding is named, so reading it
   stops at the flaw with a one-line error instead of reading mojibake in an
   encoding that merely decodes every byte (charset-normalizer is counted right
   when it names that encoding).  "Misread" is the share named as another
   encoding: text read as mojibake without a word (the rest is refused as not
   text, also with one line).
3. **Files as people keep them**: vocabulary lists (20 words of the fortunes,
   a tab, their pinyin with tone marks, in GBK); 20 lines of the fortunes in
   traditional characters as Windows saves Big5 (OpenCC ``s2t``, CP950: 裏 for
   every 里) and as Hong Kong does (``s2hk``, Big5-HKSCS: 啓, 户, 説); the same
   with one line quoting a Japanese name (の, which Big5-HKSCS reads as 攴).
4. **Not Chinese**: Japanese man pages (Debian's manpages-ja) in Shift-JIS and
   EUC-JP, encodings wubitok does not read; GB18030 or Big5 decodes most of
   them into mojibake.  Refused = detection says "not text" (one line, the
   user gives ``--encoding``); charset-normalizer is right when it names the
   encoding.

    python bench/bench_encoding_detection.py [--samples 500] [--split test]
"""
from __future__ import annotations

import argparse
import gzip
import random
import sys
import tempfile
from pathlib import Path
from typing import Callable

import charset_normalizer
import opencc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import DATA, extract_package, roff_to_text  # noqa: E402
from genres import load_genres  # noqa: E402

from wubitok.fileio import detect_encoding  # noqa: E402

GB_FAMILY = {"gb18030", "gbk", "gb2312"}
# A snippet and its encoding -> the flawed file (the foreign sequence goes between two characters).
FLAWS: dict[str, Callable[[str, str], bytes]] = {
    "cut in the last character": lambda snippet, enc: snippet.encode(enc)[:-1],
    "one foreign character inside": lambda snippet, enc: (
        snippet[:len(snippet) // 2].encode(enc) + ("\U00020000".encode("gb18030") if enc == "big5" else b"\xff")
        + snippet[len(snippet) // 2:].encode(enc)),
}


def _reference(data: bytes) -> str | None:
    best = charset_normalizer.from_bytes(data).best()
    return best.encoding if best else None


def _right(found: str | None, encoding: str) -> bool:
    return found is not None and (found == encoding or (encoding == "gb18030" and found in GB_FAMILY)
                                  or (encoding == "big5" and found in {"big5", "cp950", "big5hkscs"}))


def _texts(split: str) -> list[tuple[str, str, str]]:
    genres = load_genres()
    s2t = opencc.OpenCC("s2t")
    texts = [(f"{g} (GB18030)", "\n".join(genres[g][split]), "gb18030") for g in ("zh_CN", "fortunes", "classical")]
    texts.append(("zh_TW (Big5)", "\n".join(genres["zh_TW"][split]), "big5"))
    texts += [(f"{g}, s2t (Big5)", s2t.convert("\n".join(genres[g][split])), "big5") for g in ("fortunes", "classical")]
    return texts


def _japanese() -> str:
    cache = DATA / "manpages-ja.txt"
    if not cache.exists():
        with tempfile.TemporaryDirectory() as tmp:
            root = extract_package("manpages-ja", Path(tmp)) / "usr" / "share" / "man" / "ja"
            pages = []
            for page in sorted(root.rglob("*.gz")):
                try:
                    pages.append(roff_to_text(gzip.decompress(page.read_bytes()).decode("utf-8")))
                except UnicodeDecodeError:
                    continue
        cache.write_text("\n".join(pages), encoding="utf-8")
    return cache.read_text(encoding="utf-8")


def _snippets(rnd: random.Random, text: str, encoding: str, n: int, samples: int, *, flawed: bool = False):
    found = tries = 0
    while found < samples and tries < 200 * samples:
        tries += 1
        start = rnd.randrange(len(text) - n)
        snippet = text[start:start + n]
        try:
            data = snippet.encode(encoding)
        except UnicodeEncodeError:
            continue
        if not flawed:
            try:
                data.decode("utf-8")
                continue  # ASCII or valid UTF-8: not a guess
            except UnicodeDecodeError:
                pass
        elif data[-1] < 0x80:
            continue  # a cut needs a multi-byte last character
        found += 1
        yield snippet


def _reads(data: bytes, encoding: str | None) -> bool:
    try:
        return encoding is not None and bool(data.decode(encoding))
    except (UnicodeDecodeError, LookupError):
        return False


def _reads_as(data: bytes, encoding: str | None, truth: str) -> bool:
    return _reads(data, encoding) and data.decode(encoding or "") == data.decode(truth)


def _kept_files(rnd: random.Random, fortunes: str, samples: int) -> None:
    from wubitok.wubi.dictionary import default_dictionary

    d = default_dictionary()
    words = sorted({w for w in (fortunes[i:i + 2] for i in range(len(fortunes) - 1))
                    if all("\u4e00" <= c <= "\u9fff" and d.pinyin(c) for c in w)})
    lines = [line for line in fortunes.splitlines() if len(line) >= 8]
    s2t, s2hk = opencc.OpenCC("s2t"), opencc.OpenCC("s2hk")
    kinds: list[tuple[str, str, Callable[[], str]]] = [
        ("vocabulary list with pinyin", "gbk",
         lambda: "".join(f"{w}\t{' '.join(d.pinyin(c)[0] for c in w)}\n" for w in rnd.sample(words, 20))),
        ("traditional, 20 lines", "cp950", lambda: s2t.convert("\n".join(rnd.sample(lines, 20)))),
        ("Hong Kong, 20 lines", "big5hkscs", lambda: s2hk.convert("\n".join(rnd.sample(lines, 20)))),
        # Big5 has kana, and a Japanese name in a Taiwanese text keeps its の
        ("traditional with の, 20 lines", "cp950",
         lambda: s2t.convert("\n".join(rnd.sample(lines, 19) + ["今天去小林の店吃拉麵。"]))),
    ]
    print("\nFiles as people keep them\n\n| file | encoding | ours right | ours misread | charset-normalizer right |\n"
          "|---|---|---|---|---|")
    # Right = the file reads, in the encoding named, as the text it holds; misread = it reads
    # as other text; the rest is refused, or fails at a character the encoding named lacks.
    for label, encoding, make in kinds:
        right = misread = ref = total = 0
        while total < samples:
            try:
                data = make().encode(encoding)
            except UnicodeEncodeError:
                continue
            total += 1
            found = detect_encoding(data)
            # Right: the file reads, in the encoding named, as the text it holds.
            right += _reads_as(data, found, encoding)
            misread += found is not None and not _reads_as(data, found, encoding) and _reads(data, found)
            ref += _reads_as(data, _reference(data), encoding)
        print(f"| {label} | {encoding} | {right / total:.1%} | {misread / total:.1%} | {ref / total:.1%} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--split", default="test", choices=("test", "dev"))
    args = ap.parse_args()
    texts = _texts(args.split)
    rnd = random.Random(1)
    print("Short texts\n\n| text | characters | ours | charset-normalizer |\n|---|---|---|---|")
    for label, text, encoding in texts:
        for n in (2, 4, 8, 16, 64):
            ours = ref = total = 0
            for snippet in _snippets(rnd, text, encoding, n, args.samples):
                data = snippet.encode(encoding)
                total += 1
                ours += _right(detect_encoding(data), encoding)
                ref += _right(_reference(data), encoding)
            print(f"| {label} | {n} | {ours / total:.1%} | {ref / total:.1%} |")
    print("\nFiles with a flaw (64 characters)\n\n| text | flaw | ours | ours misread | charset-normalizer |\n"
          "|---|---|---|---|---|")
    flawed = [*texts, ("zh_CN (UTF-8)", texts[0][1], "utf-8")]
    for label, text, encoding in flawed:
        for flaw, make in FLAWS.items():
            ours = misread = ref = total = 0
            for snippet in _snippets(rnd, text, encoding, 64, args.samples, flawed=True):
                data = make(snippet, encoding)
                total += 1
                found = detect_encoding(data)
                ours += _right(found, encoding)
                misread += found is not None and not _right(found, encoding)
                ref += _right(_reference(data), encoding)
            print(f"| {label} | {flaw} | {ours / total:.1%} | {misread / total:.1%} | {ref / total:.1%} |")
    _kept_files(rnd, texts[1][1], args.samples)
    print("\nNot Chinese: Japanese man pages\n\n| encoding | characters | ours refused | charset-normalizer right |\n"
          "|---|---|---|---|")
    japanese = _japanese()
    for encoding in ("shift_jis", "euc-jp"):
        for n in (16, 64, 256):
            refused = ref = total = 0
            for snippet in _snippets(rnd, japanese, encoding, n, args.samples):
                data = snippet.encode(encoding)
                total += 1
                refused += detect_encoding(data) is None
                ref += (_reference(data) or "").replace("_", "-") in {encoding.replace("_", "-"), "cp932"}
            print(f"| {encoding} | {n} | {refused / total:.1%} | {ref / total:.1%} |")


if __name__ == "__main__":
    main()
