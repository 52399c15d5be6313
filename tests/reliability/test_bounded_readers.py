"""Bounded time and memory on whatever a user or a model file brings (issue #31, items 10, 11, 14):
each case is one line and exit 2 (or a normal run), never a hang, a traceback or a MemoryError."""
from __future__ import annotations

import base64
import http.server
import json
import os
import socket
import threading

import pytest
from cli_run import run

from wubitok.engines.pre_tokenizers.regex_bounds import check_pattern
from wubitok.errors import InputError
from wubitok.paths import resources_dir

MODELS = resources_dir() / "models"

# Known catastrophic shapes (OWASP ReDoS examples and the issue's own): nested unbounded repeats.
NESTED = ["(a+)+$", "(a*)*$", "(?:a+)+$", "([a-zA-Z]+)*$", "(\\w+\\s?)*$",
          "^(([a-z])+.)+[A-Z]([a-z])+$", "(.*a){12,}", "(?:[a-z]+,?)*;", "((ab)*c?)+x", "(x+x+)+y"]
# Overlapping alternatives: no nested repeat, caught by the time bound instead.
OVERLAPPING = ["(?:a|aa)+$", "(?:aa|a)+b", "(?:\\d|\\d\\d)+$"]


@pytest.mark.parametrize("pattern", NESTED)
def test_nested_repeats_are_refused_at_load(pattern):
    with pytest.raises(InputError, match="backtrack catastrophically"):
        check_pattern(pattern)


@pytest.mark.parametrize("pattern", ["(?>a+)+$", "(a++)+$", "(ab)+", "[(a+)+]", "\\(a+\\)+", "a+b+c*"])
def test_safe_shapes_pass(pattern):
    check_pattern(pattern)


def _bpe_with(tmp_path, pattern):
    data = json.loads((MODELS / "bpe-6000.json").read_text(encoding="utf-8"))
    data["pre_tokenizer"]["pattern"] = pattern
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("pattern", NESTED[:3])
def test_a_model_with_a_nested_repeat_is_refused(capsys, tmp_path, pattern):
    code, _, err = run(capsys, "encode", "-m", _bpe_with(tmp_path, pattern), "a" * 2000 + "!")
    assert code == 2 and err.count("\n") == 1 and "catastroph" in err, err


@pytest.mark.parametrize("pattern", OVERLAPPING)
def test_a_model_whose_pattern_runs_too_long_stops_in_one_line(capsys, tmp_path, pattern):
    text = ("1" if "d" in pattern else "a") * 60 + "!"
    code, _, err = run(capsys, "encode", "-m", _bpe_with(tmp_path, pattern), text)
    assert code == 2 and err.count("\n") == 1 and "backtracks catastrophically" in err, err


def test_a_catastrophic_split_regex_in_a_tokenizer_json_is_one_line(capsys, tmp_path):
    import tokenizers

    tok = tokenizers.Tokenizer(tokenizers.models.BPE(vocab={"a": 0, "b": 1}, merges=[]))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Split(tokenizers.Regex("(a|aa)+(a+)+$"), "isolated")
    path = tmp_path / "tokenizer.json"
    path.write_text(tok.to_str(), encoding="utf-8")
    code, _, err = run(capsys, "compare", "a" * 5000 + "b", "--hf-tokenizer", path)
    assert code == 2 and err.count("\n") == 1 and "Panic" not in err, err


@pytest.mark.parametrize("rank", [10**13, -5, 2**32])
def test_a_tiktoken_rank_out_of_range_is_one_line(capsys, tmp_path, rank):
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    lines.append(f"{base64.b64encode(b'ab').decode()} {rank}")
    path = tmp_path / "x.tiktoken"
    path.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "compare", "你好 abc", "--tiktoken", path)
    assert code == 2 and err.count("\n") == 1 and "out of range" in err, err


