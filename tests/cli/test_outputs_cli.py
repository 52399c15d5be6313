"""Where commands write: never over their own input or the bundled data, nothing left behind."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run

from wubitok.paths import dictionary_path, resources_dir

MODEL = resources_dir() / "models" / "bpe-6000.json"


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "m.json"
    path.write_bytes(MODEL.read_bytes())
    return path


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text((resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8")[:20_000],
                    encoding="utf-8")
    return path


def _unchanged(*paths: Path):
    before = {p: p.read_bytes() for p in paths}
    return lambda: all(p.read_bytes() == data for p, data in before.items())


def test_decode_refuses_to_overwrite_its_model(capsys, model):
    same = _unchanged(model)
    code, out, err = run(capsys, "decode", "-m", model, "358", "306", "-o", model)
    assert code == 2 and err.count("\n") == 1 and "is one of the inputs" in err and same()


def test_decode_refuses_to_overwrite_its_ids_file_through_a_link(capsys, model, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("358 306\n", encoding="utf-8")
    (tmp_path / "hard.txt").hardlink_to(ids)
    (tmp_path / "soft.txt").symlink_to(ids)
    same = _unchanged(ids)
    for out_name in ("ids.txt", "hard.txt", "soft.txt", "./sub/../ids.txt"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        code, _, err = run(capsys, "decode", "-m", model, "--ids-file", ids, "-o", tmp_path / out_name)
        assert code == 2 and "is one of the inputs" in err, out_name
    assert same()


def test_train_refuses_to_overwrite_its_corpus(capsys, corpus):
    same = _unchanged(corpus)
    code, _, err = run(capsys, "train", "-m", "bpe", "-v", "400", "-o", corpus, corpus)
    assert code == 2 and "is one of the inputs" in err and same()


def test_encode_refuses_to_overwrite_its_model(capsys, model, corpus):
    same = _unchanged(model)
    code, _, err = run(capsys, "encode", "-m", model, "--file", corpus, "-o", model, "--format", "jsonl")
    assert code == 2 and "is one of the inputs" in err and same()


def test_export_refuses_to_overwrite_its_model(capsys, model):
    same = _unchanged(model)
    code, _, err = run(capsys, "export", "-m", model, "--to", "tokenizer.json", "-o", model)
    assert code == 2 and "is one of the inputs" in err and same()


def test_compare_plot_refuses_its_input(capsys, model, corpus):
    same = _unchanged(corpus)
    code, _, err = run(capsys, "compare", "--file", corpus, "-m", model, "--plot", corpus)
    assert code == 2 and "is one of the inputs" in err and same()


@pytest.mark.parametrize("target", [dictionary_path(), MODEL, resources_dir() / "models" / "new.json"])
def test_nothing_writes_into_the_bundled_data(capsys, model, target):
    before = target.read_bytes() if target.exists() else None
    try:
        code, _, err = run(capsys, "decode", "-m", model, "358", "-o", target)
        assert code == 2 and err.count("\n") == 1 and "bundled" in err
    finally:  # a regression must not leave the checkout broken
        after = target.read_bytes() if target.exists() else None
        if after != before:
            target.write_bytes(before) if before is not None else target.unlink()
        assert after == before


@pytest.mark.parametrize("argv", [
    ["decode", "-m", "{model}", "358", "-o", ""],
    ["train", "-m", "bpe", "-v", "400", "-o", "", "{corpus}"],
    ["encode", "-m", "{model}", "--file", "{corpus}", "-o", ""],
    ["export", "-m", "{model}", "--to", "tokenizer.json", "-o", ""],
    ["compare", "--file", "{corpus}", "-m", "{model}", "--plot", ""],
])
def test_an_empty_output_name_is_an_error(capsys, model, corpus, argv):
    argv = [a.format(model=model, corpus=corpus) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "empty" in err, err


def test_long_output_names_up_to_the_limit_work(capsys, model, tmp_path):
    name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
    for n in (name_max - 18, name_max - 1, name_max):
        out = tmp_path / ("好" * ((n - 4) // 3) + "x" * ((n - 4) % 3) + ".txt")
        assert len(os.fsencode(out.name)) == n
        code, _, err = run(capsys, "decode", "-m", model, "358", "306", "-o", out)
        assert code == 0, err
        assert out.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def _cli(*argv, **kw):
    return subprocess.run([sys.executable, "-m", "wubitok", *map(str, argv)], capture_output=True, **kw)


@pytest.mark.parametrize("argv", [
    ["lookup", "你好"],
    ["convert", "--to", "wubi", "你好"],
    ["segment", "你好 abc"],
    ["encode", "-m", MODEL, "你好"],
    ["decode", "-m", MODEL, "358", "306"],
    ["compare", "你好", "-m", MODEL],
    ["pinyin", "ni"],
])
def test_a_full_disk_is_one_line(argv):
    with open("/dev/full", "wb") as full:
        p = subprocess.run([sys.executable, "-m", "wubitok", *map(str, argv)], stdout=full, stderr=subprocess.PIPE)
    err = p.stderr.decode()
    assert p.returncode == 2 and err.count("\n") == 1 and "No space left on device" in err, err


@pytest.mark.parametrize("argv", [["pinyin", "ji"], ["lookup", "你好"], ["segment", "--file", "{big}"],
                                  ["decode", "-m", MODEL, "358"]])
def test_a_closed_pipe_exits_quietly(argv, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("你好 abc " * 50_000, encoding="utf-8")  # more output than a pipe holds
    argv = [str(a).format(big=big) for a in argv]
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first byte, as with `| head -0`
    try:
        p = subprocess.run([sys.executable, "-m", "wubitok", *argv], stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    assert p.returncode == 0 and p.stderr == b""


# SIGTERM lands while the model's temp file is written (just before it is
# synced and renamed): the moment a kill used to leave the temp file behind.
_TERM_DURING_SAVE = """
import os, signal, sys
from wubitok.cli import main
real_fsync = os.fsync
def fsync(fd):
    os.kill(os.getpid(), signal.SIGTERM)
    real_fsync(fd)
