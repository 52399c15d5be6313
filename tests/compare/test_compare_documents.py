"""Compare counts what the tokenizer itself counts: a file or a text whole, line breaks included.

The oracles are the libraries: ``Tokenizer.encode`` of the whole file for
every wubitok engine (the bundled models), Hugging Face ``tokenizers``'
``Tokenizer.encode`` for a ``tokenizer.json``, and ``wubitok encode --file``.
Per-line figures stay available as the named option ``per_line``.
"""
from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer as HFTokenizerLib
from tokenizers import decoders, models, pre_tokenizers, trainers

from wubitok.cli import main
from wubitok.compare import compare_tokenizers, load_external
from wubitok.compare import run as compare_run
from wubitok.engines.base import load_tokenizer
from wubitok.paths import resources_dir

MODELS = sorted(resources_dir().joinpath("models").glob("*-6000.json"))
SONG = resources_dir().joinpath("samples", "song100.txt").read_text(encoding="utf-8")
# Indented lines, blank lines, a CRLF and no final line break: all part of the document.
DOCUMENT = SONG[:6000] + "\n\n    缩进的一行\r\n\t制表符\n  \n末行 end"


@pytest.fixture(scope="module")
def doc_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("doc") / "song.txt"
    path.write_bytes(DOCUMENT.encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def hf_path(tmp_path_factory):
    tok = HFTokenizerLib(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=600, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(SONG.splitlines(), trainer)
    path = tmp_path_factory.mktemp("hf") / "tokenizer.json"
    tok.save(str(path))
    return path


@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.stem)
def test_a_file_counts_as_the_engine_encodes_it_whole(model, doc_path):
    tok = load_tokenizer(model)
    (r,) = compare_tokenizers({"m": tok}, files=[doc_path])
    assert r.tokens == len(tok.encode(DOCUMENT).ids)
    assert (r.unit, r.samples, r.chars) == ("document", 1, len(DOCUMENT))
    assert r.lines == sum(1 for line in DOCUMENT.splitlines() if line)
    assert r.roundtrip_rate == (1.0 if tok.lossless else float(tok.decode(tok.encode(DOCUMENT).ids) == DOCUMENT))
    # a text is a document too
    (t,) = compare_tokenizers({"m": tok}, DOCUMENT)
    assert t.tokens == r.tokens


def test_a_tokenizer_json_counts_as_hugging_face_counts_the_file(hf_path, doc_path):
    (r,) = compare_tokenizers({"hf": load_external("hf", hf_path)}, files=[doc_path])
    assert r.tokens == len(HFTokenizerLib.from_file(str(hf_path)).encode(DOCUMENT).ids)
    # line by line, without the line breaks, it is fewer: the difference the option names
    (per_line,) = compare_tokenizers({"hf": load_external("hf", hf_path)}, files=[doc_path], per_line=True)
    assert per_line.tokens < r.tokens and per_line.unit == "line"
    assert per_line.samples == per_line.lines == r.lines


def test_the_cli_count_equals_wubitok_encode_of_the_file(doc_path, capsys):
    model = str(resources_dir() / "models" / "wubi-bpe-6000.json")
    assert main(["encode", "-m", model, "--file", str(doc_path)]) == 0
    encoded = len(capsys.readouterr().out.split())
    assert main(["compare", "--file", str(doc_path), "-m", model, "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["tokens"] == encoded and row["unit"] == "document" and row["samples"] == 1
    assert main(["compare", "--file", str(doc_path), "-m", model, "--format", "json", "--per-line"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    tok = load_tokenizer(model)
    assert row["unit"] == "line"
    assert row["tokens"] == sum(len(tok.encode(line).ids) for line in DOCUMENT.splitlines() if line)


@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.stem)
def test_a_long_file_in_parts_still_counts_as_the_whole(model, doc_path, monkeypatch):
    tok = load_tokenizer(model)
    monkeypatch.setattr(compare_run, "DOCUMENT_PART_CHARS", 500)  # cut between lines, where no pre-token spans
    (r,) = compare_tokenizers({"m": tok}, files=[doc_path])
    assert r.samples > 5
    assert r.tokens == len(tok.encode(DOCUMENT).ids) and r.chars == len(DOCUMENT)
