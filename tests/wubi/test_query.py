"""Search-box classification, search rows, details and reading typed codes back."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.errors import InputError
from wubitok.wubi.convert import quote, to_codes
from wubitok.wubi.query import (
    ROW_LIMIT,
    classify_query,
    code_text_pieces,
    decode_code_text,
    describe,
    is_code_text,
    search,
)


@pytest.mark.parametrize("text, kind, term", [
    ("你好", "chars", "你好"),
    ("  你 好 ", "chars", "你 好"),
    ("wqiy", "code", "wqiy"),
    ("WQ", "code", "wq"),
    ("wzi", "code", "wzi"),
    ("ni3", "pinyin", "ni3"),
    ("nǐ", "pinyin", "nǐ"),
    ("zhong", "pinyin", "zhong"),   # more than four letters
    ("zhao", "pinyin", "zhao"),     # a leading z that starts a syllable
    ("zni", "pinyin", "ni"),        # z + pinyin, as in the IME
    ("zzzz", "code", "zzzz"),
    ("", "empty", ""),
    ("hello", "invalid", "hello"),
    ("wq iy", "invalid", "wq iy"),
])
def test_classify_auto(wubi_dict, text, kind, term):
    q = classify_query(text, dictionary=wubi_dict)
    assert (q.kind, q.term) == (kind, term)
    if kind == "invalid":
        assert q.problem_text


def test_zni_is_marked_as_typed_with_z(wubi_dict):
    assert classify_query("zni").via_z
    assert not classify_query("ni3").via_z


def test_forced_kinds(wubi_dict):
    assert classify_query("ni", "pinyin").kind == "pinyin"
    assert classify_query("ni", "auto").kind == "code"
    assert classify_query("wq", "chars").kind == "chars"
    assert classify_query("ni3", "code").problem == "code_shape"
    assert classify_query("wqiy", "pinyin").problem == "not_pinyin"
    with pytest.raises(InputError):
        classify_query("x", "nonsense")


def test_search_characters_has_word_row_then_each_character(wubi_dict):
    r = search("你好你")
    texts = [row.text for row in r.rows]
    assert texts == ["你好你", "你", "好"]
    you = r.rows[1]
    assert you.full_code == "wqiy"
    assert set(you.short_codes) == {"wq", "wqi"}
    assert "nǐ" in you.pinyin
    assert you.rank == 0
    # 你好你 is not in the phrase table: its code is computed, and it says so.
    assert r.rows[0].full_code == wubi_dict.phrase_code("你好你")
    assert not r.rows[0].in_dictionary


def test_search_word_in_table(wubi_dict):
    word = search("中国").rows[0]
    assert (word.text, word.full_code, word.rank, word.in_dictionary) == ("中国", "khlg", 0, True)


def test_search_unknown_character_is_a_row_without_code():
    row = search("a").rows  # a code, not a character
    assert row and row[0].full_code
    rows = search("☃", "chars").rows
    assert [(r.text, r.full_code, r.in_dictionary) for r in rows] == [("☃", None, False)]


def test_search_code_exact_first_then_completions(wubi_dict):
    r = search("wqiy")
    assert r.query.kind == "code"
    assert r.rows[0].text == "你"
    assert [row.text for row in r.rows] == [c.text for c in wubi_dict.exact_candidates("wqiy")]
    prefix = search("wq")
    assert prefix.rows[0].text == "你"
    for row in prefix.rows:
        codes = [c.code for c in wubi_dict.codes(row.text)] if len(row.text) == 1 else [row.full_code]
        assert any(code.startswith("wq") for code in codes), row


def test_search_code_is_capped():
    r = search("a")
    assert len(r.rows) == ROW_LIMIT and r.truncated


def test_search_pinyin(wubi_dict):
    r = search("ni3")
    assert r.query.kind == "pinyin"
    assert r.rows[0].text == "你"
    assert all(any(p.startswith("nǐ") for p in row.pinyin) for row in r.rows)
    assert [row.text for row in search("zni").rows][:1] == ["你"]


def test_search_invalid_and_empty_have_no_rows():
    assert search("").rows == []
    assert search("hello").rows == []


def test_describe_character_lists_codes_and_shared_code_entries(wubi_dict):
    d = describe("工")
    assert d.code == "aaaa"
    assert [c.code for c in d.codes][0] == "aaaa"
    shared = [c.text for c in d.shares]
    assert "㠭" in shared and "工" not in shared
    assert [c.rank for c in d.shares] == sorted(c.rank for c in d.shares)


def test_describe_phrase(wubi_dict):
    d = describe("中国")
    assert (d.code, d.rank, d.in_table) == ("khlg", 0, True)
    assert d.parts == [("中", "khk"), ("国", "lgyi")]
    assert "跨国" in [c.text for c in d.shares]
    assert describe("☃") is None
    assert describe("a中") is None


def test_decode_reads_to_codes_output_back(wubi_dict):
    text = "你好，世界\n中国"
    codes = to_codes(text)
    pieces = decode_code_text(codes)
    assert "".join(p.source for p in pieces) == codes
    assert "".join(p.text for p in pieces) == text


def test_decode_keeps_alternatives_and_unknown_codes(wubi_dict):
    pieces = decode_code_text("aaaa  vbg|xyz abcde", separator="|")
    by_code = {p.code: p for p in pieces if p.code}
    assert [c.text for c in by_code["aaaa"].alternatives][:1] == ["工"]
    assert "㠭" in [c.text for c in by_code["aaaa"].alternatives]
    assert by_code["abcde"].text == "abcde" and not by_code["abcde"].known
    # Two spaces are not the "|" separator: they stay; the "|" between codes goes.
    assert "".join(p.text for p in pieces) == "工  好" + by_code["xyz"].text + " abcde"


@settings(max_examples=60, deadline=None)
@given(st.text(), st.sampled_from([" ", "", "|", "/"]))
def test_decode_never_loses_the_typed_text(text, sep):
    pieces = decode_code_text(text, sep)
    assert "".join(p.source for p in pieces) == text
    for p in pieces:
        if p.code is None:  # text, a separator, or quoted text
            assert p.text in (p.source, "") or p.source in (quote(p.text), quote(p.text)[:-1])  # [:-1]: still open


def test_is_code_text():
    assert is_code_text("wqiy vbg，khlg")  # full-width punctuation between codes
    assert not is_code_text("你好 wqiy")
    assert not is_code_text("，。 123")


def test_a_charset_leaves_out_what_it_excludes_from_codes_and_readings_but_not_typed_characters():
    assert "國" in [r.text for r in search("guo2", charset="gbk").rows]
    simplified = [r.text for r in search("guo2", charset="gb2312").rows]
    assert "国" in simplified and "國" not in simplified
    assert "𠉎" in [r.text for r in search("wqiy").rows]
    assert "𠉎" not in [r.text for r in search("wqiy", charset="gbk").rows]
    assert [r.text for r in search("國", charset="gb2312").rows] == ["國"]  # typed: always shown


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(), st.sampled_from("你好支持输来往中文国 `\t/|'\r\n"))),
       st.sampled_from([" ", "|", "/", "'", "\t"]), st.sampled_from(["full", "shortest"]))
def test_the_pieces_of_written_codes_are_what_reading_them_back_gives(text, sep, style):
    # Convert's pieces are made as the code text is written, not read back from 19 million characters.
    pieces = code_text_pieces(text, style=style, separator=sep)
    codes = to_codes(text, style=style, separator=sep)
    assert pieces == decode_code_text(codes, sep)
    assert "".join(p.text for p in pieces) == text


def test_the_pieces_of_plain_codes_keep_each_character_and_its_code():
    # Read back, plain codes without a separator run together ("wqiyvbg" is no code); written, each is known.
    text = "你好，输 ok\n来"
    pieces = code_text_pieces(text, separator="", plain=True)
    assert "".join(p.source for p in pieces) == to_codes(text, separator="", plain=True)
    assert "".join(p.text for p in pieces) == text
    coded = [(p.source, p.text, p.selector, p.known) for p in pieces if p.code]
    assert coded == [("wqiy", "你", 0, True), ("vbg", "好", 0, True), ("lwgj", "输", 0, True), ("goi", "来", 0, True)]
    assert [c.text for c in pieces[-1].alternatives][:1] == ["来"]
