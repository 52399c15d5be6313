"""The mixed-script segmenter: kinds on known text, losslessness, streaming."""
from __future__ import annotations

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from wubitok.errors import FileError
from wubitok.text.segment import (
    KINDS,
    Run,
    is_han,
    iter_runs,
    segment,
    segment_file,
    segment_stream,
    segment_texts,
)


def pairs(text):
    return [(r.kind, r.text) for r in segment(text)]


# --- kinds on hand-written text -------------------------------------------

@pytest.mark.parametrize(
    "text, expected",
    [
        ("你好abc", [("han", "你好"), ("latin", "abc")]),
        (
            "Hello, 世界! 123",
            [
                ("latin", "Hello"),
                ("punct", ","),
                ("space", " "),
                ("han", "世界"),
                ("punct", "!"),
                ("space", " "),
                ("digit", "123"),
            ],
        ),
        # ZWJ family, flags, skin tone: each one cluster, consecutive emoji one run
        ("👨\u200d👩\u200d👧", [("emoji", "👨\u200d👩\u200d👧")]),
        ("🇨🇳🇺🇸", [("emoji", "🇨🇳🇺🇸")]),
        ("🇨🇳 🇺🇸", [("emoji", "🇨🇳"), ("space", " "), ("emoji", "🇺🇸")]),
        ("👍🏽好", [("emoji", "👍🏽"), ("han", "好")]),
        ("#️⃣ 1⃣2", [("emoji", "#️⃣"), ("space", " "), ("emoji", "1⃣"), ("digit", "2")]),
        ("12#", [("digit", "12"), ("punct", "#")]),
        # Han beyond the URO: Ext B, Ext A, a radical (a symbol by category), a
        # compatibility ideograph, Ext G and Ext H, 々 and 〇
        (
            "\U00020000\u3400\u2e80\uf900\U00030000\U00031350々〇",
            [("han", "\U00020000\u3400\u2e80\uf900\U00030000\U00031350々〇")],
        ),
        ("ひらがなカタカナ", [("other", "ひらがな"), ("other", "カタカナ")]),
        ("コーヒー", [("other", "コーヒー")]),  # ー is Common, but kana by Script_Extensions
        ("안녕 Привет", [("other", "안녕"), ("space", " "), ("other", "Привет")]),
        ("Привет世界", [("other", "Привет"), ("han", "世界")]),
        ("مرحبا١٢", [("other", "مرحبا"), ("digit", "١٢")]),
        ("好，。！好", [("han", "好"), ("punct", "，。！"), ("han", "好")]),
        ("「书」—《书》", [("punct", "「"), ("han", "书"), ("punct", "」—《"), ("han", "书"), ("punct", "》")]),
        ("ＡＢ０１", [("latin", "ＡＢ"), ("digit", "０１")]),
        ("a\r\nb", [("latin", "a"), ("space", "\r\n"), ("latin", "b")]),
        ("\u3000\t\n ", [("space", "\u3000\t\n ")]),
        ("café naïve", [("latin", "café"), ("space", " "), ("latin", "naïve")]),
        ("cafe\u0301!", [("latin", "cafe\u0301"), ("punct", "!")]),
        # a variation selector (here an ideographic one) stays with its character
        ("葛\U000e0100城", [("han", "葛\U000e0100城")]),
        ("中\u200d文", [("han", "中\u200d文")]),
        # a mark with no base: after whitespace or at the start
        (" \u0301x", [("space", " "), ("other", "\u0301"), ("latin", "x")]),
        ("\u0301", [("other", "\u0301")]),
        ("$5+€", [("punct", "$"), ("digit", "5"), ("punct", "+€")]),
        ("©", [("emoji", "©")]),  # Extended_Pictographic, documented
        ("a\x00\x1bb", [("latin", "a"), ("other", "\x00\x1b"), ("latin", "b")]),
        ("\ufeff你", [("other", "\ufeff"), ("han", "你")]),
        ("a\ud800b", [("latin", "a"), ("other", "\ud800"), ("latin", "b")]),
        ("\U000f0000\U0010ffff", [("other", "\U000f0000\U0010ffff")]),
        ("①②", [("other", "①②")]),
        ("", []),
    ],
)
def test_kinds_of_known_text(text, expected):
    assert pairs(text) == expected


