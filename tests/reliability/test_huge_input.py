"""Huge input (issue #37, 5 and 6): a 2 GB sparse file is refused in one line at once, not read for
minutes; ``train`` checks its options before it reads its corpus."""
from __future__ import annotations

import pytest
from cli_run import run

from wubitok.paths import resources_dir

MODEL = resources_dir() / "models" / "bpe-6000.json"


@pytest.fixture
def sparse(tmp_path):
    path = tmp_path / "sparse.txt"
    with open(path, "wb") as fh:
        fh.truncate(2 << 30)  # 2 GB of NUL bytes that take no disk
    return path


def _one_line(code, err):
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("argv", [
    ["encode", "-m", MODEL, "--file"],
    ["count", "-m", MODEL, "-o", "{tmp}/c.tsv", "--file"],
    ["compare", "-m", MODEL, "--file"],
    ["train", "-m", "bpe", "-v", "300", "-o", "{tmp}/m.json"],
    ["segment", "--file"],
    ["convert", "--to", "traditional", "--file"],
])
def test_a_sparse_file_is_refused_as_not_text(capsys, tmp_path, sparse, argv):
    argv = [str(a).format(tmp=tmp_path) for a in argv]
    err = _one_line(*run(capsys, *argv, sparse)[::2])
    assert "NUL characters in a row" in err and str(sparse) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sparse.txt"]


def test_text_with_a_few_nul_characters_is_still_text(capsys, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("你好\x00世界\n" + "\x00" * 1023 + "\n", encoding="utf-8")
    code, out, err = run(capsys, "encode", "-m", MODEL, "--file", path)
    assert code == 0 and out.split(), err


def test_train_checks_its_options_before_reading_the_corpus(capsys, tmp_path, sparse):
    """The vocabulary size is refused first: the 2 GB corpus (which is refused too) is not read."""
    err = _one_line(*run(capsys, "train", "-m", "bpe", "-v", "3", sparse, "-o", tmp_path / "m.json")[::2])
    assert "vocab_size 3 is too small" in err
