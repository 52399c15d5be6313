"""``wubitok lm-eval``: JSON out, one-line errors, a missing extra named, Ctrl-C leaves nothing."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from cli_run import run

from wubitok.paths import resources_dir

ROOT = Path(__file__).resolve().parents[2]
POEMS = resources_dir() / "samples" / "tang300.txt"
TINY = ["--steps", "5", "--layers", "1", "--heads", "2", "--width", "16", "--context-chars", "16",
        "--train-chars", "3000", "--test-chars", "400"]


def test_json_has_every_tokenizer_with_what_was_held_equal(capsys):
    code, out, err = run(capsys, "lm-eval", "-t", "wubi-bpe-6000", "-t", "chars:600", "--train", POEMS,
                         "--seeds", "2", *TINY, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert [t["name"] for t in result["tokenizers"]] == ["wubi-bpe-6000", "chars:600"]
    assert result["test_chars"] == 400 and result["train_chars"] == 3000
    for t in result["tokenizers"]:
        assert len(t["runs"]) == 2 and t["bits_per_char"]["half_width"] is not None
        assert t["params_non_embedding"] == result["tokenizers"][0]["params_non_embedding"]
    assert any("non-embedding" in line for line in result["held_equal"])
    assert "training" in err  # progress on stderr


def test_the_table_says_what_was_held_equal(capsys):
    code, out, _ = run(capsys, "lm-eval", "-t", "wubi-bpe-6000", "-t", "bpe-6000", "--train", POEMS, "--seeds", "1",
                       *TINY)
    assert code == 0
    assert "bits/char" in out and "held equal:" in out and "wubi-bpe-6000" in out


def test_bad_requests_are_one_line(capsys, tmp_path):
    for argv, words in [(["-t", "chars"], "2 to 4 tokenizers"),
                        (["-t", "chars", "-t", str(tmp_path / "none.json")], "no such model file"),
                        (["-t", "chars", "-t", "chars:x"], "is a number"),
                        (["-t", "chars", "-t", "chars:600", "--seeds", "0"], "--seeds")]:
        code, out, err = run(capsys, "lm-eval", *argv, "--train", POEMS, *TINY)
        assert code == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and words in err, err


def test_without_pytorch_one_line_names_the_extra(tmp_path):
    # A torch that cannot be imported, ahead of the installed one on the path.
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text("raise ImportError('no torch here')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    proc = subprocess.run([sys.executable, "-m", "wubitok", "lm-eval", "-t", "chars", "-t", "chars:600",
                           "--train", str(POEMS)], capture_output=True, text=True, env=env)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "wubitok lm-eval: error: language-model evaluation needs PyTorch: pip install wubitok[lm]"]


def test_ctrl_c_while_training_exits_130_and_leaves_nothing(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "wubitok", "lm-eval", "-t", "chars", "-t", "chars:600", "--train", str(POEMS),
            "--steps", "100000"]
    proc = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    # Non-terminal progress prints a stage when it ends: both test texts encoded, training has begun.
    seen = 0
    while seen < 2:
        line = proc.stderr.readline()
        assert line, "lm-eval ended before training"
        seen += b"test text" in line
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert out == b"" and err.decode().strip().endswith("interrupted")
    assert list(tmp_path.iterdir()) == []
