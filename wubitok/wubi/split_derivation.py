"""Deriving Wubi splits from structural and stroke data (used by resources/splits/build_splits.py).

The inputs are generic: what a character is built of (its parts, in several
alternative readings), where its atoms sit (left, top, surround...), and its
strokes.  None of them knows Wubi.  The derivation proposes root sequences in
the order Wubi's rules prefer them, and :func:`derive` keeps the first whose
code is the dictionary's own (:func:`wubitok.wubi.splits.check`); a character
none of whose proposals passes gets no split.

How the rules become an order of proposals:

- 取大优先 (take the largest root): a part that is itself a root is never cut,
  and a part that is cut into strokes is cut greedily, longest roots first;
- 能散不连, 能连不交 (separate before touching, touching before crossing):
  the structural readings come first, since they keep apart what is written
  apart; cutting a whole character by its strokes comes last;
- 兼顾直观: the readings of the structural data are in writing order, except
  that 辶 and 廴, written last, are moved to the end as Wubi codes them.
"""
from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .roots import INTERLEAVED, KEY_NAMES, ROOT_KEYS, ROOT_STROKES
from .splits import Split, split_code

# How many proposals one part may yield: the rules rank them, so the first few
# hold the right one; more only costs time.
MAX_PROPOSALS = 160
ENCLOSED_LAST = frozenset("辶廴")  # written, and coded, after what they enclose
# Roots whose last stroke Wubi fixes by rule, not by writing order: 力 刀 九 匕
# end in their 折, 戈 and 戋 in their 丿 (their 丶 is written last but not counted).
LAST_STROKE_RULES = {"力": "z", "刀": "z", "九": "z", "匕": "z", "方": "z", "乃": "z", "戈": "p", "戋": "p"}

# Positions of the structural data (cjk-semantic-split's 9-grid codes).
_LEFT_RIGHT = frozenset({30, 40, 34, 36})
_TOP_BOTTOM = frozenset({10, 20, 14, 16})
_SURROUND = 90  # 90-99: an enclosing atom
_UPPER_LEFT = 95  # an atom over the upper left (厂 广 𠂇 龵)


@dataclass(frozen=True)
class Inputs:
    """The structural and stroke data a derivation reads."""

    strokes: Mapping[str, Sequence[str]]  # char -> its stroke sequences (``hspnz``), first preferred
    parts: Mapping[str, Sequence[tuple[str, ...]]]  # char -> readings as parts in writing order
    layout: Mapping[str, tuple[tuple[str, int], ...]]  # char -> atoms with their positions


def structure(layout: tuple[tuple[str, int], ...]) -> int:
    """1 左右, 2 上下, 3 杂合 from the positions of a character's atoms; 0 if they do not tell."""
    if len(layout) < 2:
        return 0  # the data does not cut it: no structure told
    positions = [p for _, p in layout]
    if positions[0] == _UPPER_LEFT:
        return 2  # 厂 广 𠂇 over what they shelter (左 灰 看): Wubi reads them top to bottom
    if positions[0] >= _SURROUND:
        return 3  # 内外: enclosed
    lr = any(p in _LEFT_RIGHT for p in positions)
    tb = any(p in _TOP_BOTTOM for p in positions)
    if lr and not tb:
        return 1
    if tb and not lr:
        return 2
    if positions[0] == 30:
        return 1
    if positions[0] == 10:
        return 2
    return 0


def _structures(known: int) -> tuple[int, ...]:
    """The structures to try for a 末笔识别码: the data's own first, then the others.  Positions
    of parts cannot show what Wubi reads from how strokes meet (年: 𠂉 over 㐄 in the data, but
    its roots ⺧ 丨 十 cross, so 杂合; 卡: 上 over 卜, which the data draws as enclosing).  Given
    the last stroke, the identifier key fixes the structure, so the one the dictionary's code
    confirms is the one Wubi reads, not a guess; :func:`wubitok.wubi.splits.check` holds every
    shipped split to that code."""
    return (known, *(s for s in (1, 2, 3) if s != known)) if known else (1, 2, 3)


def _enclosed_last(parts: tuple[str, ...]) -> tuple[str, ...]:
    """辶 and 廴 after what follows them (the parts they enclose): 键 钅 廴 聿 -> 钅 聿 廴."""
    for i, part in enumerate(parts[:-1]):
        if part in ENCLOSED_LAST:
            return (*parts[:i], *parts[i + 1:], part)
    return parts


