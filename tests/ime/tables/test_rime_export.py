"""The Rime export, deployed by Debian's rime_deployer and typed in through librime's C API."""
from __future__ import annotations

from itertools import groupby

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.ime import ImeEngine
from wubitok.ime.tables import read_phrase_file
from wubitok.ime.tables.entries import TableEntry
from wubitok.ime.tables.rime import NOT_CARRIED, SCHEMA_ID, write_rime


def _type(rime, keys: str) -> tuple[list[str], str]:
    """(candidates shown after ``keys``, what Space commits)."""
    rime.clear()
    rime.keys(keys)
    shown = rime.candidates()
    rime.keys("{space}")
    return shown, rime.commit()


def test_wqiy_types_ni(rime):
    shown, committed = _type(rime, "wqiy")
    assert (shown[0], committed) == ("你", "你")
    assert "仰泳" in shown


def test_the_users_phrases_type_by_their_codes(rime):
    rime.clear()
    rime.keys("ijjj")  # the only entry of its code: commits itself, as in wubitok
    assert rime.commit() == "小明"
    rime.keys("gtli")
    assert rime.commit() == "五笔输入法"


def test_learned_order_pins_and_short_codes(rime):
    assert _type(rime, "fcu")[0][:2] == ["支", "去"]  # 支 chosen 3 times
    assert _type(rime, "aaaa")[0][:2] == ["恭恭敬敬", "工"]  # pinned first
    assert _type(rime, "cg")[0][0] == "骊"  # the standard short code, not the table's 驪


@pytest.mark.parametrize("code", ["wqiy", "aaaa", "ggll", "tttt", "fcu", "vbg", "cg", "wq"])
def test_rime_lists_a_full_code_as_wubitok_does(rime, taught_table, code):
    ours = [e.text for e in taught_table if e.code == code]
    shown = _type(rime, code)[0]
    assert shown[:len(ours)] == ours[:len(shown)]


@pytest.mark.parametrize("code", ["a", "aq", "wq", "g", "kh", "y", "yi", "ab", "esy", "gdp", "tyy", "amn", "wqi"])
def test_rime_lists_completions_in_wubitoks_order(rime, code):
    """Issue #39, 6: on a, page 1 was 工 东 式 基 七 in Rime, 工 区 或 其 其他 in wubitok."""
    engine = ImeEngine(learning=False)
    for key in code:
        engine.press(key)
    ours = [[c.text for c in engine.state.candidates]]
    engine.press("pagedown")
    ours.append([c.text for c in engine.state.candidates])
    engine.close()
    rime.clear()
    rime.keys(code)
    theirs = [rime.candidates()]
    rime.keys("=")
    theirs.append(rime.candidates())
    assert theirs == ours


def test_the_schema_names_its_dictionary(rime, tmp_path, taught_table):
    paths = write_rime(taught_table[:10], tmp_path)
    assert [p.name for p in paths] == [f"{SCHEMA_ID}.schema.yaml", f"{SCHEMA_ID}.dict.yaml"]
    assert f"dictionary: {SCHEMA_ID}" in paths[0].read_text(encoding="utf-8")


han = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5), min_size=1, max_size=5)
code = st.text("abcdefghijklmnopqrstuvwxy", min_size=1, max_size=4)


@settings(max_examples=30)
@given(st.lists(st.tuples(code, han, st.integers(0, 10**9), st.booleans()), min_size=1, max_size=20))
def test_the_dictionary_reads_back_as_a_user_dictionary(tmp_path_factory, wubi_dict, rows):
    entries = [TableEntry(c, t, w, u) for c, t, w, u in sorted(rows, key=lambda r: r[0])]
    folder = tmp_path_factory.mktemp("rt")
    write_rime(entries, folder)
    read, skipped = read_phrase_file(folder / f"{SCHEMA_ID}.dict.yaml", wubi_dict)
    assert (read, skipped) == ([(e.code, e.text) for e in entries], 0)
    assert [k for k, _ in groupby(e.code for e in entries)] == sorted({e.code for e in entries})


def test_minus_and_equal_turn_pages_as_in_wubitok(rime):
    rime.clear()
    rime.keys("a")
    first = rime.candidates()
    rime.keys("=")
    second = rime.candidates()
    assert len(first) == 5 and second and not set(first) & set(second)
    rime.keys("-")
    assert rime.candidates() == first
    rime.keys("=2")
    assert rime.commit() == second[1]  # a=2: the second candidate of page 2, not 工=2


def test_the_schema_says_what_it_cannot_carry(tmp_path, taught_table):
    schema = write_rime(taught_table[:10], tmp_path, page_size=7)[0].read_text(encoding="utf-8")
    assert "page_size: 7" in schema
    for what in NOT_CARRIED:
        assert f"# Not carried over: {what}" in schema and f"    - {what}" in schema
