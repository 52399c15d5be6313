"""Which encoding a file is in, on short texts and on files with a flaw (issue #31, item 15)."""
from __future__ import annotations

import random

import opencc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.errors import FileError
from wubitok.fileio import DETECT_BYTES, check_readable_text, detect_encoding, detection, iter_text_chunks, read_text
from wubitok.paths import resources_dir

TRADITIONAL = "這是一個繁體中文的測試句子，請問你好嗎？我們今天學習的是電腦與網路的基本知識。"
SIMPLIFIED = "这是一个简体中文的测试句子，请问你好吗？我们今天学习的是电脑与网络的基本知识。"
GB18030_ONLY = "\U00020000".encode("gb18030")  # 𠀀, four bytes in GB18030, not in Big5
CUT_AT = len(SIMPLIFIED.encode("gb18030")) - 2  # where the last character starts (same in Big5)


def _samples() -> str:
    return "".join((resources_dir() / "samples" / n).read_text(encoding="utf-8")
                   for n in ("tang300.txt", "song100.txt", "fortunes-zh.txt"))


def _han_pairs(text: str, encoding: str, count: int) -> list[bytes]:
    rnd, pairs = random.Random(0), []
    while len(pairs) < count:
        start = rnd.randrange(len(text) - 2)
        pair = text[start:start + 2]
        if all("\u4e00" <= c <= "\u9fff" for c in pair):
            try:
                pairs.append(pair.encode(encoding))
            except UnicodeEncodeError:
                pass
    return pairs


@pytest.mark.parametrize("script, encoding, least", [("simplified", "gb18030", 0.98), ("traditional", "cp950", 0.96)])
def test_two_characters_are_enough_most_of_the_time(script, encoding, least):
    # Two Han characters are four bytes that both GB18030 and Big5 read (the old rule, "which
    # reading has the frequent level of its character set", named Big5 for 92% of them):
    # the frequency of what each reading makes decides.
    text = _samples() if script == "simplified" else opencc.OpenCC("s2t").convert(_samples())
    pairs = [p for p in _han_pairs(text, encoding, 1000) if not _is_utf8(p)]
    right = sum(detect_encoding(p) == encoding for p in pairs)
    assert right >= least * len(pairs), (right, len(pairs))


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def test_every_line_of_the_traditional_samples_in_big5_is_big5():
    s2t = opencc.OpenCC("s2t")
    lines = []
    for line in s2t.convert(_samples()).splitlines():
        if sum("\u4e00" <= c <= "\u9fff" for c in line) >= 2:
            try:
                lines.append(line.encode("big5"))
            except UnicodeEncodeError:
                pass
    wrong = [line.decode("big5") for line in lines if detect_encoding(line) != "cp950"]
    assert len(lines) > 5000 and not wrong, wrong


@pytest.mark.parametrize("name, data, encoding, message", [
    ("Big5 with one GB18030 four-byte character", TRADITIONAL.encode("big5")[:20] + GB18030_ONLY
     + TRADITIONAL.encode("big5")[20:], "cp950", r"not Big5 text \(invalid byte 0x95 at offset 20\)"),
    ("GB18030 cut inside its last character", SIMPLIFIED.encode("gb18030")[:-1], "gb18030",
     rf"ends in the middle of a GB18030 character \(offset {CUT_AT}\): was the file cut off"),
    ("Big5 cut inside its last character", TRADITIONAL.encode("big5")[:-1], "cp950",
     rf"ends in the middle of a Big5 character \(offset {CUT_AT}\)"),
    ("GBK with a stray byte", SIMPLIFIED.encode("gbk")[:30] + b"\xff" + SIMPLIFIED.encode("gbk")[30:], "gb18030",
     r"not GB18030 text \(invalid byte 0xFF at offset 30\)"),
    ("UTF-8 with a stray byte", SIMPLIFIED.encode()[:30] + b"\xff" + SIMPLIFIED.encode()[30:], "utf-8",
     r"not UTF-8 text \(invalid byte 0xFF at offset 30\)"),
])
def test_a_flaw_in_a_file_is_reported_not_read_as_another_encoding(tmp_path, name, data, encoding, message):
    # Several of these decode without error in another encoding into mojibake (GB18030 reads the
    # Big5 file with a GB18030 character and the UTF-8 one, Big5 reads the cut GB18030 one), and the
    # rest were "not text in any encoding"; the file's own encoding is by far the most plausible
    # reading, so reading stops at the flaw, with one line that says where.
    f = tmp_path / "t.txt"
    f.write_bytes(data)
    assert detect_encoding(data) == encoding
    for read in (lambda: read_text(f), lambda: list(iter_text_chunks(f)), lambda: check_readable_text([f])):
        with pytest.raises(FileError, match=message) as e:
            read()
        assert "\n" not in str(e.value)


