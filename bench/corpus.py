"""The benchmark corpus: Chinese man pages from Debian's ``manpages-zh``.

``corpus_paths()`` fetches the package with ``apt-get download`` (once; cached
in ``bench/data/``), extracts the zh_CN pages, strips the roff markup and
writes two UTF-8 files: a training corpus and a held-out one (every tenth
page, by sorted path).  manpages-zh is licensed under the GNU FDL / GPL like
the English pages it translates (see its debian/copyright).

Run it directly to (re)build the files and print their sizes.
"""
from __future__ import annotations

import gzip
import re
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(DATA.parents[1] / "resources"))
from debian_package import unpack  # noqa: E402

PACKAGE = "manpages-zh"
TRAIN = DATA / "manpages-zh.train.txt"
HELDOUT = DATA / "manpages-zh.heldout.txt"

_FONT = re.compile(r"\\f(\(..|\[[^\]]*\]|.)")  # \fB \fI \fP \f(CW \f[...]
_ESCAPES = [("\\-", "-"), ("\\(em", "—"), ("\\(en", "–"), ("\\(aq", "'"), ("\\(dq", '"'),
            ("\\e", "\\"), ("\\&", ""), ("\\ ", " "), ("\\,", ""), ("\\/", ""), ("\\|", ""), ("\\^", "")]


def roff_to_text(src: str) -> str:
    out = []
    for line in src.splitlines():
        if line.startswith(('.\\"', "'\\\"")) or line.strip() in (".", ""):
            continue
        if line.startswith((".", "'")):
            # A request: keep its arguments when they are text (.SH 名称, .B word).
            parts = line[1:].split(None, 1)
            if len(parts) < 2 or parts[0] in {"TH", "so", "ds", "de", "nr", "ft", "ta", "in", "ti", "sp", "ll"}:
                continue
            line = parts[1].replace('"', "")
        line = _FONT.sub("", line)
        for a, b in _ESCAPES:
            line = line.replace(a, b)
        line = line.strip()
        if line:
            out.append(line)
    return "\n".join(out) + "\n"


def extract_package(package: str, workdir: Path) -> Path:
    """Unpack Debian's ``package`` into ``workdir`` (the .deb is fetched once into DATA)."""
    return unpack(package, workdir, cache=DATA)[0]


def _fetch(workdir: Path) -> Path:
    return extract_package(PACKAGE, workdir) / "usr" / "share" / "man" / "zh_CN"


def corpus_paths() -> tuple[Path, Path]:
    """(train, held-out) UTF-8 text files, built on first use."""
    if TRAIN.exists() and HELDOUT.exists():
        return TRAIN, HELDOUT
    with tempfile.TemporaryDirectory() as tmp:
        root = _fetch(Path(tmp))
        pages = sorted(p for p in root.rglob("*.gz"))
        train, held = [], []
        for i, page in enumerate(pages):
            try:
                text = roff_to_text(gzip.decompress(page.read_bytes()).decode("utf-8"))
            except UnicodeDecodeError:
                continue
            (held if i % 10 == 9 else train).append(text)
    TRAIN.write_text("".join(train), encoding="utf-8")
    HELDOUT.write_text("".join(held), encoding="utf-8")
    return TRAIN, HELDOUT


if __name__ == "__main__":
    for p in corpus_paths():
        text = p.read_text(encoding="utf-8")
        han = sum(1 for c in text if "\u4e00" <= c <= "\u9fff")
        print(f"{p}: {p.stat().st_size / 1e6:.1f} MB, {len(text):,} chars, {han / len(text):.0%} Han (BMP URO)")
    sys.exit(0)
