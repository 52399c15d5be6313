"""The bundled Wubi-86 dictionary, queried through WubiDictionary."""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading

import pytest

from wubitok.errors import DictionaryError, InputError, UnknownCodeError
from wubitok.wubi.convert import to_codes
from wubitok.wubi.dictionary import WubiDictionary, in_charset
from wubitok.wubi.query import decode_code_text


def test_counts(wubi_dict):
    assert wubi_dict.counts["characters"] == 70851
    assert wubi_dict.counts["characters"] >= 70000
    assert wubi_dict.counts["phrases"] >= 60000
    conn = sqlite3.connect(wubi_dict.path)
    assert conn.execute("SELECT count(*) FROM chars").fetchone()[0] == wubi_dict.counts["characters"]
    assert conn.execute("SELECT count(*) FROM entries WHERE n_chars > 1").fetchone()[0] == wubi_dict.counts["phrases"]


def test_ext_a_and_b_characters_are_there(wubi_dict):
    assert wubi_dict.full_code("㠭") == "aaaa"  # Ext A
    ext_b = [c for c, _, _ in wubi_dict.iter_full_codes() if 0x20000 <= ord(c) <= 0x2A6DF]
    assert len(ext_b) > 40000


@pytest.mark.parametrize("char, full, shorts", [
    ("你", "wqiy", ["wq", "wqi"]),
    ("好", "vbg", ["vb"]),
    ("的", "rqyy", ["r", "rqy"]),
    ("发", "ntcy", ["v", "ntc"]),
    ("亻", "wth", []),
    ("丨", "hhll", ["hhl"]),
    ("国", "lgyi", ["l", "lgy"]),
])
def test_known_codes(wubi_dict, char, full, shorts):
    info = wubi_dict.lookup(char)
    assert info.full_code == full
    assert sorted(info.short_codes) == sorted(shorts)
    kinds = {c.code: c.kind for c in info.codes}
    assert kinds[full] == "full"
    for s in shorts:
        assert kinds[s] == f"short{len(s)}"


def test_short1_is_not_always_a_prefix(wubi_dict):
    kinds = {c.code: c.kind for c in wubi_dict.codes("发")}
    assert kinds["v"] == "short1" and not "ntcy".startswith("v")


def test_z_symbol_shortcuts_are_not_wubi_codes(wubi_dict):
    assert all(not c.code.startswith("z") for c in wubi_dict.codes("亻"))
    conn = sqlite3.connect(wubi_dict.path)
    assert conn.execute("SELECT count(*) FROM entries WHERE code LIKE 'z%'").fetchone()[0] == 0
    assert ("zzpp", "亻") in conn.execute("SELECT code, text FROM symbols").fetchall()
    # a symbol with only z shortcuts is a character without a Wubi code
    assert "¤" in wubi_dict and wubi_dict.full_code("¤") is None


def test_shared_code_ranks(wubi_dict):
    aaaa = [c.text for c in wubi_dict.exact_candidates("aaaa")]
    assert aaaa.index("工") < aaaa.index("㠭")
    assert wubi_dict.exact_candidates("wwww")[0].text == "人"
    info = wubi_dict.lookup("㠭")
    assert info.rank == aaaa.index("㠭")
    assert "工" in [c.text for c in info.shares_code_with]


def test_ranks_are_deterministic_weight_then_code_point(wubi_dict):
    conn = sqlite3.connect(wubi_dict.path)
    rows = conn.execute("SELECT code, rank, text, weight FROM entries ORDER BY code, rank").fetchall()
    prev = None
    for code, rank, text, weight in rows:
        if prev and prev[0] == code:
            assert rank == prev[1] + 1
            assert (-prev[3], prev[2]) < (-weight, text)
        else:
            assert rank == 0
        prev = (code, rank, text, weight)


def test_char_rank_orders_characters_of_one_full_code(wubi_dict):
    ranks = {c: r for c, code, r in wubi_dict.iter_full_codes() if code == "aaaa"}
    assert ranks["工"] == 0 and ranks["㠭"] == 1
    seen: dict[str, set[int]] = {}
    for _, code, r in wubi_dict.iter_full_codes():
        seen.setdefault(code, set()).add(r)
    assert all(s == set(range(len(s))) for s in seen.values())


