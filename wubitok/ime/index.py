"""An in-memory candidate index over the dictionary, for per-keystroke speed.

``WubiDictionary.candidates`` answers one query in SQL; the full candidate list
of a one-key code (7,000+ entries, needed for the page count) takes tens of
milliseconds there.  The engine instead loads the entries of a first key once
and keeps, for every code prefix, its completions already deduplicated and
ordered.  The order is the dictionary's: exact matches by rank (with a
wildcard: heaviest first), then completions heaviest first, each text once.

Entries are plain tuples ``(pos, code, rank, text, common)`` indexed by the
constants below: the garbage collector stops tracking tuples of strings and
ints, whereas 136,000 named tuples would make every full collection walk them
(about 50 ms, a visible stall between two keystrokes).
"""
from __future__ import annotations

import gc
import re
import threading
from functools import lru_cache
from itertools import repeat
from operator import floordiv, itemgetter, methodcaller
from typing import Iterable, NamedTuple, Tuple

from ..dictionary import CHARSETS, WILDCARD, WUBI_KEYS, WubiDictionary
from ..errors import InputError

# Fields of an entry.  POS is its place in its first key's heaviest-first
# order, so sorting entries restores that order.
POS, CODE, RANK, TEXT, COMMON = range(5)
Entry = Tuple[int, str, int, str, int]

_ANY_KEY = "[a-y]"
_start = methodcaller("start")
_text = itemgetter(TEXT)
_common = itemgetter(COMMON)
_rank = itemgetter(RANK)


class Lookup(NamedTuple):
    # Tuples, so that the garbage collector soon stops walking these cached lists.
    exact: tuple[Entry, ...]
    completions: tuple[Entry, ...]


class _Bucket:
    """Every entry whose code starts with one key."""

    def __init__(self, rows: Iterable[tuple]):
        by_code: dict[str, list[Entry]] = {}
        # one- and two-key prefix -> {text: its heaviest entry with a longer code}, heaviest first
        self.completions: dict[str, dict[str, Entry]] = {}
        # two-key prefix -> all its entries, heaviest first (three-key prefixes are derived from it)
        self.by_two_keys: dict[str, list[Entry]] = {}
        by_length: dict[int, list[Entry]] = {1: [], 2: [], 3: [], 4: []}
        for pos, (code, rank, text, _weight, _n_chars, common) in enumerate(rows):
            e = (pos, code, rank, text, common)
            by_code.setdefault(code, []).append(e)
            if len(code) > 1:
                self.completions.setdefault(code[0], {}).setdefault(text, e)
                self.by_two_keys.setdefault(code[:2], []).append(e)
                if len(code) > 2:
                    self.completions.setdefault(code[:2], {}).setdefault(text, e)
            by_length[len(code)].append(e)
        # Tuples, not lists: untracked by the garbage collector, like the entries.
        self.by_code: dict[str, tuple[Entry, ...]] = {
            code: tuple(sorted(same, key=_rank)) for code, same in by_code.items()
        }
        # Wildcard codes are matched by one regex scan over all codes of a length,
        # one per line, so that only the matches cost Python work.
        self.by_length = {n: ("\n".join(e[CODE] for e in es), es) for n, es in by_length.items()}

    def longer(self, code: str) -> dict[str, Entry] | list[Entry]:
        """Entries with a longer code that starts with ``code`` (literal keys): a
        {text: heaviest entry} dict for one or two keys, else a list heaviest first."""
        if len(code) <= 2:
            return self.completions.get(code, {})
        n = len(code)
        return [e for e in self.by_two_keys.get(code[:2], ()) if len(e[CODE]) > n and e[CODE].startswith(code)]

    def matching(self, pattern: str, length: int) -> list[Entry]:
        """Entries whose code has ``length`` keys and matches ``pattern``, heaviest first."""
        lines, entries = self.by_length[length]
        if pattern == pattern[0] + _ANY_KEY * (length - 1):
            return entries
        # Built-in iterators all the way: a wildcard may match thousands of codes.
        starts = map(_start, re.finditer(f"^{pattern}$", lines, re.MULTILINE))
        return list(map(entries.__getitem__, map(floordiv, starts, repeat(length + 1))))


