"""What daily typists rely on: punctuation conventions, symbols, phrase lookup by pinyin,
the empty-code rule, charsets, traditional output, own phrases, forget and pin."""
from __future__ import annotations

import json
import string

import opencc
import pytest

from wubitok.errors import FileError, InputError, UnknownCodeError
from wubitok.ime import ImeEngine, ImeOptions, UserFrequencies, load_options, parse_keys, save_options
from wubitok.ime.options import SETTINGS_FILE
from wubitok.ime.short_codes import STANDARD_SHORT_CODES
from wubitok.wubi.dictionary import in_charset


def type_keys(engine: ImeEngine, script: str) -> str:
    return "".join(engine.press(k) for k in parse_keys(script))


def texts(engine: ImeEngine) -> list[str]:
    return [c.text for c in engine.state.candidates]


@pytest.fixture
def engine(wubi_dict):
    e = ImeEngine(wubi_dict, learning=False)
    yield e
    e.close()


@pytest.fixture
def learner(wubi_dict, user_data_dir):
    e = ImeEngine(wubi_dict, learning=True)
    yield e
    e.close()


# -- punctuation -------------------------------------------------------------

def test_a_dot_after_a_digit_stays_a_dot(engine):
    assert type_keys(engine, "3.14") == "3.14"
    assert type_keys(engine, "vb.") == "好。"
    assert type_keys(engine, "1{bs}.") == "1。"  # the editor deleted the digit
    assert type_keys(engine, "{full}3.") == "３．"


def test_corner_brackets_as_ibus_table_and_the_lenticular_ones_by_symbol_code(engine):
    assert type_keys(engine, "[vb]{{vb}") == "「好」『好』"
    type_keys(engine, "zzbd")
    assert {"【】", "「」", "『』"} <= set(c.text for c in _all_pages(engine))
    e = engine
    e.press("escape")
    e.configure(punctuation={"[": "【", "]": "】"})
    assert type_keys(e, "[vb]") == "【好】"


def _all_pages(engine):
    out = list(engine.state.candidates)
    while engine.state.page + 1 < engine.state.page_count:
        engine.press("pagedown")
        out += engine.state.candidates
    return out


def test_symbol_codes_do_not_clash_with_pinyin(engine, wubi_dict):
    type_keys(engine, "zzsx")
    shown = _all_pages(engine)
    assert "±" in [c.text for c in shown] and all(c.kind == "symbol" for c in shown)
    type_keys(engine, "{esc}zzi")  # z + the syllable zi
    zi = [c.text for c in engine.state.candidates]
    assert zi == [h.char for h in wubi_dict.by_pinyin("zi", charset="gbk")][:5]
    assert type_keys(engine, "{esc}zzbd{space}") == "“”"


def test_full_width_covers_every_printable_ascii_character(engine):
    engine.press("shift")
    engine.press("fullwidth")
    for ch in string.printable[:95]:
        out = engine.press(ch)
        assert len(out) == 1 and (out == "\u3000" if ch == " " else ord(out) == ord(ch) + 0xFEE0)


def test_user_punctuation_map_is_checked(wubi_dict):
    for bad in ({"a": "x"}, {"1": "x"}, {",": ""}, {"ab": "x"}):
        with pytest.raises(InputError):
            ImeEngine(wubi_dict, learning=False, punctuation=bad)


# -- pinyin lookup of phrases ------------------------------------------------

@pytest.mark.parametrize("keys", ["znihao", "zni;3hao;3", "znihao;3", "zni;3hao"])
def test_pinyin_lookup_of_a_phrase_with_or_without_tones(engine, wubi_dict, keys):
    type_keys(engine, keys)
    first = engine.state.candidates[0]
    assert (first.text, first.kind) == ("你好", "pinyin")
    assert first.hint.split() == sorted({wubi_dict.phrase_code("你好"), *(c.code for c in wubi_dict.codes("你好"))},
                                        key=lambda c: (len(c), c))
    assert engine.press("space") == "你好"


