import pytest

from wubitok.convert import code_alternatives, to_code_pieces, to_codes, to_hanzi
from wubitok.errors import InputError, UnknownCodeError


def test_to_codes_passes_everything_else_through():
    assert to_codes("你好，世界! ok") == "wqiy vbg，anv lwjj! ok"
    assert to_codes("abc\n") == "abc\n"


def test_shortest_style_and_separator():
    assert to_codes("我们的中国", style="shortest") == "q wu r k l"
    assert to_codes("你好", separator="/") == "wqiy/vbg"


def test_pieces_join_to_input():
    text = "中文 mixed 𠀀 text\t！"
    pieces = to_code_pieces(text)
    assert "".join(p.text for p in pieces) == text
    coded = [(p.text, p.code) for p in pieces if p.code]
    assert coded[:2] == [("中", "khk"), ("文", "yygy")]
    assert all(p.code is None for p in pieces if not ("\u4e00" <= p.text[0] <= "\U0002ffff"))


def test_to_hanzi_and_alternatives():
    assert to_hanzi("wqiy vbg") == "你好"
    assert to_hanzi("khlg ， aaaa") == "中国，工"
    assert [c.text for c in code_alternatives("aaaa")][:1] == ["工"]
    assert "㠭" in [c.text for c in code_alternatives("aaaa")]


@pytest.mark.parametrize("bad, err", [("", InputError), ("abcde", InputError), ("qq1q", InputError)])
def test_to_hanzi_errors(bad, err):
    with pytest.raises(err):
        to_hanzi(bad)


def test_unknown_code(wubi_dict):
    import sqlite3

    used = {r[0] for r in sqlite3.connect(wubi_dict.path).execute("SELECT DISTINCT code FROM entries")}
    unknown = next(a + b + c + d for a in "xy" for b in "xy" for c in "xy" for d in "xy" if a + b + c + d not in used)
    with pytest.raises(UnknownCodeError):
        to_hanzi(unknown)