os.fsync = fsync
sys.exit(main(sys.argv[1:]))
"""


def test_sigterm_while_writing_leaves_no_temp_file(tmp_path, corpus):
    out = tmp_path / "out" / "m.json"
    out.parent.mkdir()
    out.write_text("the older model\n", encoding="utf-8")
    p = subprocess.run([sys.executable, "-c", _TERM_DURING_SAVE, "train", "-m", "bpe", "-v", "300",
                        "--backend", "python", "-q", "-o", out, corpus], capture_output=True, timeout=300)
    assert p.returncode == 128 + signal.SIGTERM
    assert p.stderr.decode() == "wubitok train: terminated\n"
    assert [x.name for x in out.parent.iterdir()] == ["m.json"]
    assert out.read_text(encoding="utf-8") == "the older model\n"


def test_a_stale_temp_file_is_removed_on_the_next_write(capsys, model, tmp_path):
    out = tmp_path / "t.txt"
    stale = [tmp_path / ".t.txt.0123456789ab.tmp", tmp_path / ".t.txt.abcdefabcdef.tmp"]
    kept = [tmp_path / ".t.txt.notours.tmp", tmp_path / ".u.txt.0123456789ab.tmp", tmp_path / "t.txt.tmp"]
    for f in stale + kept:
        f.write_bytes(b"half")
    code, _, err = run(capsys, "decode", "-m", model, "358", "-o", out)
    assert code == 0, err
    assert not any(f.exists() for f in stale) and all(f.exists() for f in kept)




# Ctrl-C while the second engine trains (a real SIGINT, sent from inside its training).
_INTERRUPT_SECOND_TRAINING = """
import os, signal, sys
from wubitok.cli import main
from wubitok.compare import experiment
real_engine_class = experiment.engine_class
def engine_class(name):
    cls = real_engine_class(name)
    if name != "bpe":
        return cls
    class Interrupted(cls):
        @classmethod
        def train(klass, *args, **kwargs):
            os.kill(os.getpid(), signal.SIGINT)
            return cls.train(*args, **kwargs)
    return Interrupted
