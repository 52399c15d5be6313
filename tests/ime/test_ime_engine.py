"""The Wubi-86 composition engine, driven by key scripts against the bundled dictionary."""
from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.errors import InputError
from wubitok.ime import CHINESE_PUNCTUATION, NAMED_KEYS, ImeEngine, UserFrequencies, full_width, parse_keys
from wubitok.ime.engine import MAX_CODE, MAX_LOOKUP
from wubitok.ime.keys import CHARACTER_KEYS, KEY_ALIASES
from wubitok.wubi.dictionary import in_charset


def type_keys(engine: ImeEngine, script: str) -> str:
    return "".join(engine.press(k) for k in parse_keys(script))


def texts(state) -> list[str]:
    return [c.text for c in state.candidates]


def dictionary_order(wubi_dict, code: str, charset: str = "all") -> list[str]:
    """What the dictionary lists for a code, each text once."""
    out: list[str] = []
    for c in wubi_dict.candidates(code, charset=charset):
        if c.text not in out:
            out.append(c.text)
    return out


# The dictionary's own order: every character, no reordering by script.
TABLE_ORDER = {"charset": "all", "simplified_first": False}


@pytest.fixture
def engine(wubi_dict):
    """Learning off: the dictionary's order, nothing written."""
    e = ImeEngine(wubi_dict, learning=False, **TABLE_ORDER)
    yield e
    e.close()


@pytest.fixture
def learner(wubi_dict, user_data_dir):
    e = ImeEngine(wubi_dict, learning=True, **TABLE_ORDER)
    yield e
    e.close()


# -- codes and candidates --------------------------------------------------

def test_a_unique_full_code_commits_itself(engine, wubi_dict):
    assert [c.text for c in wubi_dict.exact_candidates("wqin")] == ["您"]
    assert type_keys(engine, "wqi") == ""
    assert engine.press("n") == "您"
    assert engine.state.preedit == "" and engine.state.candidates == ()
    assert engine.state.last_commit.text == "您" and engine.state.last_commit.code == "wqin"


def test_a_shared_full_code_waits_and_the_next_key_commits_the_first(engine, wubi_dict):
    # wqiy also types the phrase 仰泳 and an Ext-B character, so it is not unique.
    shared = [c.text for c in wubi_dict.exact_candidates("wqiy")]
    assert shared[0] == "你" and len(shared) > 1
    assert type_keys(engine, "wqiy") == ""
    state = engine.state
    assert state.preedit == "wqiy" and texts(state) == shared
    assert [c.kind for c in state.candidates] == ["exact"] * len(shared)
    assert [c.hint for c in state.candidates] == [""] * len(shared)
    assert engine.press("v") == "你"
    assert engine.state.preedit == "v"


def test_auto_commit_can_be_turned_off(wubi_dict):
    e = ImeEngine(wubi_dict, learning=False, auto_commit=False)
    assert type_keys(e, "wqin") == ""
    assert texts(e.state) == ["您"]
    assert e.press("space") == "您"


def test_space_commits_the_first_candidate(engine):
    assert type_keys(engine, "vb ") == "好"
    assert type_keys(engine, "vb{space}") == "好"
    assert type_keys(engine, "khlg{space}") == "中国"
    assert type_keys(engine, "wqiy{space}vb{space}") == "你好"


def test_next_code_after_a_full_code_commits_the_first_candidate(engine):
    assert type_keys(engine, "wqiyvb") == "你"
    state = engine.state
    assert state.preedit == "vb" and texts(state)[0] == "好"


def test_fifth_key_commits_and_starts_a_new_code(engine):
    assert type_keys(engine, "khlgv") == "中国"
    assert engine.state.preedit == "v"
    assert type_keys(engine, "bg{space}") == "好"


def test_fifth_key_z_commits_and_starts_a_pinyin_lookup(engine):
    assert type_keys(engine, "khlgz") == "中国"
    assert engine.state.preedit == "z" and engine.state.pinyin


def test_candidates_follow_the_dictionary_with_completions_and_hints(engine, wubi_dict):
    type_keys(engine, "wq")
    state = engine.state
    assert texts(state) == dictionary_order(wubi_dict, "wq")[:5]
    first, *rest = state.candidates
    assert (first.text, first.kind, first.hint) == ("你", "exact", "")
    for c in rest:
        assert c.kind == "completion" and c.code.startswith("wq") and c.hint == c.code[2:]


