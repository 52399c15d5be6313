"""The shipped splits: every one re-checked against the bundled dictionary, and the rules."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wubitok.paths import resources_dir
from wubitok.wubi.dictionary import default_dictionary
from wubitok.wubi.roots import CHART, KEY_NAMES, ROOT_KEYS, identifier_key
from wubitok.wubi.split_derivation import ranked_product, stroke_cuts, structure
from wubitok.wubi.splits import TONGYONG_FILE, Split, all_splits, check, coverage, split_code, split_of


def tongyong_chars() -> str:
    chars = (resources_dir() / TONGYONG_FILE).read_text(encoding="utf-8").strip()
    assert len(set(chars)) == len(chars) == 8105
    return chars


def test_every_shipped_split_gives_the_dictionarys_full_code():
    d = default_dictionary()
    splits = all_splits()
    assert len(splits) > 6000
    failing = [s.char for s in splits.values() if not check(s, d)]
    assert failing == []


def test_coverage_counts_agree_with_the_file():
    rows, failing = coverage(default_dictionary())
    assert failing == []
    gb, tongyong = rows[0], rows[1]
    assert gb.chars == 6763 and tongyong.chars == 8105
    assert tongyong.verified == sum(c in all_splits() for c in tongyong_chars())
    assert gb.chars == 6763
    assert gb.verified == sum(1 for c in all_splits() if "\u4e00" <= c <= "\u9fff" and _gb2312(c))


def _gb2312(c: str) -> bool:
    try:
        c.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def test_the_issue_example():
    s = split_of("键")
    assert s is not None
    assert s.text() == "钅 彐 二 廴 → q v f p"
    assert [(p.root, p.key) for p in s.parts] == [("钅", "q"), ("彐", "v"), ("二", "f"), ("廴", "p")]


def test_key_names_type_their_key_four_times():
    d = default_dictionary()
    for chart in CHART:
        s = Split(chart.key_name, "keyname", (chart.key_name,))
        assert s.code == chart.key * 4 == d.full_code(chart.key_name)


def test_single_strokes_double_their_key_and_pad_with_l():
    d = default_dictionary()
    for stroke in "一丨丿丶乙":
        s = split_of(stroke)
        assert s is not None and s.kind == "root"
        assert s.code == d.full_code(stroke)
        assert s.code.endswith("ll")


def test_a_short_code_gets_its_identifier_from_last_stroke_and_structure():
    s = split_of("迫")
    assert s is not None and s.roots == ("白", "辶")
    assert s.parts[-1].role == "identifier"
    assert s.parts[-1].key == identifier_key(s.strokes, s.structure)
    assert s.code == default_dictionary().full_code("迫")


def test_malformed_facts_give_no_code():
    assert split_code(Split("迫", "compound", ("白", "辶"))) is None  # needs a 识别码
    assert split_code(Split("键", "compound", ("钅", "nonroot", "二", "廴"))) is None
    assert split_code(Split("迫", "keyname", ("迫",))) is None
    assert not check(Split("迫", "compound", ("白", "辶"), "s", 3), default_dictionary())


def test_a_character_without_a_verified_split_has_none():
    assert split_of("a") is None
    assert all(ch in ROOT_KEYS or len(s.roots) >= 2 for ch, s in all_splits().items())


def test_rows_round_trip():
    for s in list(all_splits().values())[:500]:
        assert Split.from_row(s.to_row()) == s


def test_every_root_is_on_one_key_and_key_names_are_roots():
    assert len(CHART) == 25
    for name, key in KEY_NAMES.items():
        assert ROOT_KEYS[name] == key


def test_stroke_cuts_take_the_largest_roots_first():
    cuts = stroke_cuts("nphhhs")  # 羊
    assert ("丷", "⺶") in cuts
    assert min(len(c) for c in cuts) == len(cuts[0])


def test_structure_from_positions():
    assert structure((("亻", 30), ("戈", 40))) == 1
    assert structure((("日", 50), ("刀", 60), ("口", 60), ("灬", 20))) == 2
    assert structure((("辶", 99), ("白", 0))) == 3
    assert structure(()) == 0


@given(st.lists(st.lists(st.text(min_size=1, max_size=2), min_size=1, max_size=4), min_size=1, max_size=4))
def test_ranked_product_starts_with_every_first_choice(options):
    opts = [[(x,) for x in o] for o in options]
    out = ranked_product(opts, limit=10)
    assert out[0] == tuple(o[0][0] for o in opts)
    assert len(out) == len(set(out)) or any(len(set(o)) < len(o) for o in options)
