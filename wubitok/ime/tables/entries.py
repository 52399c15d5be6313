"""The typing table as the typist has it: every code with its exact matches in the
order ``ImeEngine`` lists them, the user's phrases included.

The order follows the engine's rules (engine.py's module docstring): the
dictionary's rank, the standard two-key short code first, GB2312 text first
with ``simplified_first``, then the user's choices (learning), then the pins;
``charset`` leaves out what it excludes.  tests/ime/tables/test_entries.py
checks it against the engine's own candidate lists.
"""
from __future__ import annotations

from typing import NamedTuple

from ...wubi.dictionary import WUBI_KEYS, WubiDictionary, in_charset
from ..index import CHARSET_LEVEL, LEVEL, TEXT, CandidateIndex, level
from ..options import ImeOptions
from ..short_codes import STANDARD_SHORT_CODES
from ..userdb import UserFrequencies


class TableEntry(NamedTuple):
    code: str
    text: str
    weight: int  # the dictionary's weight (use frequency); a user phrase gets its code's first weight
    user: bool  # the user's own phrase


def typing_table(dictionary: WubiDictionary, db: UserFrequencies | None = None,
                 options: ImeOptions | None = None) -> list[TableEntry]:
    """Every (code, text) the engine types, by code, each code's entries in the engine's order."""
    options = options or ImeOptions()
    least = CHARSET_LEVEL[options.charset]
    # code -> [(rank, text, weight, level)]
    by_code: dict[str, list[tuple[int, str, int, int]]] = {}
    weight_of: dict[str, int] = {}
    for code, rank, text, weight, _n, common in dictionary.iter_entries():
        by_code.setdefault(code, []).append((rank, text, weight, level(text, common)))
        weight_of.setdefault(text, weight)
    for code, char in STANDARD_SHORT_CODES.items():
        if code in by_code and char in weight_of:  # rank -1: before the entry the table has there
            by_code[code].append((-1, char, weight_of[char], level(char, in_charset(char, "gb2312"))))
    if db is not None:
        for code, text, _source in db.phrases():
            listed = {t for _, t, _, _ in by_code.get(code, ())}
            if text not in listed:
                first = min(by_code[code])[2] if code in by_code else 0
                by_code.setdefault(code, []).append((1 << 30, text, first, level(text, in_charset(text, "gb2312"))))
    user = {(c, t) for c, t, _ in db.phrases()} if db is not None else set()
    learned: dict[str, dict[str, int]] = {}
    pins: dict[str, list[tuple[str, int]]] = {}
    if db is not None:
        if options.learning:
            for (code, text), n in db.counts().items():
                learned.setdefault(code, {})[text] = n
        for code, text, position in sorted(db.export_data()["pins"], key=lambda p: (p[2], p[1])):
            pins.setdefault(code, []).append((text, position))
    table = []
    for code in sorted(by_code):
        entries = [e for e in sorted(by_code[code]) if e[3] >= least]
        ordered = _ordered(entries, learned.get(code, {}), pins.get(code, []), options)
        table += [TableEntry(code, text, weight, (code, text) in user) for _, text, weight, _ in ordered]
    return table


def _ordered(entries: list[tuple[int, str, int, int]], learned: dict[str, int], pins: list[tuple[str, int]],
             options: ImeOptions) -> list[tuple[int, str, int, int]]:
    if options.orders_simplified_first:
        entries.sort(key=lambda e: e[3] < 2)  # stable
    if learned and len(entries) > 1:
        counts = [learned.get(e[1], 0) for e in entries]
        if any(counts):
            order = sorted(range(len(entries)), key=lambda i: -counts[i])
            if options.fixed_char_order:  # phrases move among the places phrases hold
                slots = [i for i, e in enumerate(entries) if len(e[1]) > 1]
                moved = list(range(len(entries)))
                for slot, i in zip(slots, sorted(slots, key=lambda i: -counts[i])):
                    moved[slot] = i
                order = moved
            entries = [entries[i] for i in order]
    for text, position in pins:  # by position, so that each lands where it was put
        at = next((i for i, e in enumerate(entries) if e[1] == text), None)
        if at is not None:
            entries.insert(min(position, len(entries) - 1), entries.pop(at))
    return entries


def completions(dictionary: WubiDictionary, options: ImeOptions | None = None, *,
                count: int = 50) -> list[TableEntry]:
    """The first ``count`` completions of every one-, two- and three-key code, in the engine's order
    (heaviest first, GB2312 text first with ``simplified_first``), as entries of that code
    (weight 0): what a table needs to list them as the engine does (:mod:`.rime`)."""
    options = options or ImeOptions()
    index = CandidateIndex(dictionary)
    out = []
    try:
        two = [a + b for a in WUBI_KEYS for b in WUBI_KEYS]
        for prefix in [*WUBI_KEYS, *two, *(ab + c for ab in two for c in WUBI_KEYS)]:
            found = list(index.lookup(prefix, options.charset).completions)
            if options.orders_simplified_first:
                found.sort(key=lambda e: e[LEVEL] < 2)  # stable: each group keeps its order
            out += [TableEntry(prefix, e[TEXT], 0, False) for e in found[:count]]
    finally:
        index.close()
    return out
