"""`wubitok compare`: reports, spans, the chart, the training experiment, one-line errors."""
from __future__ import annotations

import base64
import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import sentencepiece as spm
from cli_run import run
from tokenizers import Tokenizer as HFTokenizerLib
from tokenizers import decoders, models, pre_tokenizers, trainers

from wubitok.engines.base import load_tokenizer
from wubitok.paths import resources_dir

REPO = Path(__file__).resolve().parents[2]
LINES = resources_dir().joinpath("samples", "tang300.txt").read_text(encoding="utf-8").splitlines()[:200]
TEXT = "床前明月光，疑是地上霜。hello 鑫"


@pytest.fixture(scope="module")
def externals(tmp_path_factory):
    d = tmp_path_factory.mktemp("externals")
    hf = HFTokenizerLib(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    hf.train_from_iterator(LINES, trainers.BpeTrainer(vocab_size=400, show_progress=False,
                                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    (d / "唐诗").mkdir()
    hf.save(str(d / "唐诗" / "tokenizer.json"))
    with open(d / "tang.model", "wb") as out:
        spm.SentencePieceTrainer.train(sentence_iterator=iter(LINES), model_writer=out, vocab_size=1500,
                                       hard_vocab_limit=False, byte_fallback=True, character_coverage=1.0,
                                       minloglevel=2)
    ranks = [bytes([b]) for b in range(256)] + ["月".encode()[:2], "月".encode()]
    (d / "toy.tiktoken").write_text("".join(f"{base64.b64encode(t).decode()} {i}\n" for i, t in enumerate(ranks)))
    return {"hf": d / "唐诗" / "tokenizer.json", "spm": d / "tang.model", "tiktoken": d / "toy.tiktoken", "dir": d}


def _args(externals):
    return ["--hf-tokenizer", externals["hf"], "--spm-model", externals["spm"], "--tiktoken", externals["tiktoken"]]


def test_json_report_counts_equal_the_libraries(capsys, externals):
    code, out, err = run(capsys, "compare", TEXT, *_args(externals), "--format", "json")
    assert code == 0 and err == ""
    data = json.loads(out)
    # tokenizer.json is named after its folder; the others after their file.
    assert [d["name"] for d in data] == ["唐诗", "tang", "toy"]
    hf = HFTokenizerLib.from_file(str(externals["hf"]))
    sp = spm.SentencePieceProcessor(model_file=str(externals["spm"]))
    assert data[0]["tokens"] == len(hf.encode(TEXT, add_special_tokens=False).ids)
    assert data[1]["tokens"] == len(sp.encode(TEXT))
    # toy: 月 is one token; every other character is its UTF-8 bytes: 9 Han + 2 full-width
    # punctuation + 鑫 = 12 three-byte characters -> 36, plus 6 ASCII ("hello ") and 月 -> 43.
    assert data[2]["tokens"] == 43
    for d in data:
        assert d["chars"] == len(TEXT) and d["lines"] == 1
        for key in ("chars_per_token", "bytes_per_token", "unk_rate", "roundtrip_rate", "vocab_size",
                    "vocab_used", "renyi_efficiency", "encode_mb_per_s"):
            assert key in d


def test_spans_show_pieces_of_characters(capsys, externals):
    code, out, _ = run(capsys, "compare", "月鑫", "--tiktoken", externals["tiktoken"], "--spans")
    assert code == 0
    assert "toy (4): 月 | <E9>[鑫] | <91>[鑫] | <AB>[鑫]" in out
    code, out, _ = run(capsys, "compare", "月鑫", "--tiktoken", externals["tiktoken"], "--spans", "--format", "json")
    spans = json.loads(out)[0]["spans"]
    assert [(s["display"], s["partial"]) for s in spans] == [("月", False), ("<E9>", True), ("<91>", True),
                                                             ("<AB>", True)]


def test_files_table_csv_md(capsys, externals, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n".join(LINES[:20]) + "\n", encoding="utf-8")
    b.write_text("hello 月\n", encoding="utf-8")
    code, out, _ = run(capsys, "compare", "--file", a, "--file", b, *_args(externals), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    lines = sum(1 for line in LINES[:20] if line) + 1  # empty lines are skipped
    assert code == 0 and [r["lines"] for r in rows] == [str(lines)] * 3
    code, out, _ = run(capsys, "compare", "-f", a, *_args(externals))
    assert code == 0 and out.splitlines()[0].split()[:3] == ["tokenizer", "kind", "tokens"] and "唐诗" in out
    code, out, _ = run(capsys, "compare", "-f", a, *_args(externals), "--format", "md")
    assert code == 0 and out.startswith("| tokenizer | kind |")


def test_plot_writes_a_png(capsys, externals, tmp_path):
    out_png = tmp_path / "chart.png"
    code, _, err = run(capsys, "compare", TEXT, *_args(externals), "--plot", out_png)
    assert code == 0 and "chart written" in err
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, message", [
    (["compare", "x", "--spm-model", "{dir}/missing.model"], "missing.model: no such file"),
    (["compare", "--file", "{dir}/latin1.txt", "--tiktoken", "{tiktoken}"], "not UTF-8"),
    (["compare", "x", "--hf-tokenizer", "{spm}"], "not UTF-8"),
    (["compare", "x", "--spm-model", "{tiktoken}"], "not a SentencePiece model"),
    (["compare", "x", "-m", "{tiktoken}"], "not a JSON model file"),
    (["compare", "x", "--format", "xml", "--tiktoken", "{tiktoken}"], "invalid choice: 'xml'"),
    (["compare", "x"], "no tokenizers"),
    (["compare", "--tiktoken", "{tiktoken}"], "no input"),
    (["compare", "--file", "{tiktoken}", "--tiktoken", "{tiktoken}", "--spans"], "--spans"),
    (["compare", "x", "--tiktoken", "{tiktoken}", "--spans", "--format", "csv"], "--spans"),
    (["compare", "x", "--tiktoken", "{tiktoken}", "--vocab-size", "9"], "only go with --train"),
    (["compare", "--train", "{tiktoken}", "--vocab-size", "9"], "--held-out"),
    (["compare", "--train", "{tiktoken}", "--vocab-size", "9", "--held-out", "{tiktoken}", "--models", "nope"],
     "unknown model type 'nope'"),
])
def test_bad_input_exits_2_with_one_line(capsys, externals, argv, message):
    (externals["dir"] / "latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    fields = {k: str(v) for k, v in externals.items()}
    code, out, err = run(capsys, *[a.format(**fields) for a in argv])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_subprocess(externals):
    proc = subprocess.run([sys.executable, "-m", "wubitok", "compare", "月光", "--tiktoken", str(externals["tiktoken"]),
                           "--format", "json"], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # 月 is one token, 光 three byte pieces.
    assert json.loads(proc.stdout)[0]["tokens"] == 4


def test_train_experiment_end_to_end(capsys, externals, tmp_path):
    train, held = tmp_path / "train.txt", tmp_path / "held.txt"
    train.write_text("\n".join(LINES[:150]) + "\n", encoding="utf-8")
    held.write_text("\n".join(LINES[150:]) + "\nmixed 文本 123\n", encoding="utf-8")
    # 1,000 > the ~650 distinct characters + 256 bytes that a Unigram vocabulary keeps.
    code, out, err = run(capsys, "compare", "--train", train, "--vocab-size", 1000, "--held-out", held,
                         "--hf-tokenizer", externals["hf"], "-o", tmp_path / "models", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [d["name"] for d in data] == ["wubi-bpe", "bpe", "wordpiece", "unigram", "唐诗"]
    for model in ("wubi-bpe", "bpe", "wordpiece", "unigram"):
        assert f"training {model}: " in err
        saved = load_tokenizer(tmp_path / "models" / f"{model}.json")
        assert saved.model_type == model and saved.vocab_size <= 1000
    assert all(d["train_seconds"] is not None for d in data[:4]) and data[4]["train_seconds"] is None
    assert {d["lines"] for d in data} == {sum(1 for line in LINES[150:] if line) + 1}
