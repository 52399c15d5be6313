"""The engine's on-disk candidate index agrees with the dictionary's own queries, and is built
once per dictionary."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.errors import InputError
from wubitok.ime.index import CODE, RANK, TEXT, CandidateIndex
from wubitok.ime.short_codes import STANDARD_SHORT_CODES
from wubitok.wubi.dictionary import WUBI_KEYS, WubiDictionary, in_charset


@pytest.fixture(scope="module")
def index(wubi_dict):
    return CandidateIndex(wubi_dict)


def standard(lookup):
    """Texts listed as a standard short code the table lacks (rank -1; tested on their own below)."""
    return {e[TEXT] for e in lookup.exact if e[RANK] == -1}


def as_listed(lookup):
    return [(e[TEXT], e[CODE], e[RANK]) for e in (*lookup.exact, *lookup.completions)
            if e[TEXT] not in standard(lookup)]


def from_dictionary(wubi_dict, code, charset, skip=frozenset()):
    # The index lists each text once, also among several codes matching a wildcard.
    out, seen = [], set(skip)
    for c in wubi_dict.candidates(code, charset=charset):
        if c.text not in seen:
            seen.add(c.text)
            out.append((c.text, c.code, c.rank))
    return out


# Two to four keys: the dictionary takes a while over the full list of a one-key code
# (those are among the known codes below).
codes = st.builds(lambda first, rest: first + rest, st.sampled_from(WUBI_KEYS),
                  st.text(alphabet=WUBI_KEYS + "zzzzz", min_size=1, max_size=3))


@given(code=codes, charset=st.sampled_from(["all", "gbk", "gb2312"]))
@settings(max_examples=80, deadline=None)
def test_lookup_matches_dictionary_candidates(wubi_dict, index, code, charset):
    found = index.lookup(code, charset)
    assert as_listed(found) == from_dictionary(wubi_dict, code, charset, standard(found))


@pytest.mark.parametrize("code", ["a", "g", "wq", "wqi", "wqiy", "aaaa", "khlg", "yyyy", "wzi", "gzzz", "tz", "azzy"])
def test_lookup_matches_dictionary_candidates_for_known_codes(wubi_dict, index, code):
    for charset in ("all", "gbk", "gb2312"):
        found = index.lookup(code, charset)
        assert as_listed(found) == from_dictionary(wubi_dict, code, charset, standard(found))


def test_pinyin_matches_by_pinyin_for_every_syllable(wubi_dict, index):
    syllables = [s for (s,) in sqlite3.connect(wubi_dict.path).execute("SELECT DISTINCT plain FROM pinyin")
                 if s.isascii() and s.isalpha()]
    assert len(syllables) > 400
    for i, s in enumerate(syllables):
        for charset in ("all", "gbk", "gb2312") if i % 8 == 0 else ("all",):
            # Characters first; phrases read as one syllable (西安 xian) follow them.
            got = [(e[TEXT], e[CODE]) for e in index.pinyin(s, charset) if len(e[TEXT]) == 1]
            assert got == [(h.char, h.full_code or "") for h in wubi_dict.by_pinyin(s, charset=charset)], s


def test_bad_codes_and_charsets(index):
    for bad in ("", "zni", "abcde", "a1", "A"):
        with pytest.raises(InputError):
            index.lookup(bad)
    with pytest.raises(InputError):
        index.lookup("a", "common")
    with pytest.raises(InputError):
        index.pinyin("ni", "rare")


def test_the_index_holds_every_entry(wubi_dict, index):
    with sqlite3.connect(index.path) as conn:
        (total,) = conn.execute("SELECT count(*) FROM entry").fetchone()
    assert total == wubi_dict.counts["entries"] + len(STANDARD_SHORT_CODES)


def test_the_index_is_built_once_per_dictionary_and_opened_after(wubi_dict, index, tmp_path):
    built = index.path
    stamp = built.stat().st_mtime_ns
    again = CandidateIndex(wubi_dict)  # another process's index, in effect: the same file, opened
    assert again.path == built and built.stat().st_mtime_ns == stamp
    assert again.lookup("wqiy") == index.lookup("wqiy")
    again.close()
    # Another dictionary (another content hash): its own file.
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(wubi_dict.path) as src, sqlite3.connect(other) as dst:
        src.backup(dst)
        dst.execute("UPDATE meta SET value = 'another' WHERE key = 'content_hash'")
    (tmp_path / "cache").mkdir()
    stale = tmp_path / "cache" / ".ime-index-0123456789abcdef01234567.sqlite.99999.tmp"
    stale.write_bytes(b"left by a build that was killed")
    changed = CandidateIndex(WubiDictionary(other), folder=tmp_path / "cache")
    assert changed.path != built and changed.path.parent == tmp_path / "cache"
    assert not list((tmp_path / "cache").glob("*.tmp"))  # its own, and the killed build's
    assert [e[TEXT] for e in changed.lookup("wqiy").exact] == [e[TEXT] for e in index.lookup("wqiy").exact]
    changed.close()


def test_a_killed_first_build_leaves_no_temporary_file(tmp_path):
    """The index is built in memory; its file is written in one statement at the end, so a
    build killed on its way (the engine's first start, stopped) leaves nothing behind."""
    script = ("import sys; from wubitok.ime.index import CandidateIndex;"
              " from wubitok.wubi.dictionary import default_dictionary;"
              " CandidateIndex(default_dictionary(), folder=__import__('pathlib').Path(sys.argv[1])).preload()")
    folder = tmp_path / "cache"
    build = subprocess.Popen([sys.executable, "-c", script, str(folder)])
    try:
        while not folder.is_dir() and build.poll() is None:  # the lock file comes first
            time.sleep(0.05)
        time.sleep(0.5)  # well inside the seconds of building
    finally:
        build.kill()
        build.wait()
    assert not list(folder.glob("*.tmp")), sorted(p.name for p in folder.iterdir())


def test_the_users_phrases_are_laid_over_the_index_without_a_rebuild(index, user_data_dir):
    from wubitok.ime import ImeEngine

    built, stamp = index.path, index.path.stat().st_mtime_ns
    engine = ImeEngine(learning=True)
    engine.add_phrase("我们好", "trvb")
    for k in "trvb":
        engine.press(k)
    assert "我们好" in [c.text for c in engine.state.candidates]
    assert index.path == built and built.stat().st_mtime_ns == stamp
    engine.close()


def test_standard_short_codes_come_first_and_keep_the_inherited_entry(wubi_dict, index):
    for code, char in STANDARD_SHORT_CODES.items():
        inherited = [c.text for c in wubi_dict.exact_candidates(code)]
        assert char not in inherited
        for charset in ("all", "gbk"):
            exact = [e[TEXT] for e in index.lookup(code, charset).exact]
            assert exact[0] == char and exact[1:] == [t for t in inherited if in_charset(t, charset)]


def test_phrases_by_pinyin_with_and_without_tones(index):
    assert [e[TEXT] for e in index.pinyin("nihao")][:1] == ["你好"]
    assert [e[TEXT] for e in index.pinyin("ni3hao3")][:1] == ["你好"]
    assert [e[TEXT] for e in index.pinyin("nihao3")][:1] == ["你好"]
    assert "你好" not in [e[TEXT] for e in index.pinyin("ni2hao")]
    # pypinyin's phrase data reads 银行 yin2hang2, not by each character's first reading (xing)
    assert "银行" in [e[TEXT] for e in index.pinyin("yin2hang2")]
    assert all(len(e[TEXT]) == 1 for e in index.pinyin("ni3"))
    for bad in ("3ni", "ni!", "NI"):
        with pytest.raises(InputError):
            index.pinyin(bad)


def test_symbol_codes(wubi_dict, index):
    every = index.symbols("zz")
    assert every.exact == () and len(every.completions) == len({t for _, t in wubi_dict.iter_symbols()})
    corner = [e[TEXT] for e in index.symbols("zzbd").exact]
    assert {"「」", "『』", "【】"} <= set(corner)



@pytest.mark.parametrize("charset", ["all", "gbk", "gb2312"])
def test_while_the_index_builds_the_dictionary_gives_the_same_first_pages(wubi_dict, index, charset):
    """The first keys of a first start are typed from the dictionary (issue #39, 1): the first
    pages the typist sees are the index's."""
    from wubitok.ime import ImeEngine

    codes = ["g", "a", "wq", "kh", "cg", "wqiy", "khlg", "fcu", "thgc", "y", "yi", "aaaa", "wqz", "gzz"]
    built = ImeEngine(wubi_dict, learning=False, charset=charset)
    interim = ImeEngine(wubi_dict, learning=False, charset=charset)
    interim._index = CandidateIndex(wubi_dict)
    interim._index.interim = True
    for code in codes:
        for engine in (built, interim):
            for key in code:
                engine.press(key)
        assert interim.state.candidates == built.state.candidates, code
        built.press("escape")
        interim.press("escape")


@pytest.mark.parametrize("charset", ["all", "gbk", "gb2312"])
def test_while_the_index_builds_z_and_zz_lookups_answer_from_the_dictionary(wubi_dict, index, charset):
    """A first start's ``z`` pinyin of one syllable and its ``zz`` symbols are there at once
    (issue #39, 1), the characters and symbols the index lists; pinyin phrases wait for it."""
    interim = CandidateIndex(wubi_dict)
    interim.interim = True
    for query in ("ni", "ni3", "hao", "lv", "lve4", "zhuang", "zhuang1", "a", "e", "xian", "nih", "q"):
        built = [e for e in index.pinyin(query, charset) if len(e[TEXT]) == 1]
        assert [e[CODE:] for e in interim.pinyin(query, charset)] == [e[CODE:] for e in built], query
    assert interim.pinyin("ni", charset)  # the dictionary answered: not an empty index
    for query in ("nihao", "ni3hao", "zhongguo"):
        assert index.pinyin(query, charset) and interim.pinyin(query, charset) == (), query
    for code in ("zz", "zzb", "zzbd", "zzsx", "zzzz"):
        assert interim.symbols(code) == index.symbols(code), code
    assert interim.symbols("zzbd").exact


def test_a_first_start_types_pinyin_and_symbols_before_the_index_is_there(wubi_dict, index):
    from wubitok.ime import ImeEngine

    built = ImeEngine(wubi_dict, learning=False)
    interim = ImeEngine(wubi_dict, learning=False)
    interim._index = CandidateIndex(wubi_dict)
    interim._index.interim = True
    for keys in ("zni", "zni;3", "zzbd", "zzsx", "zhao"):
        for engine in (built, interim):
            for key in keys:
                engine.press(key)
        assert interim.state.candidates
        assert interim.state.candidates == built.state.candidates, keys
        built.press("escape")
        interim.press("escape")
    assert interim.press("z") + interim.press("n") + interim.press("i") + interim.press("space") == \
        built.press("z") + built.press("n") + built.press("i") + built.press("space") == "你"
