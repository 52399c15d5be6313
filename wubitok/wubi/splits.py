"""Verified character splits (字根拆分): which roots type a character, on which keys.

A split is a set of facts about one character: its roots in writing order and,
where the code needs one, the last stroke and the structure that give the
末笔识别码.  :func:`split_code` turns the facts into a code by the rules of
Wubi-86:

- a key name (键名字) is its key four times (王 gggg);
- a character that is itself a root (成字字根) is its key, then its first,
  second and last strokes (十 fgh, 戋 gggt); a single stroke doubles its key
  and pads with ``l`` (一 ggll);
- any other character takes its first three roots and its last (键: 钅 彐 二 丨 廴
  -> q v f p); with fewer than four roots the 末笔识别码 follows (迫: 白 辶 -> r p,
  then 一 in a 杂合 character -> d).

:func:`check` is the whole proof: a split is shipped, and shown, only when its
code equals the bundled dictionary's full code.  ``resources/splits/build_splits.py``
derives the splits from structural and stroke data and writes those that pass
to ``resources/splits/splits.tsv``; tests re-check every row.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import DictionaryError
from ..paths import resources_dir
from .dictionary import WubiDictionary, in_charset
from .roots import KEY_NAMES, ROOT_KEYS, STROKE_KEYS, STROKE_ROOTS, STRUCTURES, identifier_key

KINDS = ("keyname", "root", "compound")


@dataclass(frozen=True)
class SplitPart:
    """One key of a code and what it stands for."""

    root: str  # the root, a stroke's root (一 丨 丿 丶 乙), or "" for padding
    key: str
    role: str  # root, stroke (of a 成字字根), identifier (末笔识别码), pad (the l of 一 ggll)


@dataclass(frozen=True)
class Split:
    char: str
    kind: str  # one of KINDS
    roots: tuple[str, ...]  # every root in writing order (a compound may have more than four)
    strokes: str = ""  # 成字字根: its first, second (and last) strokes; compound: the last stroke
    structure: int = 0  # 1 左右, 2 上下, 3 杂合: only where a 末笔识别码 is needed

    @property
    def parts(self) -> tuple[SplitPart, ...]:
        """The code key by key, each with the root or stroke it comes from."""
        if self.kind == "keyname":
            key = KEY_NAMES[self.char]
            return tuple(SplitPart(self.char, key, "root") for _ in range(4))
        if self.kind == "root":
            first = SplitPart(self.char, ROOT_KEYS[self.char], "root")
            if len(self.strokes) == 1:  # 一 丨 丿 丶 乙: the key twice, then l l
                return (first, SplitPart(self.char, first.key, "root"), SplitPart("", "l", "pad"),
                        SplitPart("", "l", "pad"))
            return (first, *(SplitPart(STROKE_ROOTS[s], STROKE_KEYS[s], "stroke") for s in self.strokes))
        coded = self.roots if len(self.roots) <= 4 else (*self.roots[:3], self.roots[-1])
        parts = tuple(SplitPart(r, ROOT_KEYS[r], "root") for r in coded)
        if len(self.roots) < 4:
            parts += (SplitPart(STROKE_ROOTS[self.strokes], identifier_key(self.strokes, self.structure),
                                "identifier"),)
        return parts

    @property
    def code(self) -> str:
        return "".join(p.key for p in self.parts)

    @property
    def structure_name(self) -> str:
        return STRUCTURES[self.structure - 1] if self.structure else ""

    def text(self) -> str:
        """``钅 彐 二 廴 → q v f p``; a 识别码 shows as its stroke in brackets: ``白 辶 [一] → r p d``."""
        shown = [f"[{p.root}]" if p.role == "identifier" else (p.root or "·") for p in self.parts]
        return f"{' '.join(shown)} → {' '.join(p.key for p in self.parts)}"

    def to_row(self) -> str:
        return "\t".join((self.char, self.kind, " ".join(self.roots), self.strokes, str(self.structure)))

    @classmethod
    def from_row(cls, line: str) -> Split:
        char, kind, roots, strokes, structure = line.rstrip("\n").split("\t")
        return cls(char, kind, tuple(roots.split(" ")), strokes, int(structure))


def split_code(split: Split) -> str | None:
    """The code the split's facts give by the rules, or None if they are not well-formed."""
    if split.kind not in KINDS or not split.roots or not all(r in ROOT_KEYS for r in split.roots):
        return None
    if split.kind == "keyname" and split.char not in KEY_NAMES:
        return None
    if split.kind == "root" and (split.roots != (split.char,) or not 1 <= len(split.strokes) <= 3
                                 or any(s not in STROKE_KEYS for s in split.strokes)):
        return None
    if split.kind == "compound":
        if len(split.roots) < 2:
            return None
        if len(split.roots) < 4 and (split.strokes not in STROKE_KEYS or split.structure not in (1, 2, 3)):
            return None
    return split.code


