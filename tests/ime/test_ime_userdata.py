"""Moving the user's data: export, import into an empty data folder, the same data; bad files change nothing."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from wubitok.errors import FileError
from wubitok.ime import ImeOptions, UserFrequencies, load_options, save_options
from wubitok.ime.userdata import export_user_data, import_user_data
from wubitok.wubi.dictionary import WUBI_KEYS

codes = st.text(WUBI_KEYS, min_size=1, max_size=4)
hans = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5), min_size=1, max_size=6)
phrases = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5), min_size=2, max_size=6)


@hsettings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(freqs=st.dictionaries(st.tuples(codes, hans), st.integers(1, 10**6), max_size=8),
       mine=st.dictionaries(st.tuples(codes, phrases), st.sampled_from(["manual", "auto", "import"]), max_size=5),
       pins=st.dictionaries(st.tuples(codes, hans), st.integers(0, 99), max_size=4),
       page_size=st.integers(1, 9), charset=st.sampled_from(["all", "gbk", "gb2312"]))
def test_round_trip_to_another_machine(tmp_path_factory, monkeypatch, freqs, mine, pins, page_size, charset):
    here, there = tmp_path_factory.mktemp("here"), tmp_path_factory.mktemp("there")
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(here))
    db = UserFrequencies()
    db.import_data([(c, t, n) for (c, t), n in freqs.items()], [(c, t, s) for (c, t), s in mine.items()],
                   [(c, t, p) for (c, t), p in pins.items()])
    expected = db.export_data()
    db.close()
    save_options(ImeOptions(page_size=page_size, charset=charset))
    export_user_data(here / "moving.json")
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(there))
    import_user_data(here / "moving.json")
    db = UserFrequencies()
    assert db.export_data() == expected
    db.close()
    assert load_options() == ImeOptions(page_size=page_size, charset=charset)


def test_import_merges_counts_and_phrases(user_data_dir, tmp_path):
    db = UserFrequencies()
    db.record("wqiy", "仰泳")
    db.add_phrase("ijjj", "小明")
    db.close()
    export_user_data(tmp_path / "a.json")
    db = UserFrequencies()
    for _ in range(3):
        db.record("wqiy", "仰泳")
    db.record("vb", "好")
    db.close()
    import_user_data(tmp_path / "a.json")  # its count 1 < 4 here: the larger stays
    db = UserFrequencies()
    assert (db.count("wqiy", "仰泳"), db.count("vb", "好"), db.phrases()) == (4, 1, [("ijjj", "小明", "manual")])
    db.close()


def _good(tmp_path) -> dict:
    return {"format": "wubitok-userdata", "version": 1, "frequencies": [["wqiy", "仰泳", 3]],
            "phrases": [["ijjj", "小明", "manual"]], "pins": [["wqiy", "仰泳", 0]], "settings": {"page_size": 7}}


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format="other"), 'no "format": "wubitok-userdata"'),
    (lambda d: d.update(version=2), "version 2, this wubitok reads version 1"),
    (lambda d: d["frequencies"].append(["wqiy", "你", 0]), "expected a whole number 1-2147483648, not 0"),
    (lambda d: d["phrases"].append(["ab1", "小明", "manual"]), "not a Wubi code: 'ab1'"),
    (lambda d: d["phrases"].append(["ab", "小m", "manual"]), "a phrase is Chinese characters only"),
    (lambda d: d["phrases"].append(["ab", "小明", "stolen"]), "unknown phrase source 'stolen'"),
    (lambda d: d["pins"].append([1, "小明", 0]), "not a Wubi code: 1"),
    (lambda d: d["pins"].append(["ab", "小明"]), "pins must be a list of [code, text, value] rows"),
    (lambda d: d["settings"].update(charset="big5"), "unknown charset 'big5'"),
])
def test_a_bad_file_changes_nothing(user_data_dir, tmp_path, change, message):
    db = UserFrequencies()
    db.record("vb", "好")
    db.close()
    save_options(ImeOptions(page_size=3))
    before = (user_data_dir / "ime_settings.json").read_bytes()
    data = _good(tmp_path)
    change(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(FileError, match="not a valid wubitok user-data file") as info:
        import_user_data(bad)
    assert message in str(info.value)
    db = UserFrequencies()
    assert db.export_data() == {"frequencies": [["vb", "好", 1]], "phrases": [], "pins": []}
    db.close()
    assert (user_data_dir / "ime_settings.json").read_bytes() == before