def test_runs_carry_offsets():
    assert segment("你好，world") == [
        Run("你好", "han", 0, 2), Run("，", "punct", 2, 3), Run("world", "latin", 3, 8)]
    # offsets count code points: an astral character is one
    assert [(r.start, r.end) for r in segment("𠀀a")] == [(0, 1), (1, 2)]


def test_is_han():
    for ch in "中\u3400\U00020000\U0002A700\U00030000\U00031350\uf900\U0002F800\u2e80\u2f00々〇":
        assert is_han(ch), hex(ord(ch))
    for ch in ["a", "，", "ー", "あ", "한", "1", "😀", "\ud800", "", "中文", "\U000E0100"]:
        assert not is_han(ch), ch


# --- properties over arbitrary text ------------------------------------------

# Characters that make segmentation interesting, mixed into arbitrary ones.
SPECIAL = list(
    "中文好𠀀㐀⺀豈々aé1９#*!，。 \t\r\n\u3000\u0301\u20e3\ufe0f\ufe0e\U000E0100\u200d\u200c"
    "👨👩👧👍🏽🏻🇨🇳🇺🇸©™ーカあ한Яا٣\x00\x1b\ufeff\u00ad①\ud800\udfff\U000E0067\U000E007F"
)
CHARS = st.one_of(st.characters(blacklist_categories=()), st.sampled_from(SPECIAL))
TEXTS = st.text(CHARS, max_size=60)

_EXT = regex.compile(r"[\p{M}\p{Grapheme_Cluster_Break=Extend}\p{Grapheme_Cluster_Break=ZWJ}]")
_EMOJI_START = regex.compile(r"[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}]")
_FIRST = {
    "han": regex.compile(r"\p{Han}"),
    "latin": regex.compile(r"\p{Latin}"),
    "digit": regex.compile(r"\p{Nd}"),
    "space": regex.compile(r"\p{White_Space}"),
    "punct": regex.compile(r"[\p{P}\p{S}]"),
}
_CLAIMED = regex.compile(r"[\p{Han}\p{Latin}\p{Nd}\p{White_Space}\p{P}\p{S}"
                         r"\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}]")


def check_kind(run: Run) -> None:
    """The run's kind agrees with its characters' Unicode properties."""
    first = run.text[0]
    if run.kind == "emoji":
        assert _EMOJI_START.match(first) or regex.match(r"[#*0-9]\ufe0f?\u20e3", run.text)
    elif run.kind == "other":
        assert not _CLAIMED.match(first) or _EXT.match(first)
    else:
        assert _FIRST[run.kind].match(first) and not _EMOJI_START.match(first)
    if run.kind == "space":
        assert all(_FIRST["space"].match(ch) for ch in run.text)
    if run.kind in ("han", "latin"):
        assert all(_FIRST[run.kind].match(ch) or _EXT.match(ch) for ch in run.text)


def check_runs(text: str, runs: list[Run]) -> None:
    assert "".join(r.text for r in runs) == text
    pos = 0
    for run in runs:
        assert run.kind in KINDS
        assert run.text and run.start == pos and run.end == pos + len(run.text)
        assert text[run.start:run.end] == run.text
        check_kind(run)
        pos = run.end
    for a, b in zip(runs, runs[1:]):
        # maximal: only script runs within "other" meet one of the same kind
        assert a.kind != b.kind or a.kind == "other", (a, b)


@given(TEXTS)
def test_lossless_with_consistent_offsets_and_kinds(text):
    runs = segment(text)
    check_runs(text, runs)
    assert list(iter_runs(text)) == runs
    assert segment_texts(text) == ([r.text for r in runs], [r.kind for r in runs])


@given(TEXTS)
def test_kinds_do_not_depend_on_what_was_segmented_before(text):
    # kinds by first character are remembered as met, some within the same
    # text: from an empty table or a full one, the runs are the same
    from wubitok.text import segment as seg

    saved = dict(seg._KIND_BY_FIRST)
    try:
        seg._KIND_BY_FIRST.clear()
        fresh = segment(text + text)
        assert segment(text + text) == fresh
        check_runs(text + text, fresh)
    finally:
        seg._KIND_BY_FIRST.clear()
        seg._KIND_BY_FIRST.update(saved)


