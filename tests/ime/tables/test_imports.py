"""User dictionaries into the user's phrases: Rime .dict.yaml, code phrase tables (fcitx, ibus-table, 极点),
Microsoft's code,pos=phrase and word<TAB>code lists; every format wubitok exports comes back."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from system import RIME_DATA

from wubitok.errors import FileError
from wubitok.ime import UserFrequencies
from wubitok.ime.tables import import_phrases, read_phrase_file, write_fcitx5, write_rime
from wubitok.ime.tables.entries import TableEntry
from wubitok.ime.tables.fcitx5 import text_table
from wubitok.wubi.dictionary import WUBI_KEYS

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


@pytest.mark.parametrize("text", [
    # fcitx 5 / libime text table, as `table export --to fcitx5` writes it
    "KeyCode=abcdefghijklmnopqrstuvwxy\nLength=4\n[Rule]\ne2=p11+p12+p21+p22\n[Data]\nijjj 小明\ngtli 五笔输入法\n",
    # fcitx 4 table
    "键码=abcdefghijklmnopqrstuvwxy\n码长=4\n[组词规则]\ne2=p11+p12+p21+p22\n[数据]\nijjj 小明\ngtli 五笔输入法\n",
    # ibus-table source: code, phrase, frequency between BEGIN_TABLE and END_TABLE
    "### wubi\nBEGIN_DEFINITION\nNAME = x\nEND_DEFINITION\nBEGIN_TABLE\nijjj\t小明\t100\ngtli\t五笔输入法\t5\n"
    "END_TABLE\nBEGIN_GOUCI\nEND_GOUCI\n",
    # 极点: one code, its phrases
    "; 极点五笔 user phrases\nijjj 小明\ngtli 五笔输入法\n",
    # Microsoft: code,position=phrase
    "ijjj,1=小明\r\ngtli,1=五笔输入法\r\n",
    # wubitok phrase list
    "ijjj\t小明\timport\ngtli\t五笔输入法\tmanual\n",
])
def test_code_phrase_formats(tmp_path, wubi_dict, text):
    assert read_phrase_file(_write(tmp_path, text), wubi_dict) == ([("ijjj", "小明"), ("gtli", "五笔输入法")], 0)


def test_one_code_with_several_phrases_and_a_utf16_file(tmp_path, wubi_dict):
    path = tmp_path / "microsoft.txt"
    path.write_text("ijjj 小明 小明明\nijjj,2=明明\n", encoding="utf-16")  # Microsoft's tools write UTF-16
    assert read_phrase_file(path, wubi_dict) == ([("ijjj", "小明"), ("ijjj", "小明明"), ("ijjj", "明明")], 0)


# Phrases of common characters under arbitrary codes: what a typist may have in an export.
_HAN = "的一是了我不人在他有这个上们来到时大地为子中你说生国年着就那和要她出也得里后自以会"
phrases = st.lists(st.tuples(st.text(alphabet=WUBI_KEYS, min_size=1, max_size=4),
                             st.text(alphabet=_HAN, min_size=2, max_size=8)), min_size=1, max_size=20, unique=True)


@pytest.mark.parametrize("write", [
    lambda entries, folder: write_rime(entries, folder)[1],
    lambda entries, folder: write_fcitx5(entries, folder, compile_with=None)[0],
], ids=["rime", "fcitx5"])
@given(pairs=phrases)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_export_format_reads_back(tmp_path_factory, wubi_dict, write, pairs):
    folder = tmp_path_factory.mktemp("export")
    path = write([TableEntry(code, text, 1, True) for code, text in pairs], folder)
    assert read_phrase_file(path, wubi_dict) == (pairs, 0)


@pytest.mark.parametrize("to", ["rime", "fcitx5"])
def test_a_whole_exported_table_imports_into_a_fresh_database(capsys, tmp_path, monkeypatch, to):
    """wubitok's export, table and all, onto another machine: only the user's phrases are new;
    the table's entries (卡拉OK and symbols included) are known, none invalid."""
    from cli_run import run

    monkeypatch.setenv("WUBITOK_DATA_DIR", str(tmp_path / "here"))
    assert run(capsys, "phrase", "add", "山水风云")[0] == 0
    assert run(capsys, "table", "export", "--to", to, "-o", tmp_path / "out")[0] == 0
    exported = tmp_path / "out" / ("wubi86_wubitok.dict.yaml" if to == "rime" else "wubitok.txt")
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(tmp_path / "there"))
    code, out, err = run(capsys, "table", "import", exported)
    assert code == 0 and out.startswith("added 1 phrases"), (out, err)
    assert run(capsys, "phrase", "list")[1] == "mimf\t山水风云\timport\n"


def test_fcitx5_text_table_is_the_one_the_importer_reads(wubi_dict, tmp_path):
    path = _write(tmp_path, text_table([TableEntry("ijjj", "小明", 1, True)]))
    assert read_phrase_file(path, wubi_dict) == ([("ijjj", "小明")], 0)
