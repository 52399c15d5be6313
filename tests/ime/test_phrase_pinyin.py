"""pypinyin's phrase data read entry by entry, and tone marks made digits, without importing pypinyin."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.ime.phrase_pinyin import load_phrases, phrases_file, tone3


def test_the_phrase_file_reads_as_json_loads_reads_it():
    path = phrases_file()
    assert load_phrases(path) == json.loads(path.read_text(encoding="utf-8"))


def test_every_syllable_of_pypinyin_gets_its_to_tone3_form():
    from pypinyin.contrib.tone_convert import to_tone3
    from pypinyin.phrases_dict import phrases_dict
    from pypinyin.pinyin_dict import pinyin_dict

    syllables = {s for readings in phrases_dict.values() for alternatives in readings for s in alternatives}
    syllables |= {s for readings in pinyin_dict.values() for s in readings.split(",")}
    assert len(syllables) > 1000
    assert {s: tone3(s) for s in syllables} == {s: to_tone3(s, neutral_tone_with_five=True) for s in syllables}
    assert (tone3("lüè"), tone3("er"), tone3("ḿ")) == ("lve4", "er5", "m2")


readings = st.lists(st.lists(st.text(max_size=6), max_size=3), max_size=4)


@settings(max_examples=150, deadline=None)
@given(phrases=st.dictionaries(st.text(max_size=8), readings, max_size=8),
       indent=st.sampled_from([None, 0, 1, "\t"]), ensure_ascii=st.booleans())
def test_any_object_of_readings_round_trips(tmp_path_factory, phrases, indent, ensure_ascii):
    path = tmp_path_factory.mktemp("phrases") / "phrases.json"
    path.write_text(json.dumps(phrases, indent=indent, ensure_ascii=ensure_ascii), encoding="utf-8")
    assert load_phrases(path) == phrases


@pytest.mark.parametrize("text", ['{"a": [["a"]]', '{"a" [["a"]]}', '{"a": [["a"]] "b": []}', '{"a": [],}', '{1: []}',
                                  '[]', '', '{"a": [["a"]]} x', '{} []'])
def test_a_broken_file_is_a_json_error(tmp_path, text):
    path = tmp_path / "phrases.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(json.JSONDecodeError):
        load_phrases(path)


def test_the_index_preload_does_not_import_pypinyin(tmp_path):
    # Importing pypinyin parses its data in single calls that hold the GIL (the module doc).
    code = ("import sys; from wubitok.ime.engine import ImeEngine; ImeEngine(learning=False).preload(); "
            "print('pypinyin' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "WUBITOK_DATA_DIR": str(tmp_path)})
    assert out.stdout.strip() == "False"