def test_exact_then_completions(wubi_dict):
    found = wubi_dict.candidates("wq", limit=10)
    assert found[0].text == "你" and found[0].exact
    assert all(c.code.startswith("wq") for c in found)
    exact_count = sum(c.exact for c in found)
    assert all(c.exact for c in found[:exact_count]) and not any(c.exact for c in found[exact_count:])
    completions = found[exact_count:]
    assert [c.weight for c in completions] == sorted((c.weight for c in completions), reverse=True)
    assert len({c.text for c in found}) == len(found)  # each text once
    assert any(c.is_phrase for c in wubi_dict.candidates("wq"))


def test_wildcard(wubi_dict):
    found = wubi_dict.candidates("wzi", completions=False)
    assert {"你", "剑"} <= {c.text for c in found}
    assert all(len(c.code) == 3 and c.code[0] == "w" and c.code[2] == "i" for c in found)
    assert len(wubi_dict.candidates("zzzz", limit=5)) == 5
    texts = [c.text for c in wubi_dict.candidates("zzz", completions=False)]
    assert len(texts) == len(set(texts))  # each text once, though e.g. 你 matches wqi and more


def test_candidates_limit_charset_and_phrases(wubi_dict):
    assert len(wubi_dict.candidates("a", limit=7)) == 7
    common = wubi_dict.candidates("aaaa", charset="gb2312")
    assert "㠭" not in [c.text for c in common] and common[0].text == "工"
    assert all(not c.is_phrase for c in wubi_dict.candidates("wwww", phrases=False))


@pytest.mark.parametrize("bad", ["", "abcde", "a1", "ab c", "中"])
def test_bad_codes(wubi_dict, bad):
    with pytest.raises(InputError):
        wubi_dict.candidates(bad)


@pytest.mark.parametrize("word, code", [
    ("中国", "khlg"), ("人民", "wwna"), ("中华人民共和国", "kwwl"), ("计算机", "ytsm"), ("你好", "wqvb"),
])
def test_phrase_code_rules(wubi_dict, word, code):
    assert wubi_dict.phrase_code(word) == code


def test_phrase_code_matches_table_for_real_phrases(wubi_dict):
    conn = sqlite3.connect(wubi_dict.path)
    rows = conn.execute("SELECT code, text FROM entries WHERE n_chars > 1 AND common = 1 LIMIT 3000").fetchall()
    rows = [(c, t) for c, t in rows if all(wubi_dict.full_code(ch) for ch in t)]
    assert len(rows) > 2000
    agree = sum(wubi_dict.phrase_code(t) == c for c, t in rows)
    assert agree / len(rows) > 0.97  # the rest use alternative character codes


def test_phrase_code_errors(wubi_dict):
    with pytest.raises(InputError):
        wubi_dict.phrase_code("中")
    with pytest.raises(UnknownCodeError):
        wubi_dict.phrase_code("中a")


@pytest.mark.parametrize("query", ["ni", "ni3", "nǐ", "NI3"])
def test_pinyin_reverse_lookup(wubi_dict, query):
    hits = wubi_dict.by_pinyin(query, limit=10)
    assert hits[0].char == "你" and hits[0].full_code == "wqiy"
    assert [h.weight for h in hits] == sorted((h.weight for h in hits), reverse=True)


def test_pinyin_limit_counts_characters_not_readings(wubi_dict):
    hits = wubi_dict.by_pinyin("ni", limit=5)
    assert len(hits) == 5 and len({h.char for h in hits}) == 5
    assert [h.char for h in hits] == [h.char for h in wubi_dict.by_pinyin("ni")[:5]]


def test_pinyin_tone_filters_and_u_umlaut(wubi_dict):
    assert all(h.reading == "hǎo" for h in wubi_dict.by_pinyin("hao3"))
    assert "好" in [h.char for h in wubi_dict.by_pinyin("hao4")]
    assert "绿" in [h.char for h in wubi_dict.by_pinyin("lv4")]
    assert "绿" in [h.char for h in wubi_dict.by_pinyin("lü")]
    assert wubi_dict.pinyin("好") == ["hǎo", "hào"]