class CandidateIndex:
    """Candidates for Wubi codes whose first key is a literal key (a-y), ``z`` after it
    standing for any key; and characters by toneless pinyin syllable."""

    def __init__(self, dictionary: WubiDictionary):
        self.dictionary = dictionary
        self._buckets: dict[str, _Bucket] = {}
        self._by_syllable: dict[str, tuple[Entry, ...]] | None = None
        self._lock = threading.Lock()
        # Typing revisits the same codes all the time; results are never mutated.
        self.lookup = lru_cache(maxsize=4096)(self._lookup)
        self.pinyin = lru_cache(maxsize=1024)(self._pinyin)

    def preload(self) -> None:
        """Load everything now (about a second), so that no keystroke pays for it."""
        for key in WUBI_KEYS:
            self._bucket(key)
        self._syllables()
        # The first full collection after loading walks every new entry once (tens of
        # milliseconds) and stops tracking them: do it now rather than mid-typing.
        gc.collect()

    def _bucket(self, key: str) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            with self._lock:  # preload() may run in a worker while the GUI types
                bucket = self._buckets.get(key)
                if bucket is None:
                    bucket = self._buckets[key] = _Bucket(self.dictionary.iter_entries(key))
        return bucket

    def _lookup(self, code: str, charset: str = "all") -> Lookup:
        """Exact matches and completions of ``code`` (1-4 keys)."""
        if not 1 <= len(code) <= 4 or code[0] not in WUBI_KEYS or any(
                c not in WUBI_KEYS and c != WILDCARD for c in code):
            raise InputError(f"not a Wubi code: {code!r} (a key a-y, then up to 3 of a-y or z)")
        if charset not in CHARSETS:
            raise InputError(f"unknown charset {charset!r} (choose from {', '.join(CHARSETS)})")
        bucket = self._bucket(code[0])
        if WILDCARD in code:
            exact, completions = _wildcard(bucket, code)
        else:
            exact = list(bucket.by_code.get(code, ()))
            completions: list[Entry] = []
            if len(code) < 4:
                longer = bucket.longer(code)
                if isinstance(longer, list):
                    completions = _first_of_each_text(longer, {e[TEXT] for e in exact})
                else:
                    clash = [e[TEXT] for e in exact if e[TEXT] in longer]
                    if clash:
                        longer = dict(longer)
                        for text in clash:
                            del longer[text]
                    completions = list(longer.values())
        if charset == "common":
            exact = list(filter(_common, exact))
            completions = list(filter(_common, completions))
        return Lookup(tuple(exact), tuple(completions))


    def _syllables(self) -> dict[str, tuple[Entry, ...]]:
        table = self._by_syllable
        if table is None:
            with self._lock:
                table = self._by_syllable
                if table is None:
                    chars: dict[str, dict[str, Entry]] = {}
                    for pos, (syllable, char, full_code, common) in enumerate(self.dictionary.iter_pinyin()):
                        # A character read with several tones of one syllable is listed once.
                        chars.setdefault(syllable, {}).setdefault(char, (pos, full_code or "", 0, char, common))
                    table = self._by_syllable = {s: tuple(cs.values()) for s, cs in chars.items()}
        return table

    def _pinyin(self, syllable: str, charset: str = "all") -> tuple[Entry, ...]:
        """Characters read ``syllable`` (toneless, v for ü), most used first, as entries
        whose code is the character's full Wubi code ("" if it has none)."""
        if charset not in CHARSETS:
            raise InputError(f"unknown charset {charset!r} (choose from {', '.join(CHARSETS)})")
        hits = self._syllables().get(syllable, ())
        return tuple(filter(_common, hits)) if charset == "common" else hits


def _wildcard(bucket: _Bucket, code: str) -> tuple[list[Entry], list[Entry]]:
    n = len(code)
    pattern = code.replace(WILDCARD, _ANY_KEY)
    exact = _first_of_each_text(bucket.matching(pattern, n), set())
    longer = [e for m in range(n + 1, 5) for e in bucket.matching(pattern + _ANY_KEY * (m - n), m)]
    longer.sort()  # by pos: heaviest first across the code lengths
    return exact, _first_of_each_text(longer, {e[TEXT] for e in exact})


def _first_of_each_text(entries: list[Entry], skip: set[str]) -> list[Entry]:
    # Built from the end, a dict keeps each text's first entry; sorting by pos restores the order.
    first = dict(zip(map(_text, reversed(entries)), reversed(entries)))
    for text in skip:
        first.pop(text, None)
    return sorted(first.values())
