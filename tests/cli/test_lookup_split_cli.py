"""`wubitok lookup` shows each character's verified split (字根拆分), as text and as JSON."""
from __future__ import annotations

import json

from cli_run import run

from wubitok.wubi.dictionary import default_dictionary
from wubitok.wubi.splits import all_splits


def test_the_split_is_printed_under_the_character(capsys):
    code, out, err = run(capsys, "lookup", "键")
    assert (code, err) == (0, "")
    assert out.splitlines()[1] == "\t钅 彐 二 廴 → q v f p"


def test_json_carries_root_and_key_per_part(capsys):
    code, out, _ = run(capsys, "lookup", "键迫", "--json")
    jian, po, _phrase = json.loads(out)
    assert [(p["root"], p["key"]) for p in jian["split"]] == [("钅", "q"), ("彐", "v"), ("二", "f"), ("廴", "p")]
    assert "".join(p["key"] for p in po["split"]) == po["full_code"]
    assert po["split"][-1]["role"] == "identifier"


def test_a_character_without_a_verified_split_says_so(capsys):
    d = default_dictionary()
    splits = all_splits()
    missing = next(c for c in "我非母兆臣" if c not in splits and d.full_code(c))
    code, out, _ = run(capsys, "lookup", missing)
    assert code == 0 and "no verified split" in out.splitlines()[1]
    assert json.loads(run(capsys, "lookup", missing, "--json")[1])[0]["split"] is None
