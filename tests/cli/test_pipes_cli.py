"""Pipes as input (issue #37, 7): ``cat f | wubitok encode --file /dev/stdin`` and a FIFO in
``count``, ``train`` and ``compare`` were refused as "not seekable"; each is read once into a
temporary copy, which is gone after the run."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from cli_run import run

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "resources" / "models" / "bpe-6000.json"
TEXT = "床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\nHello 123 世界\n" * 30


def _copies() -> set[str]:
    return {p for p in os.listdir(tempfile.gettempdir()) if p.startswith("wubitok-stdin-")}


def _feed(fifo: Path, data: bytes) -> threading.Thread:
    def write() -> None:
        with open(fifo, "wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


@pytest.mark.parametrize("stdin_name", ["/dev/stdin", "-"])
def test_encode_and_count_read_a_pipe_as_they_read_the_file(tmp_path, stdin_name):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "wubitok"]
    outputs = []
    for source in (str(corpus), stdin_name):
        out = tmp_path / f"counts-{len(outputs)}.tsv"
        with open(corpus, "rb") as fh:
            piped = subprocess.run(["cat"], stdin=fh, capture_output=True).stdout
        enc = subprocess.run(cmd + ["encode", "-m", str(MODEL), "--file", source], input=piped,
                             capture_output=True, env=env, timeout=300)
        assert enc.returncode == 0, enc.stderr
        cnt = subprocess.run(cmd + ["count", "-m", str(MODEL), "--file", source, "-o", str(out)], input=piped,
                             capture_output=True, env=env, timeout=300)
        assert cnt.returncode == 0, cnt.stderr
        outputs.append((enc.stdout, out.read_bytes()))
    assert outputs[0] == outputs[1] and outputs[0][0].strip()


def test_a_fifo_trains_compares_and_counts_like_the_file(capsys, tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    fifo = tmp_path / "fifo"
    before = _copies()
    results = []
    for source in (corpus, fifo):
        if source == fifo:
            os.mkfifo(fifo)
        for i, argv in enumerate((["train", "-m", "bpe", "-v", "300", "-q", "-o", tmp_path / "m.json"],
                                  ["compare", "-m", MODEL, "--file"],
                                  ["count", "-m", MODEL, "-o", tmp_path / "c.tsv", "--file"])):
            writer = _feed(fifo, TEXT.encode("utf-8")) if source == fifo else None
            code, out, err = run(capsys, *argv, source)
            assert code == 0, err
            if writer is not None:
                writer.join(30)
            made = {0: tmp_path / "m.json", 2: tmp_path / "c.tsv"}.get(i)
            # compare's first row without its last column (MB/s: a time)
            results.append(made.read_bytes() if made else out.splitlines()[2].rsplit(None, 1)[0])
    assert results[:3] == results[3:]
    assert _copies() == before