def test_aaaa_shows_gong_before_the_ext_a_character(engine):
    type_keys(engine, "aaaa")
    shown = texts(engine.state)
    assert shown.index("工") < shown.index("㠭")


def test_a_code_without_candidates_is_dropped_by_space_and_kept_by_enter(engine, wubi_dict):
    dead = next(a + b + c for a in "abc" for b in "abc" for c in "hjmo" if not wubi_dict.candidates(a + b + c))
    type_keys(engine, dead)
    assert engine.state.preedit == dead
    assert engine.state.candidates == () and engine.state.page_count == 0
    assert engine.press("space") == ""
    assert engine.state.preedit == ""
    assert type_keys(engine, dead + "{enter}") == dead


# -- paging and selection --------------------------------------------------

def test_pages_turn_with_minus_equals_and_page_keys(engine, wubi_dict):
    full = dictionary_order(wubi_dict, "a")
    engine.press("a")
    assert engine.state.page_count == -(-len(full) // 5)
    assert texts(engine.state) == full[:5]
    engine.press("=")
    assert engine.state.page == 1 and texts(engine.state) == full[5:10]
    engine.press("pagedown")
    assert engine.state.page == 2 and texts(engine.state) == full[10:15]
    engine.press("-")
    engine.press("pageup")
    engine.press("pageup")  # already on the first page
    assert engine.state.page == 0 and texts(engine.state) == full[:5]


def test_space_and_digits_work_on_the_current_page(engine, wubi_dict):
    full = dictionary_order(wubi_dict, "a")
    assert type_keys(engine, "a= ") == full[5]
    assert type_keys(engine, "a=2") == full[6]
    assert type_keys(engine, "a3") == full[2]


def test_a_digit_beyond_the_page_or_zero_is_ignored(engine):
    type_keys(engine, "wqiy")
    n = len(engine.state.candidates)
    assert engine.press(str(n + 1)) == ""
    assert engine.press("0") == ""
    assert engine.state.preedit == "wqiy"


def test_last_page_stays_put(engine, wubi_dict):
    full = dictionary_order(wubi_dict, "wqi")
    engine.configure(page_size=3)
    type_keys(engine, "wqi")
    pages = -(-len(full) // 3)
    for _ in range(pages + 2):
        engine.press("pagedown")
    assert engine.state.page == pages - 1
    assert texts(engine.state) == full[(pages - 1) * 3:]


def test_page_size_is_configurable_and_checked(wubi_dict):
    e = ImeEngine(wubi_dict, learning=False, page_size=9)
    e.press("a")
    assert len(e.state.candidates) == 9
    assert e.press("9") == dictionary_order(wubi_dict, "a")[8]
    for bad in (0, 10, "5", True):
        with pytest.raises(InputError):
            ImeEngine(wubi_dict, learning=False, page_size=bad)
    with pytest.raises(InputError):
        e.configure(page_size=0)
    with pytest.raises(InputError):
        e.configure(colour="red")


def test_select_commits_a_candidate_of_the_page(engine, wubi_dict):
    type_keys(engine, "khlg")
    assert engine.select(1) == wubi_dict.exact_candidates("khlg")[1].text
    type_keys(engine, "khlg")
    with pytest.raises(InputError):
        engine.select(7)


# -- editing keys ----------------------------------------------------------

def test_backspace_escape_enter_while_composing(engine):
    type_keys(engine, "vbg")
    assert engine.process("backspace") == ("", True)
    assert engine.state.preedit == "vb"
    assert engine.process("escape") == ("", True)
    assert engine.state.preedit == ""
    assert type_keys(engine, "vb{bs}{bs}") == "" and not engine.composing
    assert type_keys(engine, "vb") == ""
    assert engine.process("enter") == ("vb", True)


def test_editing_keys_belong_to_the_editor_when_not_composing(engine):
    for key in ("backspace", "enter", "escape", "pageup", "pagedown"):
        assert engine.process(key) == ("", False)
    assert engine.process("space") == (" ", True)


def test_key_names_aliases_and_characters(engine):
    assert parse_keys("wq{bs}{ESC}{pgdn}{pgup}{full}{{x} ") == [
        "w", "q", "backspace", "escape", "pagedown", "pageup", "fullwidth", "{", "x", "}", "space"]
    assert set(KEY_ALIASES.values()) <= set(NAMED_KEYS) and set(CHARACTER_KEYS.values()) <= set(NAMED_KEYS)
    assert engine.process("\x1b") == ("", False)
    for bad in ("", "ab", "tab"):
        with pytest.raises(InputError):
            engine.process(bad)
    for script in ("{tab}", "{}", "wq{space", "{ }"):
        with pytest.raises(InputError):
            parse_keys(script)


# -- wildcard and pinyin ---------------------------------------------------

def test_z_inside_a_code_is_a_wildcard(engine, wubi_dict):
    type_keys(engine, "wzi")
    state = engine.state
    assert texts(state) == dictionary_order(wubi_dict, "wzi")[:5]
    assert "你" in texts(state)
    for c in state.candidates:
        assert c.hint == c.code and c.code[0] == "w" and c.code[2] == "i"


def test_z_first_looks_up_pinyin_with_wubi_codes_as_hints(engine, wubi_dict):
    type_keys(engine, "zni")
    state = engine.state
    assert state.pinyin and state.preedit == "zni"
    ni = next(c for c in state.candidates if c.text == "你")
    assert (ni.hint, ni.code, ni.kind) == ("wq wqi wqiy", "wqiy", "pinyin")  # every code, shortest first
    assert texts(state) == [h.char for h in wubi_dict.by_pinyin("ni")][:5]
    assert engine.select(texts(state).index("你")) == "你"
    assert not engine.state.pinyin


def test_pinyin_lookup_takes_z_in_syllables_and_stops_at_its_length(engine, wubi_dict):
    type_keys(engine, "zzhuang")
    assert engine.state.preedit == "zzhuang"
    assert texts(engine.state) == [h.char for h in wubi_dict.by_pinyin("zhuang")][:5]
    type_keys(engine, "x" * 30)
    assert engine.state.preedit == "zzhuang" + "x" * (MAX_LOOKUP - 6)
    type_keys(engine, "{esc}zzhuang")
    assert type_keys(engine, "{bs}{bs}{bs}") == "" and engine.state.preedit == "zzhu"
    assert type_keys(engine, "{esc}z") == "" and engine.state.candidates == ()
    assert engine.press(",") == "，"  # a bare z has nothing to commit


# -- punctuation and modes -------------------------------------------------

def test_chinese_punctuation(engine):
    for key, chinese in CHINESE_PUNCTUATION.items():
        assert engine.press(key) == chinese
    assert CHINESE_PUNCTUATION["^"] == "……" and CHINESE_PUNCTUATION["_"] == "——"
    assert type_keys(engine, "@#%&*+/|") == "@#%&*+/|"  # no Chinese form: unchanged


def test_quotes_alternate_between_opening_and_closing(engine):
    assert type_keys(engine, "\"\"\"\"") == "“”“”"
    assert type_keys(engine, "''") == "‘’"
    assert type_keys(engine, "\"'vb'\"") == "“‘好’”"
    engine.reset()
    assert engine.press("'") == "‘"


def test_reset_starts_a_new_document_but_keeps_the_modes(engine):
    type_keys(engine, "\"vb {full}{shift}wq")
    engine.reset()
    state = engine.state
    assert (state.preedit, state.last_commit, state.chinese, state.full_width) == ("", None, False, True)
    assert type_keys(engine, "{shift}\"") == "“"


def test_punctuation_while_composing_commits_the_first_candidate_first(engine):
    assert type_keys(engine, "wqiy,") == "你，"
    assert type_keys(engine, "vb.") == "好。"
    assert type_keys(engine, "khlg!") == "中国！"


def test_a_capital_letter_makes_the_code_an_english_run(engine):
    """As Rime's ascii_composer: the keys typed so far and the capital are English (issue #39, 7)."""
    assert type_keys(engine, "iPhone{space}") == "iPhone"
    assert type_keys(engine, "khlgA{enter}") == "khlgA"
    assert type_keys(engine, "Win11.") == "Win11。"  # punctuation ends the run and types itself
    type_keys(engine, "Xy{bs}")
    assert engine.state.preedit == "X" and engine.state.candidates == () and engine.composing
    assert type_keys(engine, "{esc}g ") == "一"
    assert type_keys(engine, "{full}Ab ") == "Ａｂ"


def test_shift_toggles_english_mode(engine):
    assert type_keys(engine, "{shift}hello, world.{shift}vb,") == "hello, world.好，"
    assert engine.state.chinese


def test_shift_while_composing_commits_the_typed_letters(engine):
    assert type_keys(engine, "wqiy{shift}") == "wqiy"
    assert not engine.state.chinese and not engine.composing


def test_full_width_toggle(engine):
    assert type_keys(engine, "{full}12@ ") == "１２＠\u3000"
    assert type_keys(engine, "{shift}Ab1!") == "Ａｂ１！"
    assert engine.state.full_width and not engine.state.chinese
    assert type_keys(engine, "{full}Ab1! ") == "Ab1! "


@given(st.text(alphabet=st.characters(blacklist_characters=list(CHARACTER_KEYS)), max_size=40))
@settings(max_examples=60, deadline=None)
def test_english_mode_passes_any_text_through(wubi_dict, text):
    e = ImeEngine(wubi_dict, learning=False)
    e.press("shift")
    assert "".join(e.press(ch) for ch in text) == text
    e.press("fullwidth")
    assert "".join(e.press(ch) for ch in text) == full_width(text)


# -- charset ---------------------------------------------------------------

def test_charset_gb2312_hides_rare_characters(wubi_dict):
    e = ImeEngine(wubi_dict, learning=False, charset="gb2312", simplified_first=False)
    type_keys(e, "aaaa")
    assert "㠭" not in texts(e.state) and texts(e.state) == dictionary_order(wubi_dict, "aaaa", "gb2312")
    type_keys(e, "{esc}zyi")
    hits = texts(e.state)
    assert hits == [h.char for h in wubi_dict.by_pinyin("yi", charset="gb2312")][:5]
    e.configure(charset="all")  # looks the code up again
    assert texts(e.state) == [h.char for h in wubi_dict.by_pinyin("yi")][:5]
    with pytest.raises(InputError):
        e.configure(charset="rare")


@pytest.mark.parametrize("charset", ["gbk", "gb2312"])
def test_a_charset_shows_only_its_text(wubi_dict, charset):
    e = ImeEngine(wubi_dict, learning=False, charset=charset, page_size=9)
    for code in ("a", "wq", "khlg", "gz", "cg"):
        type_keys(e, "{esc}" + code)
        while True:
            assert all(in_charset(c.text, charset) for c in e.state.candidates)
            if e.state.page + 1 >= e.state.page_count:
                break
            e.press("pagedown")


# -- learning --------------------------------------------------------------

def test_learning_moves_a_chosen_candidate_first_and_persists(wubi_dict, user_data_dir):
    dictionary = [c.text for c in wubi_dict.exact_candidates("khlg")]
    first = ImeEngine(wubi_dict, **TABLE_ORDER)
    assert type_keys(first, "khlg") == "" and texts(first.state) == dictionary
    assert first.press("3") == dictionary[2]
    type_keys(first, "khlg")
    assert texts(first.state)[0] == dictionary[2]
    first.close()

    again = ImeEngine(wubi_dict, **TABLE_ORDER)  # a new session: the choice was saved
    type_keys(again, "khlg")
    assert texts(again.state) == [dictionary[2], *[t for t in dictionary if t != dictionary[2]]]
    assert again.press("space") == dictionary[2]
    again.close()
    assert (user_data_dir / "ime_user.sqlite").is_file()


def test_with_learning_off_the_order_is_the_dictionarys(wubi_dict, user_data_dir):
    learner = ImeEngine(wubi_dict, **TABLE_ORDER)
    type_keys(learner, "khlg3")
    learner.close()
    plain = ImeEngine(wubi_dict, learning=False, **TABLE_ORDER)
    type_keys(plain, "khlg")
    assert texts(plain.state) == [c.text for c in wubi_dict.exact_candidates("khlg")]
    type_keys(plain, "{esc}khlg2")  # and nothing is recorded
    assert UserFrequencies().count("khlg", wubi_dict.exact_candidates("khlg")[1].text) == 0


def test_reset_learning_restores_the_dictionary_order(learner, wubi_dict):
    dictionary = [c.text for c in wubi_dict.exact_candidates("aaaa")]
    type_keys(learner, "aaaa3aaaa")
    assert texts(learner.state)[0] == dictionary[2]
    learner.reset_learning()
    assert texts(learner.state) == dictionary
    reopened = ImeEngine(wubi_dict, **TABLE_ORDER)
    type_keys(reopened, "aaaa")
    assert texts(reopened.state) == dictionary


def test_fixed_char_order_moves_only_phrases(wubi_dict, user_data_dir):
    exact = [c.text for c in wubi_dict.exact_candidates("khlg")]
    chars = [t for t in exact if len(t) == 1]
    phrases = [t for t in exact if len(t) > 1]
    assert chars and len(phrases) >= 3
    e = ImeEngine(wubi_dict, fixed_char_order=True, **TABLE_ORDER)
    type_keys(e, "khlg")
    e.select(exact.index(chars[-1]))  # a character chosen: it keeps its place
    type_keys(e, "khlg")
    assert texts(e.state) == exact
    e.select(exact.index(phrases[2]))  # a phrase chosen: it moves ahead of the other phrases
    type_keys(e, "khlg")
    shown = texts(e.state)
    assert [t for t in shown if len(t) > 1] == [phrases[2], phrases[0], phrases[1], *phrases[3:]]
    assert [i for i, t in enumerate(shown) if len(t) == 1] == [i for i, t in enumerate(exact) if len(t) == 1]
    e.configure(fixed_char_order=False)  # now the character chosen earlier moves up too
    chosen = {chars[-1], phrases[2]}
    assert texts(e.state) == [t for t in exact if t in chosen] + [t for t in exact if t not in chosen]


def test_completions_are_learned_under_their_own_code(learner, wubi_dict):
    type_keys(learner, "wq")
    nin = next(i for i, c in enumerate(learner.state.candidates) if c.text == "您")
    assert learner.select(nin) == "您"
    db = UserFrequencies()
    assert db.count("wqin", "您") == 1
    db.close()


def test_pinyin_choices_are_not_learned(learner, user_data_dir):
    assert type_keys(learner, "zni{space}") == "你"
    db = UserFrequencies()
    assert len(db) == 0
    db.close()


# -- robustness ------------------------------------------------------------

KEYS = list("abcdefghijklmnopqrstuvwxyz0123456789,.;'\"-=!?A ") + list(NAMED_KEYS)


@given(st.lists(st.sampled_from(KEYS), max_size=40))
@settings(max_examples=150, deadline=None)
def test_any_key_sequence_keeps_the_state_consistent(wubi_dict, keys):
    e = ImeEngine(wubi_dict, learning=False, page_size=4)
    for key in keys:
        result = e.process(key)
        s = e.state
        assert result.handled or (not result.committed and key in NAMED_KEYS)
        if s.english_run:  # a capital letter made the keys English: they are kept as typed
            assert s.preedit.isascii() and s.preedit.isalnum() and not s.candidates and not s.pinyin
            continue
        assert len(s.preedit) <= (1 + MAX_LOOKUP if s.pinyin else MAX_CODE)  # z + several syllables with tones
        assert s.pinyin == s.preedit.startswith("z")
        assert len(s.candidates) <= 4
        assert (s.page_count == 0 and s.page == 0) or 0 <= s.page < s.page_count
        if s.preedit and not s.pinyin:
            assert set(s.preedit) <= set(string.ascii_lowercase)


def test_the_punctuation_mode_leaves_punctuation_keys_as_they_are():
    engine = ImeEngine(learning=False)
    assert engine.state.chinese_punctuation
    assert engine.process("punctuation") == ("", True)
    assert not engine.state.chinese_punctuation
    # Still commits the code first, then the key itself.
    assert "".join(engine.press(k) for k in parse_keys("wqiy,'")) == "你,'"
    engine.process("fullwidth")
    assert engine.press(",") == "，"  # full width of ',' (U+FF0C), not Chinese punctuation
    engine.process("punct")
    engine.process("fullwidth")
    assert engine.press("\\") == "、"
