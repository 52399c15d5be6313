import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from wubitok.errors import InputError, UnknownCodeError
from wubitok.wubi.convert import code_alternatives, quote, split_code_text, to_code_pieces, to_codes, to_hanzi


def test_exact_code_text_reads_back_the_text_of_the_issue():
    # Shared codes carry a selector, Latin text is quoted, spaces are kept.
    assert to_codes("支持 f-string 和") == "fcu2 rffy ` f-string ` tkg"
    assert to_hanzi("fcu2 rffy ` f-string ` tkg") == "支持 f-string 和"
    # 输 is the second entry on lwgj, after the phrase 办理.
    assert [c.text for c in code_alternatives("lwgj")][:2] == ["办理", "输"]
    assert to_codes("输") == "lwgj2" and to_hanzi("lwgj2") == "输" and to_hanzi("lwgj") == "办理"


def test_plain_codes_are_what_a_typist_reads():
    assert to_codes("你好，世界! ok", plain=True) == "wqiy vbg，anv lwjj! ok"
    assert to_codes("支持 f-string 和", plain=True) == "fcu rffy f-string tkg"
    assert to_codes("abc\n", plain=True) == "abc\n"
    assert to_codes("你好，世界! ok") == "wqiy vbg，anv lwjj `! ok`"


def test_shortest_style_and_separator():
    assert to_codes("我们的中国", style="shortest") == "q wu r k l"
    assert to_codes("你好", separator="/") == "wqiy/vbg"
    assert to_codes("中/文", separator="/") == "khk/`/`/yygy"
    assert to_hanzi("khk/`/`/yygy", separator="/") == "中/文"
    with pytest.raises(InputError, match="separator 'x'"):
        to_codes("中文", separator="x")


def test_pieces_join_to_input():
    text = "中文 mixed 𠀀 text\t！"
    pieces = to_code_pieces(text)
    assert "".join(p.text for p in pieces) == text
    coded = [(p.text, p.code, p.spelled) for p in pieces if p.code]
    assert coded[:2] == [("中", "khk", "khk"), ("文", "yygy", "yygy")]
    assert all(p.code is None for p in pieces if not ("\u4e00" <= p.text[0] <= "\U0002ffff"))


def test_to_hanzi_and_alternatives():
    assert to_hanzi("wqiy vbg") == "你好"
    assert to_hanzi("khlg ， aaaa") == "中国，工"
    assert to_hanzi("wqiy vbg，anv lwjj") == "你好，世界"  # punctuation needs no spaces
    assert to_hanzi("WQIY") == "你"
    assert [c.text for c in code_alternatives("aaaa")][:1] == ["工"]
    assert "㠭" in [c.text for c in code_alternatives("aaaa")]
    assert to_hanzi("") == ""


def test_split_code_text_keeps_every_character():
    text = "wqiy2  `a``b`，x"
    tokens = split_code_text(text)
    assert "".join(t.source for t in tokens) == text
    assert [(t.code, t.selector, t.text) for t in tokens] == [
        ("wqiy", 2, None), (None, 0, None), (None, 0, "a`b"), (None, 0, "，"), ("x", 0, None)]
    assert split_code_text("vbg `ab", strict=False)[-1].text == "ab"


@pytest.mark.parametrize("bad, err, message", [
    ("abcde", InputError, "not a Wubi code"),
    ("vbg `open", InputError, "without its closing"),
    ("vbg99", UnknownCodeError, "code .vbg. has 2 entries"),
])
def test_to_hanzi_errors(bad, err, message):
    with pytest.raises(err, match=message):
        to_hanzi(bad)


def test_unknown_code(wubi_dict):
    import sqlite3

    used = {r[0] for r in sqlite3.connect(wubi_dict.path).execute("SELECT DISTINCT code FROM entries")}
    unknown = next(a + b + c + d for a in "xy" for b in "xy" for c in "xy" for d in "xy" if a + b + c + d not in used)
    with pytest.raises(UnknownCodeError) as caught:
        to_hanzi(unknown)
    assert caught.value.code == "convert.unknown_code" and caught.value.params == {"wubi": unknown}


# Han characters (common, shared codes, Ext A/B) mixed with anything at all,
# lone surrogates included.
_HAN = st.sampled_from("你好支持和输的去工㠭𠀀𠉎办理中国文")
_TEXT = st.lists(st.one_of(_HAN, st.characters(), st.sampled_from(" \t\n`1a")), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT | st.text(), style=st.sampled_from(["full", "shortest"]), separator=st.sampled_from([" ", "/", "|"]))
def test_codes_come_back_as_the_exact_text(text, style, separator):
    codes = to_codes(text, style=style, separator=separator)
    assert to_hanzi(codes, separator=separator) == text


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_quote_reads_back(text):
    assert to_hanzi(quote(text)) == text


def test_spelled_code_gives_the_selector_to_entries_after_the_first():
    from wubitok.wubi.convert import spelled_code

    assert spelled_code("ggtt", "来来往往") == "ggtt2"
    assert spelled_code("vbg", "好") == "vbg"
    assert spelled_code("vbg", "不在这里") == "vbg"  # not an entry of the code: the bare code


def _as_slices(text: str, cuts: list[int]) -> list[tuple[str, int, int]]:
    """``text`` as slices of strings with something around each (an editor's text between edits)."""
    bounds = sorted({0, len(text), *(min(c, len(text)) for c in cuts)})
    return [("x" + text[a:b] + "y", 1, 1 + b - a) for a, b in zip(bounds, bounds[1:])]


@settings(max_examples=300, deadline=None)
@example("wqiy ```` vbg", [8], " ", 7, 12, True)  # a cut inside a quote, after its doubled `
@example("`a``b`", [4], "", 7, 12, True)
@given(st.text(alphabet=st.sampled_from("ab12 `\t|，中\r\n"), max_size=60), st.lists(st.integers(0, 60), max_size=5),
       st.sampled_from([" ", "|", "", "||"]), st.integers(1, 7), st.integers(1, 12), st.booleans())
def test_code_text_read_in_slices_gives_the_tokens_of_the_whole(text, cuts, separator, block, long, strict):
    from unittest import mock

    import wubitok.wubi.convert as convert

    def tokens(codes):
        try:
            return list(convert.code_tokens(codes, separator, strict=strict))
        except InputError as e:
            return str(e)

    # Blocks of a few characters, and a "long" token of a few more: every way a token meets a cut.
    with mock.patch.object(convert, "TOKEN_BLOCK_CHARS", block), mock.patch.object(convert, "LONG_TOKEN", long):
        assert tokens(_as_slices(text, cuts)) == tokens(text)