def test_a_pinyin_hint_lists_every_code_of_a_character(engine, wubi_dict):
    type_keys(engine, "zzhong")
    zhong = next(c for c in engine.state.candidates if c.text == "中")
    assert zhong.hint.split() == sorted((c.code for c in wubi_dict.codes("中")), key=lambda c: (len(c), c))
    assert zhong.hint.split()[0] == "k" and zhong.hint.split()[-1] == wubi_dict.full_code("中")


def test_a_tone_follows_the_tone_key_and_later_digits_select(engine, wubi_dict):
    type_keys(engine, "zni;2")
    assert engine.state.preedit == "zni;2"
    assert all("ni2" in [r for r in _numbered(wubi_dict, c.text)] for c in engine.state.candidates)
    second = engine.state.candidates[1].text
    assert engine.press("2") == second
    type_keys(engine, "zx;")
    assert engine.press("3") == ""  # nothing reads x3: the digit is ignored, the ; still waits
    assert engine.state.preedit == "zx;"
    assert engine.press("9") == "" and engine.state.preedit == "zx;"  # no tone 9


def test_a_digit_after_a_syllable_selects_as_in_rime(engine):
    type_keys(engine, "zni")
    third = engine.state.candidates[2].text
    assert engine.press("3") == third  # zni3: the third candidate (Rime: 尼), no tone filter
    type_keys(engine, "zni=")
    second_page = [c.text for c in engine.state.candidates]
    assert engine.state.page == 1
    assert engine.press("2") == second_page[1]  # zni=2: - and = always page, the digit selects
    type_keys(engine, "zni=-")
    assert engine.state.page == 0


def _numbered(wubi_dict, char):
    import sqlite3
    return [r for (r,) in sqlite3.connect(wubi_dict.path).execute("SELECT numbered FROM pinyin WHERE char = ?",
                                                                   (char,))]


# -- empty codes, 顶字, auto-commit -------------------------------------------

def test_empty_code_rules(wubi_dict):
    clear = ImeEngine(wubi_dict, learning=False)
    assert type_keys(clear, "wqiu ") == "" and clear.state.preedit == ""
    assert type_keys(clear, "wqiuv") == "" and clear.state.preedit == "v"
    keep = ImeEngine(wubi_dict, learning=False, empty_code="keep")
    assert type_keys(keep, "wqiu ,v") == "" and keep.state.preedit == "wqiu" and not keep.state.alert
    assert type_keys(keep, "{bs}y ") == "你"
    beep = ImeEngine(wubi_dict, learning=False, empty_code="beep")
    assert type_keys(beep, "wqiu ") == "" and beep.state.alert and beep.state.preedit == "wqiu"
    beep.press("backspace")
    assert not beep.state.alert


def test_top_commit_can_be_turned_off(wubi_dict):
    e = ImeEngine(wubi_dict, learning=False, top_commit=False)
    assert type_keys(e, "wqiyv") == "" and e.state.preedit == "wqiy"
    assert e.press("space") == "你"


# -- charsets and the standard short codes ------------------------------------

def test_the_default_lists_simplified_standard_short_codes_first(engine):
    for code, char in STANDARD_SHORT_CODES.items():
        type_keys(engine, code)
        assert texts(engine)[0] == char, code
        assert engine.press("escape") == ""


def test_the_default_hides_ext_b_so_the_first_page_is_usable(engine, wubi_dict):
    type_keys(engine, "wqiy")
    assert texts(engine) == ["你", "仰泳"] and all(in_charset(t, "gbk") for t in texts(engine))
    assert "𠉎" in [c.text for c in wubi_dict.exact_candidates("wqiy")]


def test_traditional_text_stays_typable_with_gbk(engine, wubi_dict):
    for char in "驪騍須盡過":
        code = wubi_dict.full_code(char)
        typed = type_keys(engine, code)  # a unique code commits itself
        assert typed == char or char in [c.text for c in _all_pages(engine)], char
        engine.press("escape")