def test_every_code_point():
    text = "".join(map(chr, range(0x110000)))  # surrogates and unassigned included
    runs = segment(text)
    check_runs(text, runs)
    assert list(iter_runs(text)) == runs


def test_iter_runs_over_windows_and_long_runs():
    # iter_runs works in windows of 65,536 characters; a run longer than one
    # window, and runs straddling window edges, come out as segment gives them.
    text = ("中" * 70_000 + "ab 12 " + "👍🏽1\ufe0f\u20e3" * 9_000 + "\r\n") * 3
    assert list(iter_runs(text)) == segment(text)


# --- streaming -------------------------------------------------------------------

def chunked(text, cuts):
    points = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    return [text[a:b] for a, b in zip(points, points[1:])]


@given(TEXTS, st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_stream_equals_whole_text_for_any_chunking(text, cuts):
    chunks = chunked(text, cuts)
    assert list(segment_stream(chunks)) == segment(text)
    assert list(segment_stream(c for c in [""] + chunks + [""])) == segment(text)


@pytest.mark.parametrize("chunks", [
    ["a\r", "\nb"],
    ["👨\u200d", "👩\u200d", "👧"],
    ["🇨", "🇳🇺", "🇸"],
    ["👍", "🏽"],
    ["葛", "\U000E0100"],
    ["cafe", "\u0301"],
    ["😀1", "\ufe0f", "\u20e3"],  # a keycap completed later joins the emoji run before it
    ["😀#\ufe0f", "\u20e3x"],
    ["你", "好", "，", "世", "界"],
    ["カ", "ー", "ド"],
    ["12", "3"],
])
def test_stream_never_cuts_at_a_chunk_boundary(chunks):
    text = "".join(chunks)
    assert list(segment_stream(chunks)) == segment(text)


@given(st.text(st.sampled_from(list("中文a1 ，👍🏽🇨🇳カー\u0301\r\n")), max_size=80),
       st.lists(st.integers(min_value=0, max_value=100), max_size=8),
       st.integers(min_value=1, max_value=6))
def test_stream_cuts_overlong_runs_into_pieces_of_the_same_kind(text, cuts, limit):
    chunks = chunked(text, cuts)
    runs = list(segment_stream(chunks, max_run_chars=limit))
    assert "".join(r.text for r in runs) == text
    # What is held back between chunks stays within the limit, unless one
    # grapheme cluster is longer: no run is longer than that plus a chunk.
    held = max([limit, *map(len, regex.findall(r"\X", text))])
    pos = 0
    for run in runs:
        assert run.start == pos and text[run.start:run.end] == run.text
        check_kind(run)
        assert len(run.text) <= held + max(map(len, chunks))
        pos = run.end
    assert merge_kinds(runs) == merge_kinds(segment(text))


def merge_kinds(runs):
    out = []
    for r in runs:
        if out and out[-1][0] == r.kind:
            out[-1][1] += r.text
        else:
            out.append([r.kind, r.text])
    return out


def test_stream_memory_stays_bounded_on_one_endless_run():
    chunks = ["中" * 10] * 1000
    runs = list(segment_stream(chunks, max_run_chars=100))
    assert "".join(r.text for r in runs) == "中" * 10_000
    assert {r.kind for r in runs} == {"han"}
    assert max(len(r.text) for r in runs) <= 100


def test_segment_file_streams_the_file(tmp_path):
    text = ("第一行，Hello 世界！\r\n" * 5000) + "👨\u200d👩\u200d👧"
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode("utf-8"))
    assert list(segment_file(path)) == segment(text)


def test_segment_file_errors(tmp_path):
    with pytest.raises(FileError, match="no such file"):
        list(segment_file(tmp_path / "missing.txt"))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok \xff\xfe")
    with pytest.raises(FileError, match="not UTF-8"):
        list(segment_file(bad))
