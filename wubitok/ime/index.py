"""An in-memory candidate index over the dictionary, for per-keystroke speed.

``WubiDictionary.candidates`` answers one query in SQL; the full candidate list
of a one-key code (7,000+ entries, needed for the page count) takes tens of
milliseconds there.  The engine instead loads the entries of a first key once
and keeps, for every code prefix, its completions already deduplicated and
ordered.  The order is the dictionary's: exact matches by rank (with a
wildcard: heaviest first), then completions heaviest first, each text once.

Entries are plain tuples ``(pos, code, rank, text, level)`` indexed by the
constants below: the garbage collector stops tracking tuples of strings and
ints, whereas 136,000 named tuples would make every full collection walk them
(about 50 ms, a visible stall between two keystrokes).  ``level`` says which
charsets hold the text: 2 GB2312, 1 GBK only, 0 neither (CJK Ext B, private use).

Besides Wubi codes the index answers the table's symbol codes (``zz...``) and
pinyin: characters by syllable and the table's phrases by their syllables run
together (``nihao``), tones optional (``ni3hao``).
"""
from __future__ import annotations

import gc
import re
import threading
from functools import lru_cache
from itertools import repeat
from operator import floordiv, itemgetter, methodcaller
from typing import Final, Iterable, NamedTuple, Tuple

from ..errors import InputError
from ..wubi.dictionary import ANY_KEY, WILDCARD, WUBI_KEYS, WubiDictionary, check_charset, in_charset, is_wubi_code
from .phrase_pinyin import load_phrases, phrases_file, tone3
from .short_codes import STANDARD_SHORT_CODES

# Fields of an entry.  POS is its place in its first key's heaviest-first
# order, so sorting entries restores that order.  Final, so that type
# checkers know which field (and type) an index picks.
POS: Final = 0
CODE: Final = 1
RANK: Final = 2
TEXT: Final = 3
LEVEL: Final = 4
Entry = Tuple[int, str, int, str, int]
# The least LEVEL a charset admits.
CHARSET_LEVEL = {"all": 0, "gbk": 1, "gb2312": 2}

_start = methodcaller("start")
_text = itemgetter(TEXT)
_rank = itemgetter(RANK)


def level(text: str, common: int) -> int:
    """An entry's LEVEL; ``common`` is the dictionary's GB2312 flag."""
    return 2 if common else 1 if in_charset(text, "gbk") else 0


def in_level(entries: Iterable[Entry], charset: str) -> tuple[Entry, ...]:
    """The entries a charset admits."""
    least = CHARSET_LEVEL[check_charset(charset)]
    return tuple(entries) if least == 0 else tuple(e for e in entries if e[LEVEL] >= least)


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
        first_pos: dict[str, int] = {}
        for pos, (code, rank, text, _weight, _n_chars, common) in enumerate(rows):
            e = (pos, code, rank, text, level(text, common))
            first_pos.setdefault(text, pos)
            by_code.setdefault(code, []).append(e)
            if len(code) > 1:
                self.completions.setdefault(code[0], {}).setdefault(text, e)
                self.by_two_keys.setdefault(code[:2], []).append(e)
                if len(code) > 2:
                    self.completions.setdefault(code[:2], {}).setdefault(text, e)
            by_length[len(code)].append(e)
        for code, char in STANDARD_SHORT_CODES.items():
            if code in by_code and char in first_pos:  # rank -1: before the inherited entry
                e = (first_pos[char], code, -1, char, level(char, in_charset(char, "gb2312")))
                by_code[code].append(e)
                by_length[2].append(e)
        by_length[2].sort()
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
        if pattern == pattern[0] + ANY_KEY * (length - 1):
            return entries
        # Built-in iterators all the way: a wildcard may match thousands of codes.
        starts = map(_start, re.finditer(f"^{pattern}$", lines, re.MULTILINE))
        return list(map(entries.__getitem__, map(floordiv, starts, repeat(length + 1))))


