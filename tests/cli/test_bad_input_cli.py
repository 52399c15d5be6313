"""Hostile input: one short line and exit 2, never a traceback, never a huge message."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cli_run import run

from wubitok.fileio import MAX_MODEL_BYTES
from wubitok.paths import resources_dir
from wubitok.wubi import convert
from wubitok.wubi.dictionary import default_dictionary

MODEL = resources_dir() / "models" / "bpe-6000.json"


def _one_short_line(code, err, limit=500):
    return code == 2 and err.count("\n") == 1 and len(err) < limit and err.startswith("wubitok ")


@pytest.mark.parametrize("word", ["١٢٣", "1_000", "+5", "-5", "５", "0x10", "1e3", "³"])
def test_ids_are_plain_ascii_decimal(capsys, word):
    code, out, err = run(capsys, "decode", "-m", MODEL, "358", word)
    assert _one_short_line(code, err) and "not a token id" in err and out == ""


@pytest.mark.parametrize("content", ["358 ١٢٣\n", "[358, -5]", '{"ids": [358, true]}', "358 1_000"])
def test_ids_files_hold_plain_ids_only(capsys, tmp_path, content):
    f = tmp_path / "ids.txt"
    f.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "decode", "-m", MODEL, "--ids-file", f)
    assert _one_short_line(code, err)


def test_a_five_thousand_digit_id(capsys, tmp_path):
    huge = "9" * 5000
    code, _, err = run(capsys, "decode", "-m", MODEL, huge)
    assert _one_short_line(code, err) and "not a token id" in err
    f = tmp_path / "ids.json"
    for content in (f"[{huge}]", huge, f'{{"ids": [1, {huge}]}}'):
        f.write_text(content, encoding="utf-8")
        code, _, err = run(capsys, "decode", "-m", MODEL, "--ids-file", f)
        assert _one_short_line(code, err), content[:20]


@pytest.mark.parametrize("nesting", ["[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a":' * 50_000])
def test_deeply_nested_json(capsys, tmp_path, nesting):
    f = tmp_path / "deep.json"
    f.write_text(nesting, encoding="utf-8")
    code, _, err = run(capsys, "decode", "-m", MODEL, "--ids-file", f)
    assert _one_short_line(code, err)
    code, _, err = run(capsys, "decode", "-m", f, "1")
    assert _one_short_line(code, err) and "deep" in err


def test_a_model_with_a_five_thousand_digit_number(capsys, tmp_path):
    f = tmp_path / "m.json"
    f.write_text('{"format": "wubitok-tokenizer", "version": ' + "1" * 5000 + "}", encoding="utf-8")
    code, _, err = run(capsys, "decode", "-m", f, "1")
    assert _one_short_line(code, err)


@pytest.mark.parametrize("junk", [b"\0" * 3_000_000, b"x" * 3_000_000, ("好" * 1_000_000).encode()])
def test_a_big_bad_ids_file_is_quoted_short(capsys, tmp_path, junk):
    f = tmp_path / "ids.txt"
    f.write_bytes(junk)
    code, _, err = run(capsys, "decode", "-m", MODEL, "--ids-file", f)
    assert _one_short_line(code, err)


def _wubitok(*argv, stdin=None):
    return subprocess.run([sys.executable, "-m", "wubitok", *argv], capture_output=True, input=stdin)


@pytest.mark.parametrize("argv", [
    [b"lookup", b"\xff\xe4\xbd\xa0"],
    [b"pinyin", b"n\xffi"],
    [b"convert", b"--to", b"wubi", b"\xff\xe4\xbd\xa0"],
    [b"convert", b"--to", b"hanzi", b"wqiy \xff"],
    [b"segment", b"\xff"],
])
def test_non_utf8_arguments(argv):
    p = _wubitok(*argv)
    err = p.stderr.decode()
    assert p.returncode == 2 and err.count("\n") == 1 and "not valid UTF-8" in err, err


@pytest.mark.parametrize("text", ["\ud800", "你\udcff好", "\udfff\ud800"])
def test_a_lone_surrogate_is_an_unknown_character(text):
    d = default_dictionary()
    assert d.lookup("\ud800") is None and "\ud800" not in d and d.full_code("\udcff") is None
    assert d.by_pinyin("\ud800") == [] and d.by_pinyin("ni\udcff") == []
    assert d.codes("\ud800") == [] and d.pinyin("\ud800") == []
    codes = convert.to_codes(text)
    assert convert.to_hanzi(codes) == text
    plain = convert.to_codes(text, plain=True)
    assert all(ch in plain for ch in text if "\ud800" <= ch <= "\udfff")


@pytest.mark.parametrize("make", [
    lambda d: ("-m", d / "big.json"),
    lambda d: ("--hf-tokenizer", d / "tokenizer.json"),
    lambda d: ("--spm-model", d / "big.model"),
    lambda d: ("--tiktoken", d / "big.tiktoken"),
])
def test_model_files_far_beyond_any_real_size_are_refused(capsys, tmp_path, make):
    flag, path = make(tmp_path)
    with open(path, "wb") as fh:
        fh.truncate(MAX_MODEL_BYTES + 1)  # sparse: takes no disk
    code, _, err = run(capsys, "compare", "你好", flag, path)
    assert _one_short_line(code, err) and "too big" in err


def test_dash_is_standard_input():
    assert _wubitok("convert", "--to", "wubi", "--file", "-", stdin="你好".encode()).stdout.decode() == "wqiy vbg\n"
    p = _wubitok("segment", "--file", "-", "--json", stdin="你好abc".encode("gb18030"))
    assert [r["text"] for r in json.loads(p.stdout)] == ["你好", "abc"]
    p = _wubitok("decode", "-m", str(MODEL), "--ids-file", "-", stdin=b"358 306")
    assert p.returncode == 0 and p.stdout
    p = _wubitok("encode", "-m", str(MODEL), "--file", "-", stdin="你好".encode())
    assert p.returncode == 0 and p.stdout.split()
    p = _wubitok("compare", "--file", "-", "-m", str(MODEL), "--format", "json", stdin="你好\n".encode())
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)[0]["name"] == "bpe-6000"
    assert os.path.exists(MODEL)


def test_a_huge_word_in_codes_is_quoted_short(capsys, tmp_path):
    f = tmp_path / "codes.txt"
    f.write_text("wqiy " + "q" * 3_000_000, encoding="utf-8")
    code, _, err = run(capsys, "convert", "--to", "hanzi", "--file", f)
    assert _one_short_line(code, err)


def test_a_model_field_holding_a_huge_value_is_quoted_short(capsys, tmp_path):
    data = json.loads(MODEL.read_text(encoding="utf-8"))
    for key, value in (("version", list(range(500_000))), ("model", "x" * 3_000_000), ("format", "y" * 3_000_000)):
        f = tmp_path / "m.json"
        f.write_text(json.dumps({**data, key: value}), encoding="utf-8")
        code, _, err = run(capsys, "decode", "-m", f, "1")
        assert _one_short_line(code, err), key


def test_dash_is_standard_input_for_corpora_too(tmp_path):
    text = (resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8")[:10_000]
    corpus = text[: text.rindex("\n") + 1].encode()
    model = tmp_path / "m.json"
    p = _wubitok("train", "-m", "bpe", "-v", "600", "-q", "-o", str(model), "-", stdin=corpus)
    assert p.returncode == 0, p.stderr
    p = _wubitok("encode", "-m", str(model), "--file", "-", "-o", str(tmp_path / "ids.jsonl"), stdin=corpus)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "ids.jsonl").read_text(encoding="utf-8").count("\n") == corpus.count(b"\n")
    p = _wubitok("count", "-m", "bpe", "--file", "-", "-o", str(tmp_path / "c.tsv"), stdin=corpus)
    assert p.returncode == 0, p.stderr
    p = _wubitok("compare", "--train", "-", "--held-out", str(model), "--vocab-size", "600", "--models", "bpe",
                 "--format", "json", stdin=corpus)
    assert p.returncode == 0, p.stderr
    p = _wubitok("train", "-m", "bpe", "-v", "600", "-o", str(model), "-", "-", stdin=corpus)
    assert p.returncode == 2 and b"once" in p.stderr
    assert sorted(x.name for x in tmp_path.iterdir()) == ["c.tsv", "ids.jsonl", "m.json"]


@pytest.mark.parametrize("brk", ["\r", "\n", "\v", "\x85", "\u2028", "\u2029"])
@pytest.mark.parametrize("where", ["usage", "message"])
def test_a_line_break_in_what_an_error_quotes_leaves_it_one_line(capsys, brk, where):
    # hypothesis found `encode -m M '-\r'`: argparse quoted the \r, and the error was two lines.
    argv = {"usage": ("encode", "-m", MODEL, f"-{brk}x"),  # argparse's error
            "message": ("decode", "-m", f"no-such{brk}model.json", "358")}[where]  # ours
    code, out, err = run(capsys, *argv)
    assert code == 2 and len(err.splitlines()) == 1 and len(err) < 500 and out == ""
    assert repr(brk)[1:-1] in err  # shown as the escape, not dropped
