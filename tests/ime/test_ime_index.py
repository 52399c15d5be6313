"""The engine's in-memory candidate index agrees with the dictionary's own queries."""
from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.dictionary import WUBI_KEYS
from wubitok.errors import InputError
from wubitok.ime.index import CODE, RANK, TEXT, CandidateIndex


@pytest.fixture(scope="module")
def index(wubi_dict):
    return CandidateIndex(wubi_dict)


def as_listed(lookup):
    return [(e[TEXT], e[CODE], e[RANK]) for e in lookup.exact + lookup.completions]


def from_dictionary(wubi_dict, code, charset):
    # The index lists each text once, also among several codes matching a wildcard.
    out, seen = [], set()
    for c in wubi_dict.candidates(code, charset=charset):
        if c.text not in seen:
            seen.add(c.text)
            out.append((c.text, c.code, c.rank))
    return out


# Two to four keys: the dictionary takes a while over the full list of a one-key code
# (those are among the known codes below).
codes = st.builds(lambda first, rest: first + rest, st.sampled_from(WUBI_KEYS),
                  st.text(alphabet=WUBI_KEYS + "zzzzz", min_size=1, max_size=3))


@given(code=codes, charset=st.sampled_from(["all", "common"]))
@settings(max_examples=80, deadline=None)
def test_lookup_matches_dictionary_candidates(wubi_dict, index, code, charset):
    assert as_listed(index.lookup(code, charset)) == from_dictionary(wubi_dict, code, charset)


@pytest.mark.parametrize("code", ["a", "g", "wq", "wqi", "wqiy", "aaaa", "khlg", "yyyy", "wzi", "gzzz", "tz", "azzy"])
def test_lookup_matches_dictionary_candidates_for_known_codes(wubi_dict, index, code):
    for charset in ("all", "common"):
        assert as_listed(index.lookup(code, charset)) == from_dictionary(wubi_dict, code, charset)


def test_pinyin_matches_by_pinyin_for_every_syllable(wubi_dict, index):
    syllables = [s for (s,) in sqlite3.connect(wubi_dict.path).execute("SELECT DISTINCT plain FROM pinyin")
                 if s.isascii() and s.isalpha()]
    assert len(syllables) > 400
    for i, s in enumerate(syllables):
        for charset in ("all", "common") if i % 8 == 0 else ("all",):
            got = [(e[TEXT], e[CODE]) for e in index.pinyin(s, charset)]
            assert got == [(h.char, h.full_code or "") for h in wubi_dict.by_pinyin(s, charset=charset)], s


def test_bad_codes_and_charsets(index):
    for bad in ("", "zni", "abcde", "a1", "A"):
        with pytest.raises(InputError):
            index.lookup(bad)
    with pytest.raises(InputError):
        index.lookup("a", "rare")
    with pytest.raises(InputError):
        index.pinyin("ni", "rare")


def test_preload_loads_every_entry(wubi_dict, index):
    index.preload()
    total = sum(len(b.by_length[n][1]) for b in index._buckets.values() for n in range(1, 5))
    assert total == wubi_dict.counts["entries"]
