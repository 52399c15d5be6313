"""wubitok train / encode / decode: the command-line contract."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from wubitok import load_tokenizer
from wubitok.cli import main
from wubitok.paths import resources_dir

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = resources_dir() / "samples"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "tang.txt"
    path.write_text((SAMPLES / "tang300.txt").read_text(encoding="utf-8") + "Hello world 123\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def model(corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("model") / "wubi.json"
    assert main(["train", "--model", "wubi-bpe", "--vocab-size", "800", "-q", "-o", str(out), str(corpus)]) == 0
    return out


def _one_line_error(capsys, argv, *, match):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and match in err, err
    return err


def test_train_shows_progress_and_writes_a_loadable_model(corpus, tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["train", "--model", "wubi-bpe", "--vocab-size", "700", "--min-frequency", "3",
                 "--special-token", "<mask>", "-o", str(out), str(corpus)]) == 0
    err = capsys.readouterr().err
    assert "counting" in err and "merging" in err and "100%" in err and "saved wubi-bpe model" in err
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["model"] == "wubi-bpe" and "<mask>" in data["special_tokens"]
    assert data["training"]["min_frequency"] == 3 and len(data["vocab"]) == 700


def test_auto_backend_goes_fast_above_the_corpus_size_and_says_so(corpus, tmp_path, capsys, monkeypatch):
    from wubitok.engines import backends

    small, big = tmp_path / "small.json", tmp_path / "big.json"
    assert main(["train", "--model", "wordpiece", "--vocab-size", "400", "-o", str(small), str(corpus)]) == 0
    assert "fast backend" not in capsys.readouterr().err
    monkeypatch.setattr(backends, "AUTO_FAST_BYTES", corpus.stat().st_size)
    assert main(["train", "--model", "wordpiece", "--vocab-size", "400", "-o", str(big), str(corpus)]) == 0
    assert "training with the fast backend" in capsys.readouterr().err
    assert json.loads(small.read_text(encoding="utf-8"))["training"]["backend"] == "python"
    assert json.loads(big.read_text(encoding="utf-8"))["training"]["backend"] == "fast"
    # wubi-bpe and bpe: the same model either way, so auto trains fast at any size, silently
    same = tmp_path / "bpe.json"
    assert main(["train", "--model", "bpe", "--vocab-size", "400", "-o", str(same), str(corpus)]) == 0
    assert "fast backend" not in capsys.readouterr().err
    assert json.loads(same.read_text(encoding="utf-8"))["training"]["backend"] == "fast"


def test_encode_plain_and_json(model, capsys):
    assert main(["encode", "-m", str(model), "你好，世界 abc"]) == 0
    plain = capsys.readouterr().out
    ids = [int(x) for x in plain.split()]
    assert plain.endswith("\n") and ids
    assert main(["encode", "-m", str(model), "--json", "你好，世界 abc"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert set(obj) == {"ids", "tokens", "offsets"}
    assert obj["ids"] == ids and len(obj["tokens"]) == len(ids)
    assert obj["offsets"][0][0] == 0 and obj["offsets"][-1][1] == len("你好，世界 abc")


def test_encode_file_then_decode_to_file_is_exact(model, tmp_path, capsys):
    text = "第一行\r\n  第二行 with English\t123\n\n末尾没有换行 😀 工㠭"
    src = tmp_path / "in.txt"
    src.write_bytes(text.encode("utf-8"))
    assert main(["encode", "-m", str(model), "--file", str(src), "--json"]) == 0
    ids_file = tmp_path / "ids.json"
    ids_file.write_text(capsys.readouterr().out, encoding="utf-8")
    out = tmp_path / "out.txt"
    assert main(["decode", "-m", str(model), "--ids-file", str(ids_file), "-o", str(out)]) == 0
    assert out.read_bytes() == text.encode("utf-8")
    ids = json.loads(ids_file.read_text(encoding="utf-8"))["ids"]
    # a bare JSON list and the plain encode output work too
    ids_file.write_text(json.dumps(ids), encoding="utf-8")
    assert main(["decode", "-m", str(model), "--ids-file", str(ids_file), "-o", str(out)]) == 0
    assert out.read_bytes() == text.encode("utf-8")
    ids_file.write_text(" ".join(map(str, ids)) + "\n", encoding="utf-8")
    assert main(["decode", "-m", str(model), "--ids-file", str(ids_file)]) == 0
    assert capsys.readouterr().out == text


def test_decode_ids_on_the_command_line(model, capsys):
    assert main(["encode", "-m", str(model), "山水"]) == 0
    ids = capsys.readouterr().out.split()
    assert main(["decode", "-m", str(model), *ids]) == 0
    assert capsys.readouterr().out == "山水"
    assert main(["decode", "-m", str(model), ",".join(ids)]) == 0
    assert capsys.readouterr().out == "山水"


def test_codec_option_is_trained_and_saved(corpus, tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["train", "--model", "wubi-bpe", "--vocab-size", "700", "--codec", "shortest", "-q",
                 "-o", str(out), str(corpus)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["codec"] == {"code": "shortest", "boundary": "final-key", "index": "symbol", "layout": "shared-bytes"}
    assert main(["train", "--model", "wubi-bpe", "--vocab-size", "700", "--codec", "full/separator/symbol", "-q",
                 "-o", str(out), str(corpus)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["codec"] == {
        "code": "full", "boundary": "separator", "index": "symbol", "layout": "shared-bytes"}
    assert main(["train", "--model", "wubi-bpe", "--vocab-size", "700", "--codec", "hybrid/final-key/digits/index-last",
                 "-q", "-o", str(out), str(corpus)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["codec"] == {
        "code": "hybrid", "boundary": "final-key", "index": "digits", "layout": "index-last"}
    capsys.readouterr()
    base = ["train", "--vocab-size", "700", "-o", str(tmp_path / "x.json"), str(corpus)]
    _one_line_error(capsys, base + ["--model", "wubi-bpe", "--codec", "tiny"], match="unknown codec code 'tiny'")
    _one_line_error(capsys, base + ["--model", "wubi-bpe", "--codec", "full//digits"], match="CODE[/BOUNDARY")
    _one_line_error(capsys, base + ["--model", "wubi-bpe", "--codec", "full/final-key/digits/up"],
                    match="unknown codec layout 'up'")
    _one_line_error(capsys, base + ["--model", "bpe", "--codec", "full"], match="for wubi-bpe models")
    assert not (tmp_path / "x.json").exists()


def test_pre_tokens_option_is_trained_and_saved_counted_or_not(corpus, tmp_path, capsys):
    def train(name, *options):
        out = tmp_path / name
        assert main(["train", "--model", "wubi-bpe", "--vocab-size", "700", *options, "-q",
                     "-o", str(out), str(corpus)]) == 0
        return out

    default, clause = train("default.json"), train("clause.json", "--pre-tokens", "clause")
    assert json.loads(default.read_text(encoding="utf-8"))["pre_tokens"] == "joined"
    assert json.loads(clause.read_text(encoding="utf-8"))["pre_tokens"] == "clause"
    assert load_tokenizer(clause).pre_tokens == "clause"
    assert clause.read_bytes() != default.read_bytes()
    # Trained from counts (--max-words: counted, nothing pruned), the corpus is cut alike: the same file.
    counted = train("counted.json", "--pre-tokens", "clause", "--max-words", "1000000")
    assert counted.read_bytes() == clause.read_bytes()
    capsys.readouterr()
    base = ["train", "--vocab-size", "700", "-o", str(tmp_path / "x.json"), str(corpus)]
    _one_line_error(capsys, base + ["--model", "wubi-bpe", "--pre-tokens", "words"],
                    match="invalid choice: 'words' (choose from 'clause', 'joined')")
    _one_line_error(capsys, base + ["--model", "bpe", "--pre-tokens", "clause"], match="for wubi-bpe models")
    assert not (tmp_path / "x.json").exists()


def test_train_errors_are_one_line_exit_2(tmp_path, capsys):
    out = tmp_path / "m.json"
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("café".encode("latin-1"))
    base = ["train", "--model", "wubi-bpe", "--vocab-size", "1000", "-o", str(out)]
    _one_line_error(capsys, base + [str(tmp_path / "missing.txt")], match="no such file")
    _one_line_error(capsys, base + [str(empty)], match="empty")
    _one_line_error(capsys, base + [str(latin1)], match="not UTF-8")
    _one_line_error(capsys, ["train", "--model", "nope", "--vocab-size", "10", "-o", str(out), str(empty)],
                    match="unknown model type 'nope'")
    good = tmp_path / "good.txt"
    good.write_text("你好世界\n", encoding="utf-8")
    _one_line_error(capsys, ["train", "--model", "wubi-bpe", "--vocab-size", "1000", "-o",
                             str(tmp_path / "no" / "m.json"), str(good)], match="does not exist")
    assert not out.exists()


def test_encode_decode_errors_are_one_line_exit_2(model, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    _one_line_error(capsys, ["encode", "-m", str(bad), "x"], match="not a JSON model file")
    _one_line_error(capsys, ["encode", "-m", str(tmp_path / "none.json"), "x"], match="no such file")
    _one_line_error(capsys, ["encode", "-m", str(model)], match="no input")
    _one_line_error(capsys, ["decode", "-m", str(model), "12", "x"], match="not a token id")
    _one_line_error(capsys, ["decode", "-m", str(model), "99999999"], match="unknown token id")
    _one_line_error(capsys, ["decode", "-m", str(model)], match="no input")
    ids = tmp_path / "ids.json"
    ids.write_text('{"tokens": []}', encoding="utf-8")
    _one_line_error(capsys, ["decode", "-m", str(model), "--ids-file", str(ids)], match='without "ids"')


def test_real_process_round_trip_and_ctrl_c_leaves_no_model(model, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "wubitok"]
    text = "你好，世界！Hello 123\n"
    enc = subprocess.run(cmd + ["encode", "-m", str(model), "--json", text], capture_output=True, env=env, check=True)
    ids_file = tmp_path / "ids.json"
    ids_file.write_bytes(enc.stdout)
    dec = subprocess.run(cmd + ["decode", "-m", str(model), "--ids-file", str(ids_file)],
                         capture_output=True, env=env, check=True)
    assert dec.stdout.decode("utf-8") == text

    # Ctrl-C while merging: exit 130, no model file, no temp file left behind.
    big = tmp_path / "big.txt"
    big.write_text((SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out" / "m.json"
    out.parent.mkdir()
    argv = ["train", "--model", "wubi-bpe", "--vocab-size", "30000", "--backend", "python", "-o", str(out), str(big)]
    proc = subprocess.Popen(cmd + argv, stderr=subprocess.PIPE, env=env)
    line = proc.stderr.readline()  # the finished "counting" stage: merging has begun
    assert b"counting" in line
    # At once; the pure-Python trainer merges for tens of seconds, so even a loaded machine that does not
    # run this test process for a while cannot let training finish first.
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    assert b"interrupted" in err
    assert list(out.parent.iterdir()) == []


@pytest.mark.parametrize("model_type, backend", [("wordpiece", "fast"), ("bpe", "python")])
def test_a_gbk_corpus_trains_like_its_utf8_twin(tmp_path, capsys, model_type, backend):
    text = (SAMPLES / "song100.txt").read_text(encoding="utf-8")[:20_000]
    utf8, gbk = tmp_path / "utf8.txt", tmp_path / "gbk.txt"
    utf8.write_text(text, encoding="utf-8")
    gbk.write_bytes(text.encode("gb18030"))
    outs = []
    for corpus in (utf8, gbk):
        out = tmp_path / f"{corpus.stem}.json"
        argv = ["train", "--model", model_type, "--vocab-size", "600", "--backend", backend, "-q", "-o", str(out)]
        assert main([*argv, str(corpus)]) == 0
        outs.append(load_tokenizer(out).encode(text).tokens)
    assert f"wubitok train: reading {gbk} as GB18030\n" in capsys.readouterr().err
    if backend == "python":
        assert outs[0] == outs[1]
    else:  # HF's WordPiece trainer breaks ties in hash order: the same text, read right
        assert "月" in outs[1] and len(outs[1]) == pytest.approx(len(outs[0]), rel=0.02)


def test_encoder_choice_gives_the_same_ids_and_fast_needs_an_engine_that_has_it(model, tmp_path, capsys):
    text = "你好，世界 hello 123 <s> 再见"
    outs = []
    for encoder in ("python", "fast", "auto"):
        assert main(["encode", "-m", str(model), "--encoder", encoder, "--json", text]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] == outs[2]
    corpus = tmp_path / "c.txt"
    corpus.write_text("第一行\n第二行 two\n", encoding="utf-8")
    unigram = resources_dir() / "models" / "unigram-6000.json"
    _one_line_error(capsys, ["encode", "-m", str(unigram), "--encoder", "fast", "x"], match="no fast encoder")
    _one_line_error(capsys, ["encode", "-m", str(unigram), "--encoder", "fast", "--file", str(corpus), "-o",
                             str(tmp_path / "ids.bin")], match="no fast encoder")
    assert not (tmp_path / "ids.bin").exists()