experiment.engine_class = engine_class
sys.exit(main(sys.argv[1:]))
"""


def _compare_train(corpus, out_dir):
    return subprocess.run([sys.executable, "-c", _INTERRUPT_SECOND_TRAINING, "compare", "--train", corpus,
                           "--held-out", corpus, "--vocab-size", "600", "--models", "wubi-bpe,bpe", "-o", out_dir],
                          capture_output=True, timeout=300)


def test_compare_train_interrupted_keeps_older_models(tmp_path, corpus):
    out = tmp_path / "models"
    out.mkdir()
    for name in ("wubi-bpe.json", "bpe.json"):
        (out / name).write_text("older\n", encoding="utf-8")
    p = _compare_train(corpus, out)
    assert p.returncode == 130 and p.stderr.decode().endswith("wubitok compare: interrupted\n")
    assert sorted(x.name for x in out.iterdir()) == ["bpe.json", "wubi-bpe.json"]
    assert all((out / n).read_text(encoding="utf-8") == "older\n" for n in ("wubi-bpe.json", "bpe.json"))


def test_compare_train_interrupted_leaves_no_folder(tmp_path, corpus):
    p = _compare_train(corpus, tmp_path / "new" / "a" / "b")
    assert p.returncode == 130
    assert not (tmp_path / "new").exists()


def test_compare_train_refuses_an_output_over_an_input(capsys, tmp_path, corpus):
    folder = tmp_path / "models"
    folder.mkdir()
    held = folder / "bpe.json"
    held.write_text("留出的文本\n", encoding="utf-8")
    code, _, err = run(capsys, "compare", "--train", corpus, "--held-out", held, "--vocab-size", 600,
                       "--models", "bpe", "-o", folder)
    assert code == 2 and "is one of the inputs" in err
    assert held.read_text(encoding="utf-8") == "留出的文本\n"


def test_compare_train_writes_all_models_at_the_end(capsys, tmp_path, corpus):
    out = tmp_path / "new" / "models"
    code, _, err = run(capsys, "compare", "--train", corpus, "--held-out", corpus, "--vocab-size", 600,
                       "--models", "wubi-bpe,bpe", "-o", out, "--format", "json")
    assert code == 0, err
    assert sorted(x.name for x in out.iterdir()) == ["bpe.json", "wubi-bpe.json"]


def test_compare_train_refuses_a_vocabulary_one_engine_cannot_train_before_training_any(capsys, tmp_path, corpus):
    out = tmp_path / "models"
    # wordpiece trains at 200; wubi-bpe needs 260 (4 specials, 256 bytes): nothing may be trained first.
    code, _, err = run(capsys, "compare", "--train", corpus, "--held-out", corpus, "--vocab-size", 200,
                       "--models", "wordpiece,wubi-bpe", "-o", out)
    assert code == 2 and "too small for wubi-bpe" in err and "training wordpiece" not in err, err
    assert not out.exists()


def test_count_refuses_to_overwrite_its_corpus(capsys, corpus):
    same = _unchanged(corpus)
    code, _, err = run(capsys, "count", "-m", "bpe", "--file", corpus, "-o", corpus)
    assert code == 2 and "is one of the inputs" in err and same()


def test_userdata_export_refuses_to_overwrite_the_users_data(capsys, user_data_dir):
    code, _, err = run(capsys, "settings", "set", "output", "traditional")
    assert code == 0, err
    settings = next(user_data_dir.glob("*.json"))
    same = _unchanged(settings)
    code, _, err = run(capsys, "userdata", "export", settings)
    assert code == 2 and "is one of the inputs" in err and same()


def test_encode_writes_a_corpus_under_a_long_name(capsys, model, corpus, tmp_path):
    name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
    out = tmp_path / ("x" * (name_max - len(".jsonl")) + ".jsonl")
    code, _, err = run(capsys, "encode", "-m", model, "--file", corpus, "-o", out, "-q")
    assert code == 0, err
    assert out.read_text(encoding="utf-8").count("\n") == len(corpus.read_text(encoding="utf-8").splitlines())
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["c.txt", "m.json", out.name])