def test_the_issues_big5_file_decodes_in_gb18030_but_is_not_read_so():
    data = TRADITIONAL.encode("big5") + GB18030_ONLY
    assert data.decode("gb18030")  # the old detection read this mojibake without a word
    assert detect_encoding(data) == "cp950"


@pytest.mark.parametrize("data", [
    "café au lait, crème brûlée".encode("latin-1"),  # high bytes, but no Chinese reading of them
    b"abc" + "中".encode("gbk")[:1],                 # one cut character is no evidence of any encoding
])
def test_bytes_with_no_plausible_reading_are_not_text(data):
    assert detect_encoding(data) is None


def test_a_long_run_of_invalid_bytes_is_many_flaws_not_one():
    # GB18030 bytes read as UTF-8 are almost all invalid: merged into one "flaw", their few valid
    # UTF-8 characters once made a cheaper reading than the GB18030 text itself.
    line = "轮台九月风夜吼，一川碎石大如斗，随风满地石乱走。".encode("gb18030")
    assert detect_encoding(line) == "gb18030"


JAPANESE = "これは日本語のテキストです。ファイルの文字コードを判定します。東京都の天気は晴れのち曇りでしょう。"


def test_japanese_in_shift_jis_is_not_text_rather_than_gb18030_mojibake(tmp_path):
    # GB18030 decodes these bytes without an error, into rare Han characters and kana: the
    # likeliest reading is still no Chinese text, so the file is refused and --encoding named.
    data = JAPANESE.encode("shift_jis")
    assert data.decode("gb18030")
    assert detect_encoding(data) is None
    f = tmp_path / "ja.txt"
    f.write_bytes(data)
    with pytest.raises(FileError, match="nor GB18030, Big5 or UTF-16"):
        read_text(f)
    assert read_text(f, "shift_jis") == JAPANESE


def test_chinese_with_no_break_spaces_and_symbols_is_still_chinese():
    # Text pasted from web pages: no-break spaces, bullets, arrows, circled numbers (four-byte
    # GB18030 sequences, or Big5 symbols) among few Han characters.
    text = "\xa0\xa0\xa0 ① 打开文件 → ② 选择编码 ■ ③ 保存\xa0\xa0 ※ 注意：不要关闭窗口 ▲"
    assert detect_encoding(text.encode("gb18030")) == "gb18030"


_COMMON = (resources_dir() / "frequency" / "simplified.txt").read_text(encoding="utf-8").strip()[:3000]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(_COMMON + "，。、：？！ abc123\n"), min_size=1, max_size=200))
def test_text_of_common_characters_is_never_refused(text):
    # Random strings of the 3,000 commonest characters are less likely than any real text
    # (no word in them); the refusal of "rare characters only" must still leave them alone.
    data = text.encode("gb18030")
    assert detect_encoding(data) is not None


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=300), st.booleans())
def test_any_bytes_get_an_answer(data, complete):
    found = detect_encoding(data, complete=complete)
    assert found in (None, "utf-8", "utf-16-le", "utf-16-be", "gb18030", "cp950", "big5hkscs")
    if found in ("gb18030", "cp950", "big5hkscs"):
        # a legacy answer reads all the bytes but a few flaws, each amid enough characters
        text, flaws = detection._decode_with_flaws(data, found, complete)
        assert flaws * 8 <= len(text) - len(text.encode("ascii", "ignore"))


