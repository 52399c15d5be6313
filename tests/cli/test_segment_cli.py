"""``wubitok segment``: plain and JSON output, escaping, user errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import wubitok
from wubitok.cli import main
from wubitok.text.segment import segment

REPO = Path(__file__).resolve().parents[2]


def run_cli(capsys, *argv):
    code = main(["segment", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_plain_output_one_run_per_line(capsys):
    code, out, err = run_cli(capsys, "你好abc")
    assert code == 0 and err == ""
    assert out == "han\t0\t2\t你好\nlatin\t2\t5\tabc\n"


def test_plain_output_escapes_what_would_break_lines(capsys):
    text = "a\tb\r\n\u3000c\\d\x00é\u200d"
    code, out, _ = run_cli(capsys, text)
    assert code == 0
    assert out.splitlines() == [
        "latin\t0\t1\ta",
        "space\t1\t2\t\\t",
        "latin\t2\t3\tb",
        "space\t3\t6\t\\r\\n\\u3000",
        "latin\t6\t7\tc",
        "punct\t7\t8\t\\\\",
        "latin\t8\t9\td",
        "other\t9\t10\t\\x00",
        "latin\t10\t12\té\\u200d",
    ]


def test_plain_output_of_a_file_with_many_lines(capsys, tmp_path):
    text = "第一行，Hello！\n第二行 42\n\n👨\u200d👩\u200d👧🇨🇳\n"
    path = tmp_path / "in.txt"
    path.write_bytes(text.encode("utf-8"))
    code, out, _ = run_cli(capsys, "--file", str(path))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(segment(text))
    assert lines[-2:] == ["emoji\t19\t26\t👨\\u200d👩\\u200d👧🇨🇳", "space\t26\t27\t\\n"]


def test_json_output(capsys):
    code, out, _ = run_cli(capsys, "Hello, 世界! 123", "--json")
    assert code == 0
    assert json.loads(out) == [
        {"text": "Hello", "kind": "latin", "start": 0, "end": 5},
        {"text": ",", "kind": "punct", "start": 5, "end": 6},
        {"text": " ", "kind": "space", "start": 6, "end": 7},
        {"text": "世界", "kind": "han", "start": 7, "end": 9},
        {"text": "!", "kind": "punct", "start": 9, "end": 10},
        {"text": " ", "kind": "space", "start": 10, "end": 11},
        {"text": "123", "kind": "digit", "start": 11, "end": 14},
    ]


def test_json_from_file_keeps_crlf_and_astral(capsys, tmp_path):
    text = "𠀀字\r\nabc 👍🏽"
    path = tmp_path / "in.txt"
    path.write_bytes(text.encode("utf-8"))
    code, out, _ = run_cli(capsys, "--file", str(path), "--json")
    assert code == 0
    runs = json.loads(out)
    assert "".join(r["text"] for r in runs) == text
    assert runs == [{"text": r.text, "kind": r.kind, "start": r.start, "end": r.end} for r in segment(text)]
    assert runs[1] == {"text": "\r\n", "kind": "space", "start": 2, "end": 4}


@pytest.mark.parametrize("argv, message", [
    ([], "no input"),
    ([""], "empty input"),
    (["abc", "--file", "x.txt"], "not both"),
    (["--file", "{tmp}/missing.txt"], "no such file"),
    (["--file", "{tmp}/bad.txt"], "not UTF-8"),
    (["--file", "{tmp}/empty.txt"], "empty input"),
    (["a\udcff"], "not valid UTF-8"),
])
def test_user_errors_exit_2_with_one_line(capsys, tmp_path, argv, message):
    (tmp_path / "bad.txt").write_bytes(b"abc\xff\n")
    (tmp_path / "empty.txt").write_bytes(b"")
    code, out, err = run_cli(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("wubitok segment: error:") and message in err


def test_help_has_examples(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["segment", "--help"])
    assert exc.value.code == 0
    assert "wubitok segment '你好abc'" in capsys.readouterr().out


def test_public_api_exports():
    # wubitok.text.segment is the module (its segment() function is not re-exported under the same name)
    import wubitok.text.segment as module

    assert module.segment("你好") == segment("你好")
    assert wubitok.Run is type(segment("a")[0])
    assert list(wubitok.segment_stream(["你", "好"])) == segment("你好")
    proc = subprocess.run(
        [sys.executable, "-c", "import wubitok.text.segment; print(wubitok.text.segment.segment('你好a')[1].kind)"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert proc.stdout == "latin\n", proc.stderr


def test_subprocess_json_and_bad_argument():
    proc = subprocess.run([sys.executable, "-m", "wubitok", "segment", "你好abc 🇨🇳", "--json"],
                          capture_output=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    runs = json.loads(proc.stdout.decode("utf-8"))
    assert [(r["kind"], r["text"]) for r in runs] == [
        ("han", "你好"), ("latin", "abc"), ("space", " "), ("emoji", "🇨🇳")]
    # bytes that are not UTF-8 in the argument itself
    proc = subprocess.run([sys.executable, "-m", "wubitok", "segment", b"ab\xff"],
                          capture_output=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode().count("\n") == 1 and b"not valid UTF-8" in proc.stderr