def check(split: Split, dictionary: WubiDictionary) -> bool:
    """True when the split's code is exactly the dictionary's full code of its character."""
    code = split_code(split)
    return code is not None and code == dictionary.full_code(split.char)


SPLITS_FILE = "splits/splits.tsv"
TONGYONG_FILE = "splits/tongyong-8105.txt"  # the 通用规范汉字表 (2013), for the coverage figures


@lru_cache(maxsize=1)
def _load(path: Path) -> dict[str, Split]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DictionaryError(f"{path}: cannot read the splits ({exc.strerror})") from None
    return {s.char: s for s in (Split.from_row(line) for line in lines if line and not line.startswith("#"))}


def all_splits() -> dict[str, Split]:
    """Every shipped split, by character."""
    return _load(resources_dir() / SPLITS_FILE)


def split_of(char: str) -> Split | None:
    """The verified split of ``char``, or None where none was verified (never a guess)."""
    return all_splits().get(char)


def chars_with_root(root: str, dictionary: WubiDictionary, limit: int = 60) -> list[str]:
    """Characters whose verified split uses ``root``, most used first (the root chart's list)."""
    having = [c for c, s in all_splits().items() if root in s.roots]
    weights = dictionary.weights(having)
    return sorted(having, key=lambda c: (-weights.get(c, 0), c))[:limit]


@dataclass(frozen=True)
class Coverage:
    name: str
    chars: int
    verified: int

    @property
    def share(self) -> float:
        return self.verified / self.chars if self.chars else 0.0


def _is_gb2312_hanzi(char: str) -> bool:
    try:
        return len(char.encode("gb2312")) == 2 and "\u4e00" <= char <= "\u9fff"
    except UnicodeEncodeError:
        return False


def coverage(dictionary: WubiDictionary) -> tuple[list[Coverage], list[Split]]:
    """How many characters of each set have a shipped split, and the shipped splits that fail
    :func:`check` (none, or the file and the dictionary disagree)."""
    splits = all_splits()
    failing = [s for s in splits.values() if not check(s, dictionary)]
    coded = [c for c, _, _ in dictionary.iter_full_codes()]
    listed = (resources_dir() / TONGYONG_FILE).read_text(encoding="utf-8").strip()
    sets = {
        "GB2312 hanzi (6,763)": [c for c in coded if _is_gb2312_hanzi(c)],
        "通用规范汉字表 (8,105)": list(listed),
        "GBK characters with a Wubi code": [c for c in coded if len(c) == 1 and in_charset(c, "gbk")],
    }
    return [Coverage(name, len(chars), sum(c in splits for c in chars)) for name, chars in sets.items()], failing


def main() -> None:
    """``python -m wubitok.wubi.splits``: the coverage table and the check, as docs/wubi-splits.md shows them."""
    d = WubiDictionary()
    rows, failing = coverage(d)
    print("| characters | count | with a verified split | share |")
    print("|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r.name} | {r.chars:,} | {r.verified:,} | {100 * r.share:.1f}% |")
    print(f"\nshipped splits: {len(all_splits()):,}; failing the check: {len(failing)}")
    for s in failing[:20]:
        print(f"  {s.char}: {s.code} (dictionary: {d.full_code(s.char)})")
    raise SystemExit(1 if failing else 0)


if __name__ == "__main__":
    main()