def test_charset_filter(wubi_dict):
    assert in_charset("你好", "gb2312") and not in_charset("㠭", "gb2312") and in_charset("㠭", "all")
    assert in_charset("驪", "gbk") and not in_charset("驪", "gb2312") and not in_charset("𠉎", "gbk")
    for charset in ("gbk", "gb2312"):
        assert all(in_charset(h.char, charset) for h in wubi_dict.by_pinyin("ni", charset=charset))
        assert all(in_charset(c.text, charset) for c in wubi_dict.candidates("cg", charset=charset))
    assert "驪" in [c.text for c in wubi_dict.candidates("cg", charset="gbk")]
    with pytest.raises(InputError, match="unknown charset"):
        wubi_dict.candidates("a", charset="common")


def test_thread_safety(wubi_dict):
    expected = {ch: wubi_dict.full_code(ch) for ch in "你好的发国工人中"}
    errors = []

    def worker():
        try:
            for _ in range(40):
                for ch, code in expected.items():
                    assert wubi_dict.full_code(ch) == code
                    assert wubi_dict.candidates(code[:2], limit=5)
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_metadata_and_content_hash(wubi_dict):
    meta = wubi_dict.meta
    assert meta["source_package"] == "ibus-table-wubi"
    assert meta["source_license"] == "Freely redistributable without restriction"
    digest = hashlib.sha256()
    conn = sqlite3.connect(wubi_dict.path)
    for table in ("chars", "entries", "symbols", "pinyin"):
        for row in conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2"):
            digest.update(json.dumps(row, ensure_ascii=False).encode("utf-8") + b"\n")
    assert wubi_dict.content_hash == "sha256:" + digest.hexdigest()


def test_missing_or_foreign_db(tmp_path):
    with pytest.raises(DictionaryError):
        WubiDictionary(tmp_path / "nope.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(DictionaryError):
        WubiDictionary(junk)


def test_lists_for_lessons_and_the_root_chart(wubi_dict):
    firsts = dict(wubi_dict.first_choices("short1"))
    assert len(firsts) == 25 and firsts["g"] == "一" and firsts["r"] == "的"
    common = wubi_dict.first_choices("phrase", n_chars=2, common=True, limit=5)
    assert len(common) == 5 and all(len(t) == 2 and wubi_dict.phrase_code(t) == c for c, t in common)
    most = wubi_dict.most_used_han(500)
    assert "的" in most[:5] and len(set(most)) == 500 and all("\u4e00" <= c <= "\u9fff" for c in most)
    many = most + ["𠂹", "A", "\ud800"]  # over SQLite's 500 bound parameters, an uncoded char, a lone surrogate
    weights = wubi_dict.weights(many)
    assert set(weights) == set(most) | {"𠂹"} and weights["的"] > weights["𠂹"]
    assert sorted(most, key=weights.__getitem__, reverse=True) == most


def test_many_at_once_equal_one_at_a_time(wubi_dict):
    """full_codes, shortest_codes and exact_candidates_of give what their one-item forms give,
    over more than one batch of parameters, with characters that have no code and a lone surrogate."""
    chars = wubi_dict.most_used_han(1200) + ["a", "。", "\ud800", "𠀀", "😀"]
    full = wubi_dict.full_codes(chars)
    assert full == {c: code for c in chars if "\ud800" != c and (code := wubi_dict.full_code(c))}
    shortest = wubi_dict.shortest_codes(chars)
    assert shortest == {c: code for c in chars if "\ud800" != c and (code := wubi_dict.shortest_code(c))}
    assert any(shortest[c] != full[c] for c in shortest)
    codes = sorted(set(full.values())) + ["zzzz", "xxxx"]
    found = wubi_dict.exact_candidates_of(c for c in codes if c != "zzzz")
    assert found == {c: e for c in codes if c != "zzzz" and (e := wubi_dict.exact_candidates(c))}
    assert any(len(e) > 1 for e in found.values())


def test_a_book_is_looked_up_in_few_queries(wubi_dict):
    """Converting a text of 3,000 distinct characters to codes and back asks the table a few dozen
    times, not once per character or code: each query lets go of the GIL, and the app's GUI thread,
    waiting for it, starved for 30-60 ms while a conversion thread asked one by one."""
    text = "，".join(wubi_dict.most_used_han(3000)) * 2
    statements: list[str] = []
    wubi_dict._conn().set_trace_callback(statements.append)
    try:
        codes = to_codes(text, style="shortest", dictionary=wubi_dict)
        pieces = decode_code_text(codes, dictionary=wubi_dict)
    finally:
        wubi_dict._conn().set_trace_callback(None)
    assert "".join(p.text for p in pieces) == text
    assert 0 < len(statements) <= 40
