"""compare --workers: the same figures as one process (encode times aside)."""
from __future__ import annotations

import json

from tests.cli.cli_run import run
from wubitok.engines.base import load_tokenizer
from wubitok.exports import export
from wubitok.paths import resources_dir

MODELS = resources_dir() / "models"
TIMES = ("encode_seconds", "encode_mb_per_s")


def test_workers_give_the_same_figures(capsys, tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text((resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8") * 2
                      + "English, 数字 123 😀\n", encoding="utf-8")
    hf = tmp_path / "tokenizer.json"
    export(load_tokenizer(MODELS / "wordpiece-6000.json"), "tokenizer.json", hf)
    argv = ["compare", "--file", corpus, "-m", MODELS / "wubi-bpe-6000.json", "-m", MODELS / "unigram-6000.json",
            "--hf-tokenizer", hf, "--format", "json"]
    outputs = []
    for workers in ("1", "2"):
        code, out, err = run(capsys, *argv, "--workers", workers)
        assert code == 0, err
        outputs.append([{k: v for k, v in rec.items() if k not in TIMES} for rec in json.loads(out)])
    assert outputs[0] == outputs[1]
    assert outputs[0][0]["lines"] > 1000 and len(outputs[0]) == 3


def test_workers_need_files(capsys):
    code, _, err = run(capsys, "compare", "你好", "-m", MODELS / "bpe-6000.json", "--workers", "2")
    assert code == 2 and "--workers is for --file" in err
