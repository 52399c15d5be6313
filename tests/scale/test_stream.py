"""encode --file streams: blocks give the whole text's encoding, the output is written as it comes,
and memory does not grow with the file."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.cli_run import run
from wubitok.engines.base import load_tokenizer
from wubitok.paths import resources_dir
from wubitok.scale.stream import encode_blocks, write_ids, write_json

ROOT = Path(__file__).resolve().parents[2]
MODELS = resources_dir() / "models"
SAMPLES = resources_dir() / "samples"
TYPES = ["wubi-bpe", "bpe", "wordpiece", "unigram"]
TOKENIZERS = {t: load_tokenizer(MODELS / f"{t}-6000.json") for t in TYPES}
PIECES = ["你好", "，", "世界。", "\n", "\r\n", "\n\n", " ", "  ", "\t", "abc", "Hello", "123", "😀", "<s>", "</s>",
          "\u3000", "㠭", "上"]


def _printed(enc) -> str:
    return json.dumps(enc.to_json(), ensure_ascii=False, indent=2) + "\n"


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(TYPES), parts=st.lists(st.sampled_from(PIECES), max_size=80),
       block=st.integers(1, 30), chunk=st.integers(1, 50))
def test_blocks_encode_as_the_whole_text(model, parts, block, chunk):
    tok, text = TOKENIZERS[model], "".join(parts)
    chunks = [text[i:i + chunk] for i in range(0, len(text), chunk)]
    js, ids = io.StringIO(), io.StringIO()
    write_json(encode_blocks(tok, chunks, block), js)
    write_ids(encode_blocks(tok, chunks, block), ids)
    whole = tok.encode(text)
    assert js.getvalue() == _printed(whole)
    assert ids.getvalue() == " ".join(map(str, whole.ids)) + "\n"


@pytest.mark.parametrize("model", TYPES)
def test_cli_file_output_is_the_whole_encoding(capsys, tmp_path, model):
    text = (SAMPLES / "song100.txt").read_text(encoding="utf-8") + "\n  indented\r\nEnglish 123 😀 <s>"
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode("gb18030"))
    model_file = MODELS / f"{model}-6000.json"
    code, out, err = run(capsys, "encode", "-m", model_file, "--file", path, "--json")
    # the literal <s> is text (--special-tokens plain, the default)
    assert code == 0 and out == _printed(TOKENIZERS[model].encode_ordinary(text))
    assert err == f"wubitok encode: reading {path} as GB18030\n"  # no progress on a pipe, unless asked
    code, out, err = run(capsys, "encode", "-m", model_file, "--file", path, "--encoding", "gbk", "--progress")
    assert out == " ".join(map(str, TOKENIZERS[model].encode_ordinary(text).ids)) + "\n"
    assert err.startswith("encoding ") and "100%" in err and "/s" in err


def _peak_rss_kb(model, path, out_path) -> int:
    """Peak RSS of ``wubitok encode --file PATH --json > OUT`` in its own process (KB)."""
    with open(out_path, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "wubitok", "encode", "-m", str(model), "--file", str(path),
                                 "--json"], stdout=out, stderr=subprocess.PIPE, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    proc.stderr.close() if proc.stderr else None
    return usage.ru_maxrss


def test_memory_does_not_grow_with_the_file(tmp_path):
    # Before streaming, encode --file held the text and every token object:
    # about 100 times the file, so the 4x file below would have cost some 200 MB more.
    text = (SAMPLES / "tang300.txt").read_text(encoding="utf-8")
    small, big = tmp_path / "small.txt", tmp_path / "big.txt"
    small.write_text(text * 8, encoding="utf-8")
    big.write_text(text * 32, encoding="utf-8")
    model = MODELS / "wubi-bpe-6000.json"
    rss_small = _peak_rss_kb(model, small, tmp_path / "s.json")
    rss_big = _peak_rss_kb(model, big, tmp_path / "b.json")
    assert (tmp_path / "b.json").stat().st_size > 4 * big.stat().st_size  # the output did grow
    grown_mb = (rss_big - rss_small) / 1024
    assert grown_mb < 30, (rss_small, rss_big)
    assert json.loads((tmp_path / "s.json").read_text(encoding="utf-8")) == TOKENIZERS["wubi-bpe"].encode(
        text * 8).to_json()
