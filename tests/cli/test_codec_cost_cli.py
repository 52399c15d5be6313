"""``wubitok codec-cost``: per-character Wubi symbols against UTF-8 bytes."""
from __future__ import annotations

import json

from cli_run import run

from wubitok.wubi.codec import CodecOptions, WubiCodec

TEXT = "的的的你好, world! 𠀀\n"


def test_json_figures_match_the_codec(capsys):
    code, out, err = run(capsys, "codec-cost", TEXT, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    codec = WubiCodec(CodecOptions())
    assert data["codec"] == "hybrid/final-key/symbol/shared-bytes"
    assert data["chars"] == len(TEXT)
    assert data["wubi_symbols"] == len(codec.encode(TEXT))
    assert data["utf8_bytes"] == len(TEXT.encode("utf-8"))
    per = {row["char"]: row for row in data["per_char"]}
    assert per["的"]["count"] == 3 and per["的"]["wubi"] == len(codec.spelling("的")) == 2  # R⓪
    assert per["的"]["extra"] == (2 - 3) * 3
    assert per["w"]["wubi"] == per["w"]["utf8"] == 1 and per["w"]["spelling"] == ""
    assert codec.display(codec.spelling("你")) == per["你"]["spelling"]
    assert sum(s["chars"] for s in data["by_script"].values()) == len(TEXT)
    # costliest extra first
    extras = [row["extra"] for row in data["per_char"]]
    assert extras == sorted(extras, reverse=True)


def test_codec_option_changes_the_spelling(capsys):
    _, out, _ = run(capsys, "codec-cost", "的", "--codec", "full", "--json")
    row = json.loads(out)["per_char"][0]
    assert row["spelling"] == WubiCodec(CodecOptions("full")).display(WubiCodec(CodecOptions("full")).spelling("的"))
    assert row["wubi"] > 1


def test_plain_output_lists_scripts_then_costliest(capsys, tmp_path):
    path = tmp_path / "a.txt"
    path.write_text(TEXT, encoding="utf-8")
    code, out, _ = run(capsys, "codec-cost", "--file", path, "--top", "2")
    assert code == 0
    head, chars = out.split("\n\n")
    assert head.splitlines()[0].startswith("script\tchars")
    assert head.splitlines()[-1].split("\t")[:2] == ["all", str(len(TEXT))]
    rows = chars.splitlines()
    assert rows[0].startswith("char\tcount") and len(rows) == 3
    _, out_cheap, _ = run(capsys, "codec-cost", "--file", path, "--top", "1", "--cheapest")
    assert out_cheap.split("\n\n")[1].splitlines()[1].startswith("的\t3\t")


def test_user_errors_are_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "codec-cost")
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "codec-cost", "x", "--codec", "nope")
    assert code == 2 and "unknown codec code" in err
    code, _, err = run(capsys, "codec-cost", "--file", tmp_path / "missing.txt")
    assert code == 2 and len(err.strip().splitlines()) == 1