def test_a_huge_declared_model_is_refused_before_building(capsys, tmp_path):
    data = json.loads((MODELS / "bpe-6000.json").read_text(encoding="utf-8"))
    merge = data["merges"][0]
    path = tmp_path / "huge.json"
    with open(path, "w", encoding="utf-8") as fh:  # 9M merges in ~110 MB, under the byte cap
        body = json.dumps({k: v for k, v in data.items() if k != "merges"}, ensure_ascii=False)[:-1]
        fh.write(body + ', "merges": [')
        one = json.dumps(merge, ensure_ascii=False)
        fh.write(",".join([one] * 1000) + ("," + ",".join([one] * 1000)) * 4499 + "]}")
    code, _, err = run(capsys, "encode", "-m", path, "你好")
    assert code == 2 and err.count("\n") == 1 and "refused before building" in err, err


@pytest.mark.parametrize("command", [
    ["decode", "-m", MODELS / "bpe-6000.json", "--ids-file", "/dev/zero"],
    ["userdata", "import", "/dev/zero"],
    ["table", "import", "/dev/zero"],
])
def test_dev_zero_is_too_big_in_one_line(capsys, user_data_dir, command):
    code, _, err = run(capsys, *command)
    # a text file's first megabyte of NULs is refused as no text (issue #37, 6)
    assert code == 2 and err.count("\n") == 1 and ("too big" in err or "NUL characters in a row" in err), err


def test_deeply_nested_settings_and_userdata_are_one_line(capsys, user_data_dir, tmp_path):
    user_data_dir.mkdir(parents=True)
    (user_data_dir / "ime_settings.json").write_text("[" * 100_000 + "]" * 100_000)
    code, _, err = run(capsys, "settings", "show")
    assert code == 2 and err.count("\n") == 1 and "deeply" in err, err
    (user_data_dir / "ime_settings.json").unlink()
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "wubitok-userdata", "version": 1, "phrases": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code, _, err = run(capsys, "userdata", "import", deep)
    assert code == 2 and err.count("\n") == 1, err


def test_a_lone_surrogate_in_userdata_is_one_line_and_changes_nothing(capsys, user_data_dir, tmp_path):
    assert run(capsys, "phrase", "add", "天地人和")[0] == 0
    bad = tmp_path / "u.json"
    bad.write_text('{"format": "wubitok-userdata", "version": 1, "phrases": [["abcd", "\\udc80x", "manual"]]}')
    code, _, err = run(capsys, "userdata", "import", bad)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "天地人和" in run(capsys, "phrase", "list")[1]


def test_non_utf8_file_names_with_encode_o(capsys, tmp_path):
    corpus = tmp_path / os.fsdecode(b"f\xff\xfe.txt")
    corpus.write_text("你好\n世界\n", encoding="utf-8")
    out = tmp_path / os.fsdecode(b"o\xff.bin")
    code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus, "-o", out, "-q")
    assert code == 0, err
    header = json.loads((tmp_path / os.fsdecode(b"o\xff.bin.json")).read_text(encoding="utf-8"))
    assert header["files"] == [str(tmp_path / "f\\xff\\xfe.txt")] and header["documents"] == 2


class _Silent(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - the http.server name
        self.send_error(400)

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("server", ["http", "silent"])
def test_cluster_pointed_at_a_non_dask_port_is_one_line(capsys, tmp_path, server):
    from wubitok.scale.scheduler_probe import CONNECT_SECONDS

    corpus = tmp_path / "c.txt"
    corpus.write_text("你好\n", encoding="utf-8")
    if server == "http":  # answers HTTP/1.1 400 to what Dask sends
        httpd = http.server.HTTPServer(("127.0.0.1", 0), _Silent)
        port = httpd.server_address[1]
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        stop = httpd.shutdown
    else:  # accepts and never says anything (a dashboard waiting for a request)
        listener = socket.create_server(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        stop = listener.close
    try:
        code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus, "-o",
                           tmp_path / "o.jsonl", "--cluster", f"tcp://127.0.0.1:{port}", "-q")
    finally:
        stop()
    # Before: a hang of over 90 s (silent) or a 3 EiB allocation's traceback (http); now one line after at
    # most CONNECT_SECONDS of waiting for the scheduler's handshake.
    assert code == 2 and err.count("\n") == 1 and "no Dask scheduler" in err and CONNECT_SECONDS, err