def test_simplified_first_moves_gb2312_text_ahead(wubi_dict):
    plain = ImeEngine(wubi_dict, learning=False, charset="all", simplified_first=False)
    first = ImeEngine(wubi_dict, learning=False, charset="all", simplified_first=True)
    for code in ("a", "cgg", "wq"):
        type_keys(plain, code)
        type_keys(first, code)
        a, b = [c.text for c in _all_pages(plain)], [c.text for c in _all_pages(first)]
        assert sorted(a) == sorted(b)
        levels = [in_charset(t, "gb2312") for t in b]
        assert levels == sorted(levels, reverse=True)
        assert [t for t in b if in_charset(t, "gb2312")] == [t for t in a if in_charset(t, "gb2312")]
        plain.press("escape")
        first.press("escape")


# -- output script -------------------------------------------------------------

@pytest.mark.parametrize("output, config", [("traditional", "s2t"), ("tw", "s2tw"), ("hk", "s2hk")])
def test_output_through_opencc(wubi_dict, output, config):
    e = ImeEngine(wubi_dict, learning=False, output=output)
    assert type_keys(e, "udnt ") == opencc.OpenCC(config).convert("头发") == "頭髮"
    assert e.state.last_commit.text == "头发"  # the candidate as typed


def test_simplified_output_converts_traditional_candidates(wubi_dict):
    e = ImeEngine(wubi_dict, learning=False, charset="all", simplified_first=False, output="simplified")
    code = wubi_dict.full_code("驪")
    type_keys(e, code)
    i = [c.text for c in e.state.candidates].index("驪")
    assert e.select(i) == "骊"


def test_an_unknown_output_is_one_input_error(wubi_dict):
    with pytest.raises(InputError, match="unknown output 'cantonese'"):
        ImeEngine(wubi_dict, learning=False, output="cantonese")


# -- own phrases, forget and pin ----------------------------------------------

def test_an_own_phrase_gets_the_standard_code_and_ranks_by_use(learner, wubi_dict):
    text = "五笔输入"
    code = wubi_dict.phrase_code(text)
    assert text not in [c.text for c in wubi_dict.exact_candidates(code)]
    assert learner.add_phrase(text) == code
    type_keys(learner, code)
    shown = [c for c in _all_pages(learner)]
    mine = next(c for c in shown if c.text == text)
    assert mine.user and mine.kind == "exact" and shown.index(mine) == len(wubi_dict.exact_candidates(code))
    learner.press("escape")
    type_keys(learner, code)
    while text not in texts(learner):
        learner.press("pagedown")
    learner.select(texts(learner).index(text))
    type_keys(learner, code)
    assert texts(learner)[0] == text  # chosen once: first now
    reopened = ImeEngine(wubi_dict)
    type_keys(reopened, code)
    assert texts(reopened)[0] == text
    reopened.close()


def test_an_explicit_code_and_bad_phrases(learner, wubi_dict):
    assert learner.add_phrase("我的", "aaaa") == "aaaa"
    type_keys(learner, "aaaa")
    assert "我的" in [c.text for c in _all_pages(learner)]
    before = UserFrequencies().phrases()
    for text, code, error in [("", None, InputError), ("ab", None, InputError), ("好a", None, InputError),
                              ("好", None, InputError), ("你好", "zz", InputError), ("你好", "abcde", InputError),
                              ("你好", "A", InputError), ("\U0002B740好", None, UnknownCodeError)]:
        with pytest.raises(error):
            learner.add_phrase(text, code)
    assert UserFrequencies().phrases() == before  # nothing half-written


