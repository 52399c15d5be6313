"""The same text for the same bytes, whatever the command or the locale (issue #31, items 15 and 16)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from cli_run import run
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.fileio import detect_encoding
from wubitok.paths import resources_dir

MODEL = resources_dir() / "models" / "bpe-6000.json"
COMMANDS = [["convert", "--to", "wubi"], ["segment"], ["encode", "-m", MODEL]]


BIG5 = "這是一個繁體中文的測試句子，請問你好嗎？".encode("big5")


@pytest.mark.parametrize("data, message", [
    (b"\xe4\xbd\xa0\xe5\xa5\xbd\xe4\xb8\x96\xe7\x95\x8c\xe7\x95", "middle of a UTF-8 character"),
    # Big5 with one GB18030 four-byte character: GB18030 decodes all of it (into mojibake)
    (BIG5[:10] + "\U00020000".encode("gb18030") + BIG5[10:], "not Big5 text (invalid byte 0x95 at offset 10)"),
    ("简体中文的文本文件，被截断了".encode("gbk")[:-1], "middle of a GB18030 character"),
])
def test_a_flawed_file_is_refused_alike_by_every_command(capsys, tmp_path, data, message):
    flawed = tmp_path / "t.txt"
    flawed.write_bytes(data)
    errors = set()
    for command in COMMANDS:
        code, out, err = run(capsys, *command, "--file", flawed)
        # One error line (encode may say first which encoding it reads the file in)
        lines = err.splitlines()
        assert code == 2 and [": error: " in line for line in lines][-2:] in ([True], [False, True]), (command, err)
        errors.add(lines[-1].split(": error: ", 1)[1])
    assert len(errors) == 1 and message in errors.pop()


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=2, max_size=12),
       cut=st.integers(1, 2))
def test_short_utf8_cut_inside_its_last_character_is_never_a_legacy_encoding(text, cut):
    data = text.encode("utf-8")[:-cut]  # every Han character is 3 bytes: 1 or 2 of the last are gone,
    # at least one whole character before it is the evidence of UTF-8
    assert detect_encoding(data) == "utf-8"


def _cli(env_lang: str, *argv: str) -> subprocess.CompletedProcess:
    src = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["wubitok"].__file__)))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8"))}
    env.update(LANG=env_lang, LC_ALL=env_lang, PYTHONPATH=src, PYTHONCOERCECLOCALE="0")
    return subprocess.run([sys.executable, "-X", "utf8=0", "-m", "wubitok", *argv], capture_output=True, env=env)


@pytest.mark.parametrize("argv", [["encode", "-m", str(MODEL), "你好"], ["lookup", "你好"],
                                  ["convert", "--to", "wubi", "你好"]])
def test_command_line_text_is_decoded_the_same_under_every_locale(argv):
    utf8 = _cli("C.UTF-8", *argv)
    posix = _cli("C", *argv)
    assert utf8.returncode == 0, utf8.stderr
    assert (posix.returncode, posix.stdout) == (0, utf8.stdout), posix.stderr.decode(errors="replace")


def test_bytes_that_are_not_utf8_on_the_command_line_are_one_line():
    done = _cli("C", "lookup", os.fsdecode(b"\xff\xfe"))
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1 and b"not valid UTF-8" in done.stderr


@pytest.mark.parametrize("tail, codec", [("这是英文前言之后的简体中文正文。" * 20, "gbk"),
                                         ("這是英文前言之後的繁體中文正文。" * 20, "big5")])
def test_a_long_english_start_then_chinese_reads_alike_in_every_command(capsys, tmp_path, tail, codec):
    # 72 KB of English before the Chinese: convert (whole file) detected on all of it and read it,
    # encode (streamed) detected on the English start, took UTF-8 and failed at the first Chinese.
    f = tmp_path / "long.txt"
    f.write_bytes(b"An English preface line.\n" * 3000 + tail.encode(codec))
    label = "GB18030" if codec == "gbk" else "Big5"
    for command in COMMANDS:
        code, out, err = run(capsys, *command, "--file", f)
        assert code == 0, (command, err)
        assert f"as {label}" in err, (command, err)