class CandidateIndex:
    """Candidates for Wubi codes whose first key is a literal key (a-y), ``z`` after it
    standing for any key; for the table's symbol codes; and for pinyin."""

    def __init__(self, dictionary: WubiDictionary):
        self.dictionary = dictionary
        self._buckets: dict[str, _Bucket] = {}
        self._by_pinyin: dict[str, tuple[tuple[Entry, str], ...]] | None = None
        self._symbols: tuple[Entry, ...] | None = None
        self._lock = threading.Lock()
        # Typing revisits the same codes all the time; results are never mutated.
        self.lookup = lru_cache(maxsize=4096)(self._lookup)
        self.pinyin = lru_cache(maxsize=1024)(self._pinyin)

    def preload(self) -> None:
        """Load everything now (about a second), so that no keystroke pays for it."""
        for key in WUBI_KEYS:
            self._bucket(key)
        self._readings()
        # A full collection walks every container alive, the index's 200,000 included:
        # 0.1-0.3 s holding the GIL, so that running it here (once the only way to stop
        # tracking the entries) froze the window while the pad loaded in a worker.
        # Frozen, the index is never walked by any collection, and freezing costs
        # nothing (it moves the collector's lists, not the objects).  The price:
        # garbage cycles alive right now are never freed -- a few at most.
        gc.freeze()

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
        # A bucket per first key: a wildcard may stand for any key but the first.
        if not is_wubi_code(code, wildcard=True) or code[0] == WILDCARD:
            raise InputError(f"not a Wubi code: {code!r} (a key a-y, then up to 3 of a-y or z)")
        check_charset(charset)
        bucket = self._bucket(code[0])
        completions: list[Entry]
        if WILDCARD in code:
            exact, completions = _wildcard(bucket, code)
        else:
            exact = list(bucket.by_code.get(code, ()))
            completions = []
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
        return Lookup(in_level(exact, charset), in_level(completions, charset))


    def symbols(self, code: str) -> Lookup:
        """The table's symbols for a ``zz...`` code: exact matches, then those of longer
        codes (each text once, by code)."""
        table = self._symbols
        if table is None:
            table = self._symbols = tuple(
                (pos, c, 0, text, 0) for pos, (c, text) in enumerate(self.dictionary.iter_symbols()))
        exact = tuple(e for e in table if e[CODE] == code)
        longer = [e for e in table if len(e[CODE]) > len(code) and e[CODE].startswith(code)]
        return Lookup(exact, tuple(_first_of_each_text(longer, {e[TEXT] for e in exact})))

    def _readings(self) -> dict[str, tuple[tuple[Entry, str], ...]]:
        """Toneless pinyin -> (entry, numbered reading) for characters (one syllable) and the
        table's phrases (syllables run together), characters first, then most used first."""
        table = self._by_pinyin
        if table is None:
            with self._lock:
                table = self._by_pinyin
                if table is None:
                    table = self._by_pinyin = _pinyin_table(self.dictionary)
        return table

    def _pinyin(self, query: str, charset: str = "all") -> tuple[Entry, ...]:
        """Characters and phrases read ``query``: pinyin letters (v for ü), syllables run
        together, each optionally followed by its tone digit 1-5 (ni3hao, nihao3).  Entries
        carry the text's Wubi code: a character's full code ("" if it has none), a phrase's
        code in the table."""
        if not query or not all("a" <= c <= "z" or "1" <= c <= "5" for c in query) or query[0].isdigit():
            raise InputError(f"not pinyin: {query!r} (letters a-z, v for ü, tone digits 1-5 after a syllable)")
        hits = self._readings().get(query.translate(_NO_TONES), ())
        if query.isalpha():
            found = [e for e, _ in hits]
        else:
            # Each typed key, then whatever tone digit the reading has where none was typed.
            tones = re.compile("".join(c if c.isdigit() else c + "[1-5]?" for c in query) + "$")
            found = [e for e, numbered in hits if tones.match(numbered)]
        return in_level(_first_of_each_text(found, set()), charset)


_NO_TONES = str.maketrans("", "", "12345")


def _pinyin_table(dictionary: WubiDictionary) -> dict[str, tuple[tuple[Entry, str], ...]]:
    table: dict[str, list[tuple[Entry, str]]] = {}
    first_reading: dict[str, str] = {}
    pos = 0
    for plain, numbered, char, full_code, common in dictionary.iter_pinyin():
        first_reading.setdefault(char, numbered)
        table.setdefault(plain, []).append(((pos, full_code or "", 0, char, level(char, common)), numbered))
        pos += 1
    # A phrase reads as pypinyin's phrase data says (银行 yin2hang2), else each character
    # by its first reading.  pypinyin is a dependency already (the dictionary's readings);
    # its data is read without importing it, which would hold the GIL (phrase_pinyin).
    phrases_dict = load_phrases(phrases_file())
    tone3_of: dict[str, str] = {}

    def numbered_reading(marked: str) -> str:
        r = tone3_of.get(marked)
        if r is None:
            r = tone3_of[marked] = tone3(marked)
        return r

    for code, text, common in dictionary.iter_phrases():
        marked = phrases_dict.get(text)
        try:
            if marked is not None and len(marked) == len(text):
                numbered = "".join([numbered_reading(r[0]) for r in marked])
            else:
                numbered = "".join([first_reading[c] for c in text])
        except KeyError:
            continue  # a character without a reading
        entry = (pos, code, 0, text, 2 if common else level(text, 0))
        table.setdefault(numbered.translate(_NO_TONES), []).append((entry, numbered))
        pos += 1
    return {k: tuple(v) for k, v in table.items()}


def _wildcard(bucket: _Bucket, code: str) -> tuple[list[Entry], list[Entry]]:
    n = len(code)
    pattern = code.replace(WILDCARD, ANY_KEY)
    exact = _first_of_each_text(bucket.matching(pattern, n), set())
    longer = [e for m in range(n + 1, 5) for e in bucket.matching(pattern + ANY_KEY * (m - n), m)]
    longer.sort()  # by pos: heaviest first across the code lengths
    return exact, _first_of_each_text(longer, {e[TEXT] for e in exact})


def _first_of_each_text(entries: list[Entry], skip: set[str]) -> list[Entry]:
    # Built from the end, a dict keeps each text's first entry; sorting by pos restores the order.
    first = dict(zip(map(_text, reversed(entries)), reversed(entries)))
    for text in skip:
        first.pop(text, None)
    return sorted(first.values())
