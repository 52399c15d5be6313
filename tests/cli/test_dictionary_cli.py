"""`wubitok lookup | candidates | pinyin | convert`: output, JSON and errors."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_run import run


def test_lookup_json(capsys):
    code, out, err = run(capsys, "lookup", "你好", "--json")
    assert code == 0 and err == ""
    items = json.loads(out)
    ni, hao, phrase = items
    assert ni["text"] == "你" and ni["full_code"] == "wqiy" and "nǐ" in ni["pinyin"]
    assert {"code": "wq", "kind": "short2", "rank": 0} in ni["codes"]
    assert ni["rank"] == 0
    assert [s["text"] for s in hao["shares_code_with"]] == ["㛅"]
    assert phrase == {"text": "你好", "phrase_code": "wqvb", "in_table": phrase["in_table"]}
    for key in ("text", "full_code", "codes", "pinyin", "rank", "shares_code_with"):
        assert key in ni


def test_lookup_plain_shows_shared_code_selectors(capsys):
    code, out, _ = run(capsys, "lookup", "㠭")
    assert code == 0
    assert out.startswith("㠭\taaaa") and "1.工" in out and "selector 3" in out


def test_candidates(capsys):
    code, out, _ = run(capsys, "candidates", "aaaa", "--json")
    rows = json.loads(out)
    assert [r["text"] for r in rows] == ["工", "恭恭敬敬", "㠭"]
    assert all(set(r) >= {"text", "code", "rank", "weight"} for r in rows)
    code, out, _ = run(capsys, "candidates", "wq", "--limit", "3")
    assert code == 0 and len(out.splitlines()) == 3 and out.splitlines()[0].split("\t")[1] == "你"


def test_pinyin(capsys):
    code, out, _ = run(capsys, "pinyin", "ni3", "--json", "--limit", "3")
    hits = json.loads(out)
    assert hits[0] == {"text": "你", "pinyin": "nǐ", "code": "wqiy", "weight": hits[0]["weight"]}
    assert len(hits) == 3


def test_convert_both_ways(capsys, tmp_path):
    assert run(capsys, "convert", "--to", "wubi", "你好，world")[1] == "wqiy vbg `，world`\n"
    assert run(capsys, "convert", "--to", "wubi", "--plain", "你好，world")[1] == "wqiy vbg，world\n"
    assert run(capsys, "convert", "--to", "hanzi", "wqiy", "vbg")[1] == "你好\n"
    # Exact both ways: a shared code's selector, Latin text quoted, spaces kept.
    assert run(capsys, "convert", "--to", "wubi", "支持 f-string 和")[1] == "fcu2 rffy ` f-string ` tkg\n"
    assert run(capsys, "convert", "--to", "hanzi", "fcu2 rffy ` f-string ` tkg")[1] == "支持 f-string 和\n"
    f = tmp_path / "in.txt"
    f.write_text("中国\n人民\n", encoding="utf-8")
    assert run(capsys, "convert", "--to", "wubi", "--file", str(f))[1] == "khk lgyi\nwwww nav\n"


@pytest.mark.parametrize("argv, fragment", [
    (["candidates", "qqqqq"], "not a Wubi code"),
    (["convert", "--to", "hanzi", "xyzab1"], "not a Wubi code"),
    (["convert", "--to", "hanzi", "vbg9"], "code 'vbg' has 2 entries"),
    (["convert", "--to", "hanzi", "--plain", "vbg"], "--plain goes with --to wubi"),
    (["convert", "--to", "wubi"], "no input"),
    (["convert", "--to", "wubi", ""], "empty input"),
    (["lookup", "  "], "empty input"),
    (["lookup", "abc"], "is in the Wubi-86 dictionary"),
    (["pinyin", "qqq"], "no character"),
    (["convert", "--to", "wubi", "--file", "/no/such/file.txt"], "no such file"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_unused_code(capsys, wubi_dict):
    import sqlite3

    used = {r[0] for r in sqlite3.connect(wubi_dict.path).execute("SELECT DISTINCT code FROM entries")}
    unused = next(a + b + c + d for a in "xy" for b in "xy" for c in "xy" for d in "xy" if a + b + c + d not in used)
    code, out, err = run(capsys, "candidates", unused)
    assert code == 2 and out == "" and "no entry" in err and err.count("\n") == 1


def test_a_gbk_file_is_read_and_the_encoding_named(capsys, tmp_path):
    f = tmp_path / "gbk.txt"
    f.write_bytes("你好".encode("gbk"))
    code, out, err = run(capsys, "convert", "--to", "wubi", "--file", str(f))
    assert (code, out) == (0, "wqiy vbg\n")  # 你好: both first on their codes
    assert err == f"wubitok convert: reading {f} as GB18030\n"
    # Given explicitly: no note.  A wrong one: one line, the byte that does not fit.
    assert run(capsys, "convert", "--to", "wubi", "--encoding", "gbk", "--file", str(f))[1:] == (
        "wqiy vbg\n", "")
    code, _, err = run(capsys, "convert", "--to", "wubi", "--encoding", "utf-8", "--file", str(f))
    assert code == 2 and "not UTF-8 text (invalid byte 0xC4 at offset 0)" in err and err.count("\n") == 1
    code, _, err = run(capsys, "convert", "--to", "wubi", "--encoding", "klingon", "--file", str(f))
    assert code == 2 and "unknown encoding 'klingon'" in err and err.count("\n") == 1


def test_a_binary_file_is_one_clear_line(capsys, tmp_path):
    f = tmp_path / "icon.png"
    f.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    code, _, err = run(capsys, "convert", "--to", "wubi", "--file", str(f))
    assert code == 2 and err.count("\n") == 1
    assert "not UTF-8 text (invalid byte at offset 0), nor GB18030, Big5 or UTF-16" in err


def test_usage_errors_are_one_line_exit_2():
    proc = subprocess.run([sys.executable, "-m", "wubitok", "candidates"], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_real_process_lookup():
    proc = subprocess.run([sys.executable, "-m", "wubitok", "lookup", "国", "--json"], capture_output=True,
                          text=True, encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)[0]["full_code"] == "lgyi"