# Files as people keep them (a review's probe, issue #31): each was read as mojibake or refused.
VOCABULARY = "学习\txué xí\n朋友\tpéng yǒu\n中国\tzhōng guó\n老师\tlǎo shī\n绿色\tlǜ sè\n"
KEPT_FILES = [
    ("a GBK vocabulary list with pinyin", VOCABULARY, "gbk", "gb18030"),  # went to Big5
    ("traditional text with 裏, as Windows saves Big5", "今天天氣很好，這裏的風景很美，我們明天再來。",
     "cp950", "cp950"),
    ("Hong Kong text in Big5-HKSCS", "我哋今日去咗飲茶，啓德嘅户口登記好正常㗎，你嚟唔嚟？", "big5hkscs", "big5hkscs"),
    ("zhuyin in Big5", "注音符號：ㄅㄆㄇㄈ ㄉㄊㄋㄌ，你好 ㄋㄧˇ ㄏㄠˇ，我們一起學習。", "big5", "cp950"),
    ("a DOS file ending in 0x1A", "这是一个老的DOS文本文件，用GBK编码保存。\r\n", "gbk", "gb18030"),
]


@pytest.mark.parametrize("name, text, codec, expected", KEPT_FILES, ids=[k[0] for k in KEPT_FILES])
def test_files_as_people_keep_them_read_as_what_they_hold(tmp_path, name, text, codec, expected):
    data = text.encode(codec) + (b"\x1a" if "0x1A" in name else b"")
    assert detect_encoding(data) == expected
    f = tmp_path / "f.txt"
    f.write_bytes(data)
    assert read_text(f) == data.decode(expected) and data.decode(expected).startswith(text)
    assert "".join(iter_text_chunks(f)) == data.decode(expected)


def test_the_refusal_names_the_likeliest_reading(tmp_path):
    f = tmp_path / "ja.txt"
    f.write_bytes(JAPANESE.encode("shift_jis"))
    with pytest.raises(FileError, match="read as GB18030 it is mostly rare characters.*give --encoding gb18030"):
        read_text(f)
    with pytest.raises(FileError, match="read as GB18030 it is mostly rare characters"):
        list(iter_text_chunks(f))


def test_big5_with_kana_is_cp950_not_hkscs():
    # Big5-HKSCS reads 43 of CP950's kana as other characters (の as 攴): once a reading of its
    # own, it took every Big5 file that quotes a Japanese name.
    data = "今天去小林の店吃拉麵，很好吃。ありがとう。\n".encode("cp950")
    assert detect_encoding(data) == "cp950"


def test_two_gbk_characters_are_not_a_hong_kong_reading():
    assert detect_encoding("默认".encode("gbk")) == "gb18030"  # not 蘇＇ in Big5-HKSCS


@pytest.mark.parametrize("ascii_bytes", [DETECT_BYTES - 1, DETECT_BYTES - 2, DETECT_BYTES - 4, DETECT_BYTES + 7000])
def test_chinese_after_a_long_ascii_start_is_judged_on_itself(tmp_path, ascii_bytes):
    # The window once began at the file's start: with the Chinese in its last bytes it held one
    # cut character, and every command refused a GBK file.
    data = b"#" * ascii_bytes + "系统设置：显示语言与输入法。".encode("gbk")
    f = tmp_path / "f.txt"
    f.write_bytes(data)
    assert read_text(f) == data.decode("gb18030") == "".join(iter_text_chunks(f))


def test_a_refusal_without_a_likely_reading_says_where_the_legacy_readings_fail(tmp_path):
    f = tmp_path / "flaws.txt"
    # twelve stray bytes among GBK text: more flaws than a file with a flaw has
    f.write_bytes(b"".join("简体中文的文本。".encode("gbk") + b"\xff" for _ in range(12)))
    with pytest.raises(FileError, match=r"as GB18030 its bytes are invalid from offset 16 on; give --encoding"):
        read_text(f)


def test_a_byte_order_mark_counts_only_at_the_start(tmp_path):
    # The window starts at the first non-ASCII byte: FF FE there is no UTF-16 mark.
    f = tmp_path / "bad.txt"
    f.write_bytes(b"ok \xff\xfe")
    with pytest.raises(FileError, match="not UTF-8 text"):
        read_text(f)
    with pytest.raises(FileError, match="not UTF-8 text"):
        list(iter_text_chunks(f))
    assert detect_encoding(b"\xff\xfe" + "中".encode("utf-16-le")) == "utf-16-le"
