"""User dictionaries into the user's phrases: Rime .dict.yaml and word<TAB>code lists."""
from __future__ import annotations

import pytest
from system import RIME_DATA

from wubitok.errors import FileError
from wubitok.ime import UserFrequencies
from wubitok.ime.tables import import_phrases, read_phrase_file

RIME = """\
# Rime dictionary
# encoding: utf-8
---
name: my_phrases
version: "1"
sort: by_weight
columns:
  - text
  - weight
  - code
...

小明\t100\tijjj
五笔输入法\t5
你好\t7\twqvb
"""


def _write(tmp_path, text: str, name: str = "in.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_rime_dictionary_with_its_columns(tmp_path, wubi_dict):
    path = _write(tmp_path, RIME, "my_phrases.dict.yaml")
    assert read_phrase_file(path, wubi_dict) == ([("ijjj", "小明"), ("gtli", "五笔输入法"), ("wqvb", "你好")], 0)


@pytest.mark.parametrize("header, line", [
    ("columns: [code, text]", "ijjj\t小明"),
    ("sort: original", "小明\tijjj\t3\tsome stem"),  # Rime's default columns: text code weight stem
])
def test_other_rime_headers(tmp_path, wubi_dict, header, line):
    path = _write(tmp_path, f"---\nname: x\n{header}\n...\n{line}\n")
    assert read_phrase_file(path, wubi_dict) == ([("ijjj", "小明")], 0)


def test_a_plain_list(tmp_path, wubi_dict):
    path = _write(tmp_path, "# mine\r\n小明\tijjj\r\n\r\n五笔输入法\r\n")
    assert read_phrase_file(path, wubi_dict) == ([("ijjj", "小明"), ("gtli", "五笔输入法")], 0)


def test_import_adds_the_new_ones_in_one_go(tmp_path, user_data_dir, wubi_dict):
    db = UserFrequencies()
    done = import_phrases(_write(tmp_path, RIME), wubi_dict, db)
    assert (done.added, done.known) == (2, 1)  # 你好 is in the table under wqvb
    assert db.phrases() == [("gtli", "五笔输入法", "import"), ("ijjj", "小明", "import")]
    again = import_phrases(_write(tmp_path, "小明\tijjj\n骊\tcg\n"), wubi_dict, db)
    assert (again.added, again.known) == (0, 2)  # cg 骊 is the engine's standard short code
    db.close()


@pytest.mark.parametrize("text, message", [
    ("小明\tijjj\n你好x\twqvb\n", "in.txt, line 2: a phrase is Chinese characters only, not 'x'"),
    ("小明\tijj1\n", "in.txt, line 1: not a Wubi code: 'ijj1'"),
    ("小明\tzzzz\n", "in.txt, line 1: not a Wubi code: 'zzzz'"),
    ("你\n", "in.txt, line 1: '你' is one character: give its code"),
    ("\tijjj\n", "in.txt, line 1: empty phrase"),
    ("# nothing\n\n", "in.txt: no entries"),
    ("---\nname: x\ncolumns:\n  - text\n  - code\n小明\tijjj\n", "without its end"),
    ("---\ncolumns: [code, weight]\n...\nijjj\t1\n", "the Rime dictionary has no text column"),
])
def test_a_bad_file_is_one_error_and_adds_nothing(tmp_path, user_data_dir, wubi_dict, text, message):
    db = UserFrequencies()
    db.add_phrase("ab", "甲乙")
    with pytest.raises(FileError, match=message):
        import_phrases(_write(tmp_path, text), wubi_dict, db)
    assert db.phrases() == [("ab", "甲乙", "manual")]
    db.close()


def test_skip_invalid_counts_what_it_leaves_out(tmp_path, wubi_dict):
    path = _write(tmp_path, "小明\tijjj\n①\tzzaa\n你好x\twqvb\n")
    assert read_phrase_file(path, wubi_dict, skip_invalid=True) == ([("ijjj", "小明")], 2)


@pytest.mark.system("rime-data-wubi")
def test_debians_rime_wubi86_dictionary(wubi_dict):
    path = RIME_DATA / "wubi86.dict.yaml"
    with pytest.raises(FileError, match=r"wubi86.dict.yaml, line \d+: a phrase is Chinese characters only"):
        read_phrase_file(path, wubi_dict)  # it has symbols (⒈ ...)
    entries, skipped = read_phrase_file(path, wubi_dict, skip_invalid=True)
    assert ("wqiy", "你") in entries and ("wqvb", "你好") in entries
    assert len(entries) > 100_000 and 0 < skipped < len(entries) // 100
