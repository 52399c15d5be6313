"""The user's phrases as Lookup finds them: read-only, by text or code, first in the search rows."""
from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.ime import UserFrequencies
from wubitok.ime.user_lookup import (
    UserPhrase,
    UserRow,
    phrases_of_code,
    read_user_phrases,
    search_with_user_phrases,
)
from wubitok.wubi.dictionary import WUBI_KEYS
from wubitok.wubi.query import search


def _db(path, *phrases):
    db = UserFrequencies(path)
    for code, text in phrases:
        db.add_phrase(code, text)
    db.close()


def test_absent_damaged_or_foreign_databases_give_nothing(tmp_path):
    assert read_user_phrases(tmp_path / "none" / "ime_user.sqlite") == []
    assert not (tmp_path / "none").exists()
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"not a database at all" * 100)
    assert read_user_phrases(garbage) == []
    foreign = tmp_path / "foreign.sqlite"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.commit()
    assert read_user_phrases(foreign) == []
    assert read_user_phrases(tmp_path) == []  # a folder


def test_rows_of_the_wrong_type_are_left_out(tmp_path):
    path = tmp_path / "u.sqlite"
    _db(path, ("ijjj", "小明"))
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO user_phrase VALUES (?, ?, ?)", ("ijjk", b"\xff", "manual"))
    assert read_user_phrases(path) == [UserPhrase("ijjj", "小明", "manual")]


def test_codes_match_exactly_or_as_a_prefix_with_z_for_any_key():
    mine = [UserPhrase("ijjj", "小明", "manual"), UserPhrase("ij", "小", "manual"), UserPhrase("gtli", "五笔", "auto")]
    assert phrases_of_code(mine, "ijjj") == [mine[0]]
    assert phrases_of_code(mine, "ij") == [mine[1]]
    assert phrases_of_code(mine, "ij", prefix=True) == mine[:2]
    assert phrases_of_code(mine, "zjzj") == [mine[0]]
    assert phrases_of_code(mine, "z", prefix=True) == mine
    assert phrases_of_code(mine, "ijjjj", prefix=True) == []


def test_search_puts_the_users_phrases_first_and_replaces_the_computed_word(user_data_dir):
    user_data_dir.mkdir()
    _db(user_data_dir / "ime_user.sqlite", ("ihje", "小明"), ("wqiy", "你们好"))
    rows = search_with_user_phrases("小明").rows
    assert [(r.text, r.full_code, isinstance(r, UserRow)) for r in rows] == [
        ("小明", "ihje", True), ("小", "ihty", False), ("明", "jeg", False)]
    assert rows[0].pinyin == ("xiǎo míng",)
    rows = search_with_user_phrases("wqiy").rows
    assert [r.text for r in rows] == ["你们好"] + [r.text for r in search("wqiy").rows]
    assert search_with_user_phrases("ni3").rows == search("ni3").rows  # pinyin: the dictionary's only


@settings(max_examples=30, deadline=None)
@given(text=st.text(st.sampled_from("小明你好五笔中国"), min_size=1, max_size=6),
       code=st.text(st.sampled_from(WUBI_KEYS), min_size=1, max_size=4))
def test_an_added_phrase_is_found_by_its_text_and_its_code(tmp_path_factory, text, code):
    path = tmp_path_factory.mktemp("db") / "ime_user.sqlite"
    _db(path, (code, text))
    for query in (text, code):
        rows = search_with_user_phrases(query, path=path).rows
        assert rows[0] == UserRow(text, code, rows[0].short_codes, rows[0].pinyin, 0, None, False, "manual")
