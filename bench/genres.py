"""Genre corpora for ``bench_quality.py``, from Debian packages.

* ``zh_CN``: Chinese man pages, simplified (``manpages-zh``, ``zh_CN``), one
  document per page, roff stripped as in ``corpus.py``;
* ``zh_TW``: the same package's traditional-character pages (``zh_TW``);
* ``classical``: Tang poems and Song ci (``fortunes-zh``: ``tang300``,
  ``song100``), one document per poem;
* ``fortunes``: modern prose, quotations and jokes (``fortunes-zh``:
  ``chinese``), one document per fortune;
* ``mixed``: not a source but a slice: the lines of the other genres'
  documents that are at least 25% ASCII letters and at least 10% Han
  (options, commands, names amid Chinese), one document per source document.

Each genre's documents are split: a man page by the CRC-32 of its path
(``9`` mod 10 is the held-out test split, ``8`` the dev split: variants are
chosen on dev, never on test; the rest trains; the same page in zh_CN and
zh_TW lands in the same split), a fortune or poem by its position in the
same way.
Classical has few documents, so there ``i % 5 == 4`` is test and
``i % 5 == 3`` dev.  Licences: manpages-zh GNU FDL / GPL; fortunes-zh
GPL-3.0+ (the poems themselves are in the public domain).

The documents are cached in ``bench/data/genres.json``; run this file to
rebuild it and print the sizes.
"""
from __future__ import annotations

import gzip
import json
import re
import sys
import tempfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import DATA, extract_package, roff_to_text  # noqa: E402

CACHE = DATA / "genres.json"
SOURCE_GENRES = ("zh_CN", "zh_TW", "classical", "fortunes")
GENRES = SOURCE_GENRES + ("mixed",)
SPLITS = ("train", "dev", "test")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _man_pages(root: Path, lang: str) -> dict[str, list[str]]:
    # Split by the page's name, not its position: zh_TW pages translate the
    # zh_CN ones, and a page must not train in one script and test in the other.
    out: dict[str, list[str]] = {s: [] for s in SPLITS}
    base = root / "usr" / "share" / "man" / lang
    for page in sorted(base.rglob("*.gz")):
        try:
            text = roff_to_text(gzip.decompress(page.read_bytes()).decode("utf-8"))
        except UnicodeDecodeError:
            continue
        if text.strip():
            r = zlib.crc32(str(page.relative_to(base)).encode()) % 10
            out["test" if r == 9 else "dev" if r == 8 else "train"].append(text)
    return out


def _fortunes(root: Path, names: tuple[str, ...]) -> list[str]:
    docs = []
    for name in names:
        raw = (root / "usr" / "share" / "games" / "fortunes" / name).read_text(encoding="utf-8")
        for part in re.split(r"^%$", _ANSI.sub("", raw), flags=re.M):
            text = "\n".join(line.rstrip() for line in part.strip("\n").splitlines()).strip("\n")
            if text.strip():
                docs.append(text + "\n")
    return docs


def _split(docs: list[str], period: int) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {s: [] for s in SPLITS}
    for i, doc in enumerate(docs):
        r = i % period
        out["test" if r == period - 1 else "dev" if r == period - 2 else "train"].append(doc)
    return out


def is_mixed_line(line: str) -> bool:
    body = "".join(line.split())
    if not body:
        return False
    ascii_letters = sum(c.isascii() and c.isalpha() for c in body)
    han = sum("\u3400" <= c <= "\u9fff" or "\U00020000" <= c <= "\U0003134f" for c in body)
    return ascii_letters >= 0.25 * len(body) and han >= 0.10 * len(body)


def _mixed(genres: dict[str, dict[str, list[str]]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {s: [] for s in SPLITS}
    for split in SPLITS:
        for genre in SOURCE_GENRES:
            for doc in genres[genre][split]:
                lines = [ln for ln in doc.splitlines(keepends=True) if is_mixed_line(ln)]
                if lines:
                    out[split].append("".join(lines))
    return out


def load_genres() -> dict[str, dict[str, list[str]]]:
    """genre -> split -> documents (built and cached on first use)."""
    if CACHE.exists():
        return json.loads(CACHE.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        man = extract_package("manpages-zh", Path(tmp) / "man")
        fortunes = extract_package("fortunes-zh", Path(tmp) / "fortunes")
        genres = {
            "zh_CN": _man_pages(man, "zh_CN"),
            "zh_TW": _man_pages(man, "zh_TW"),
            "classical": _split(_fortunes(fortunes, ("tang300", "song100")), 5),
            "fortunes": _split(_fortunes(fortunes, ("chinese",)), 10),
        }
    genres["mixed"] = _mixed(genres)
    tmp_path = CACHE.with_suffix(".tmp")
    tmp_path.write_text(json.dumps(genres, ensure_ascii=False), encoding="utf-8")
    tmp_path.replace(CACHE)
    return genres


if __name__ == "__main__":
    for genre, splits in load_genres().items():
        sizes = ", ".join(f"{s} {len(d)} docs / {sum(map(len, d)):,} chars" for s, d in splits.items())
        print(f"{genre}: {sizes}")