def _radical_forms_first(readings: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Readings that name their parts as roots (钅 氵 灬) before those that name the full
    characters (金 水 火): the same keys, but the roots a learner sees on the chart."""
    return sorted(readings, key=lambda r: -sum(p in ROOT_KEYS for p in r))


def _cut_roots() -> dict[str, list[str]]:
    """Stroke spelling -> the roots written so, one per key: roots that are written alike
    and sit on one key (勹 𠂊 儿 on q) give the same code, so a cut names the first the
    chart lists, and the structural readings, which name parts, come before any cut."""
    by_strokes: dict[str, dict[str, str]] = {}
    for root, spellings in ROOT_STROKES.items():
        for s in spellings:
            by_strokes.setdefault(s, {}).setdefault(ROOT_KEYS[root], root)
    return {s: list(by_key.values()) for s, by_key in by_strokes.items()}


_CUT_ROOTS = _cut_roots()
_LONGEST_ROOT = max(len(s) for s in _CUT_ROOTS)


def stroke_cuts(strokes: str, limit: int = MAX_PROPOSALS) -> list[tuple[str, ...]]:
    """Ways to write ``strokes`` as a sequence of roots, fewest roots first (取大优先), and
    among as many roots, longer roots earlier."""
    n = len(strokes)
    # fewest[i]: the fewest roots that write strokes[i:] (n + 1 where none do)
    fewest = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        fewest[i] = min((1 + fewest[i + k] for k in range(1, min(_LONGEST_ROOT, n - i) + 1)
                         if strokes[i:i + k] in _CUT_ROOTS), default=n + 1)
    out: list[tuple[str, ...]] = []

    def cuts(i: int, budget: int) -> Iterator[tuple[str, ...]]:
        if i == n:
            yield ()
            return
        for k in range(min(_LONGEST_ROOT, n - i), 0, -1):
            roots = _CUT_ROOTS.get(strokes[i:i + k])
            if roots and 1 + fewest[i + k] <= budget:
                for root in roots:
                    for rest in cuts(i + k, budget - 1):
                        yield (root, *rest)

    if fewest[0] > n:
        return out
    for size in range(fewest[0], n + 1):
        out.extend(c for c in cuts(0, size) if len(c) == size)
        if len(out) >= limit:
            break
    return out[:limit]


def ranked_product(options: Sequence[Sequence[tuple[str, ...]]], limit: int = MAX_PROPOSALS
                   ) -> list[tuple[str, ...]]:
    """Concatenations of one choice per part, best first: by the sum of the choices' ranks,
    so that every part's second choice is tried before any part's tenth."""
    if not options or any(not o for o in options):
        return []
    start = (0,) * len(options)
    heap = [(0, start)]
    seen = {start}
    out: list[tuple[str, ...]] = []
    while heap and len(out) < limit:
        total, idx = heapq.heappop(heap)
        out.append(tuple(r for o, i in zip(options, idx) for r in o[i]))
        for n in range(len(idx)):
            if idx[n] + 1 < len(options[n]):
                nxt = (*idx[:n], idx[n] + 1, *idx[n + 1:])
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (total + 1, nxt))
    return out


class Deriver:
    """Proposes and checks the splits of characters over one set of :class:`Inputs`."""

    def __init__(self, inputs: Inputs):
        self.inputs = inputs
        self._memo: dict[str, list[tuple[str, ...]]] = {}
        # Parts already verified as characters of their own: a part is split as its
        # character is (建 in 键: 彐 二 丨 廴, which the dictionary's vfhp proves, not 彐 干 廴).
        self.verified: dict[str, tuple[str, ...]] = {}

    def learn(self, split: Split) -> None:
        if split.kind == "compound":
            self.verified[split.char] = split.roots
            self._memo.pop(split.char, None)

    def stroke_count(self, part: str) -> int | None:
        written = self.inputs.strokes.get(part) or ROOT_STROKES.get(part)
        return len(written[0]) if written else None

    def readings(self, char: str) -> list[tuple[str, ...]]:
        """The structural readings of ``char`` whose parts add up to its strokes (a reading that
        names a full form, 金 for 钅, or a part the data misread, does not), roots named first."""
        own = self.stroke_count(char)
        good = [INTERLEAVED[char]] if char in INTERLEAVED else []
        for reading in self.inputs.parts.get(char, ()):
            if len(reading) < 2 or char in reading:
                continue
            counts = [self.stroke_count(p) for p in reading]
            if own is not None and None not in counts and sum(c or 0 for c in counts) != own:
                continue
            good.append(_enclosed_last(reading))
        return _radical_forms_first(good)

    def root_sequences(self, part: str, depth: int = 0) -> list[tuple[str, ...]]:
        """Root sequences that write ``part``, in the order the rules prefer them."""
        if part in self._memo:
            return self._memo[part]
        if part in ROOT_KEYS:
            found: list[tuple[str, ...]] = [(part,)]
        elif part in self.verified:
            found = [self.verified[part]]
        else:
            found = []
            self._memo[part] = found  # a cycle in the data ends here
            if depth < 8:
                for reading in self.readings(part):
                    found.extend(ranked_product([self.root_sequences(p, depth + 1) for p in reading]))
            for strokes in self.inputs.strokes.get(part, ()):
                found.extend(stroke_cuts(strokes))
        # 取大优先 across readings: the fewest roots first (a small part's cut into two roots
        # before a reading that names three).
        unique = sorted(dict.fromkeys(found), key=len)[:MAX_PROPOSALS]
        self._memo[part] = unique
        return unique

    def _last_strokes(self, char: str, roots: tuple[str, ...]) -> list[str]:
        """The 末笔 candidates: by rule for a few roots; in a character enclosed all round or by
        辶 廴, the last stroke of the enclosed part (国: 丶, not the closing 一; 迫: 一 of 白);
        else of the last root."""
        if roots[-1] in LAST_STROKE_RULES:
            return [LAST_STROKE_RULES[roots[-1]]]
        layout = self.inputs.layout.get(char, ())
        found: list[str] = []
        if len(layout) >= 2 and (layout[0][0] in ENCLOSED_LAST or layout[0][1] == _SURROUND):
            found = [s[-1] for s in self.inputs.strokes.get(layout[-1][0], ()) if s]
        if not found and roots[-1] not in ENCLOSED_LAST:
            found = [s[-1] for s in ROOT_STROKES[roots[-1]]]
        if not found:
            found = [s[-1] for s in self.inputs.strokes.get(char, ()) if s]
        return list(dict.fromkeys(found))

    def proposals(self, char: str) -> Iterator[Split]:
        """Every split the rules propose for ``char``, best first."""
        if char in KEY_NAMES:
            yield Split(char, "keyname", (char,))
            return
        if char in ROOT_KEYS:
            for s in dict.fromkeys((*ROOT_STROKES[char], *self.inputs.strokes.get(char, ()))):
                yield Split(char, "root", (char,), s if len(s) <= 2 else s[0] + s[1] + s[-1])
                last_rule = LAST_STROKE_RULES.get(char)
                if last_rule and len(s) > 2:
                    yield Split(char, "root", (char,), s[0] + s[1] + last_rule)
            return
        struct = structure(self.inputs.layout.get(char, ()))
        readings: list[tuple[str, ...]] = []
        for reading in self.readings(char):
            readings.extend(ranked_product([self.root_sequences(p) for p in reading]))
        for strokes in self.inputs.strokes.get(char, ()):
            readings.extend(stroke_cuts(strokes))
        for roots in dict.fromkeys(readings):
            if len(roots) >= 4:
                yield Split(char, "compound", roots)
            elif len(roots) >= 2:
                for shape in _structures(struct):
                    for last in self._last_strokes(char, roots):
                        yield Split(char, "compound", roots, last, shape)


def derive(char: str, full_code: str | None, deriver: Deriver) -> Split | None:
    """The first proposal whose code is ``full_code``, or None (no verified split)."""
    if not full_code:
        return None
    return next((s for s in deriver.proposals(char) if split_code(s) == full_code), None)


def derive_all(chars: Iterable[tuple[str, str | None]], deriver: Deriver) -> dict[str, Split]:
    """The verified split of each ``(char, full_code)`` that has one.  Characters with fewer
    strokes go first, so that a part is verified before the characters built on it."""
    found: dict[str, Split] = {}
    for char, code in sorted(chars, key=lambda cc: (deriver.stroke_count(cc[0]) or 99, cc[0])):
        split = derive(char, code, deriver)
        if split is not None:
            found[char] = split
            deriver.learn(split)
    return found