def test_forget_removes_a_learned_choice_and_a_user_phrase(learner, wubi_dict):
    exact = [c.text for c in wubi_dict.exact_candidates("khlg")]
    type_keys(learner, "khlg3")
    type_keys(learner, "khlg")
    assert texts(learner)[0] == exact[2]
    assert learner.forget(0) is True
    assert texts(learner)[:3] == exact[:3]
    assert learner.forget(0) is False  # nothing learned about the first one
    learner.press("escape")
    code = learner.add_phrase("五笔输入")
    type_keys(learner, code)
    i = next(i for i, c in enumerate(_all_pages(learner)) if c.text == "五笔输入")
    learner.press("escape")
    type_keys(learner, code)
    for _ in range(i // 5):
        learner.press("pagedown")
    assert learner.forget(i % 5)
    assert "五笔输入" not in [c.text for c in _all_pages(learner)]


def test_forgetting_the_first_choice_restores_the_table_order(learner, wubi_dict):
    """Ctrl+Delete on a learned first candidate puts the table's order back; the choice
    learned before it does not move up in its place (issue #39, 7)."""
    exact = [c.text for c in wubi_dict.exact_candidates("khlg")]
    type_keys(learner, "khlg3khlg3khlg2")  # the third twice, then the second (now first) once
    type_keys(learner, "khlg")
    assert texts(learner)[:2] == [exact[2], exact[1]]
    assert learner.forget(0) is True
    assert texts(learner)[:3] == exact[:3]
    learner.press("escape")
    reopened = ImeEngine(wubi_dict)  # and so it stays
    type_keys(reopened, "khlg")
    assert texts(reopened)[:3] == exact[:3]
    reopened.close()


def test_pin_keeps_a_candidate_at_its_place(learner, wubi_dict):
    type_keys(learner, "khlg")
    shown = texts(learner)
    learner.pin(2, 0)
    assert texts(learner)[0] == shown[2]
    type_keys(learner, "2khlg")  # a choice learned for another one does not move the pinned one
    assert texts(learner)[0] == shown[2]
    learner.forget(0)
    assert texts(learner)[0] != shown[2]


def test_auto_phrases_after_n_typings(wubi_dict, user_data_dir):
    e = ImeEngine(wubi_dict, auto_phrase=2)
    codes = [wubi_dict.shortest_code(c) for c in "输码"]
    script = "".join(c + (" " if len(c) < 4 else "") for c in codes)
    code = wubi_dict.phrase_code("输码")
    assert "输码" not in [c.text for c in wubi_dict.exact_candidates(code)]
    assert type_keys(e, script + ",") == "输码，"
    assert "输码" not in [t for _, t, _ in UserFrequencies().phrases()]
    assert type_keys(e, "vb " + script) == "好输码"  # 好 first: the run 好输码 counts 输码 too
    assert (code, "输码", "auto") in UserFrequencies().phrases()
    assert type_keys(e, code) == "输码"  # its code's only candidate: it commits itself
    e.close()


def test_auto_phrases_are_off_by_default(learner, wubi_dict):
    assert ImeOptions().auto_phrase == 0
    codes = [wubi_dict.shortest_code(c) for c in "输码"]
    for _ in range(5):
        type_keys(learner, "".join(c + " " for c in codes))
    assert UserFrequencies().phrases() == []


# -- the settings store ----------------------------------------------------------

def test_settings_round_trip_and_defaults(user_data_dir):
    assert load_options() == ImeOptions()
    opts = ImeOptions(page_size=9, charset="gb2312", output="tw", empty_code="beep", auto_phrase=3,
                      punctuation={"[": "【"})
    save_options(opts)
    assert load_options() == opts
    saved = json.loads((user_data_dir / SETTINGS_FILE).read_text(encoding="utf-8"))
    assert saved["punctuation"] == {"[": "【"} and saved["page_size"] == 9


@pytest.mark.parametrize("content", ["{", "[]", '{"page_size": 12}', '{"charset": "big5"}', '{"learning": "yes"}'])
def test_bad_settings_files_are_one_file_error(user_data_dir, content):
    user_data_dir.mkdir(parents=True)
    (user_data_dir / SETTINGS_FILE).write_text(content, encoding="utf-8")
    with pytest.raises(FileError, match="not valid typing settings"):
        load_options()
