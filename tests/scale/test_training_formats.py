"""Outputs the training stacks read: Megatron-Core's indexed dataset, nanoGPT's data folder (issue #32).

``--format megatron`` must give the bytes Megatron-Core's own writer gives
for the same documents (``data/megatron_indexed_writer.py``: its
``IndexedDatasetBuilder`` and ``_IndexWriter``, from the megatron-core wheel;
the module itself imports torch) and read back by the published layout.
``--format nanogpt`` must give what nanoGPT's train.py memory-maps.
"""
from __future__ import annotations

import importlib.util
import json
import pickle
from pathlib import Path

import numpy as np
import pytest

from tests.cli.cli_run import run
from wubitok.engines.base import load_tokenizer
from wubitok.paths import resources_dir
from wubitok.scale.documents import split_documents
from wubitok.scale.megatron import read_megatron
from wubitok.scale.nanogpt import is_val

MODEL = resources_dir() / "models" / "wubi-bpe-6000.json"
SAMPLES = resources_dir() / "samples"


def _megatron_writer():
    spec = importlib.util.spec_from_file_location(
        "megatron_indexed_writer", Path(__file__).parent / "data" / "megatron_indexed_writer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tok():
    return load_tokenizer(MODEL)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "tang.txt"
    text = (SAMPLES / "tang300.txt").read_text(encoding="utf-8")[:20000] + "\n\nLatin, 😀 and a literal </s>\n"
    path.write_text(text, encoding="utf-8")
    return path


def _expected(tok, corpus):
    eod = tok.token_to_id("</s>")
    text = corpus.read_text(encoding="utf-8")
    return [tok.encode_ordinary(doc).ids + [eod] for doc in split_documents(text, "lines")]


@pytest.mark.parametrize("workers", [1, 2])
def test_megatron_output_is_what_megatrons_own_writer_makes(capsys, tok, corpus, tmp_path, workers):
    prefix = tmp_path / "ours"
    code, _, err = run(capsys, "encode", "-m", MODEL, "--file", corpus, "-o", prefix, "--format", "megatron",
                       "--eod", "--workers", workers, "-q")
    assert code == 0, err
    documents = _expected(tok, corpus)
    # Megatron's preprocess_data.py: one add_document per document, lengths = [its ids]
    meg = _megatron_writer()
    theirs = str(tmp_path / "theirs")
    builder = meg.IndexedDatasetBuilder(theirs + ".bin", dtype=meg.DType.optimal_dtype(tok.vocab_size))
    for ids in documents:
        builder.add_document(ids, [len(ids)])
    builder.finalize(theirs + ".idx")
    for ext in (".bin", ".idx"):
        assert Path(f"{prefix}{ext}").read_bytes() == Path(theirs + ext).read_bytes()
    data = read_megatron(prefix)
    assert data.dtype == "uint16" and data.documents() == documents
    assert data.document_indices == list(range(len(documents) + 1))
    header = json.loads(Path(f"{prefix}.json").read_text(encoding="utf-8"))
    assert header["vocab_size"] == tok.vocab_size and header["documents"] == len(documents)


def test_megatron_prefix_may_be_given_with_bin(capsys, corpus, tmp_path):
    assert run(capsys, "encode", "-m", MODEL, "--file", corpus, "-o", tmp_path / "x.bin", "--format", "megatron",
               "-q")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.bin", "x.idx", "x.json"]
    assert (tmp_path / "x.idx").read_bytes()[:9] == b"MMIDIDX\x00\x00"


def test_nanogpt_folder_is_what_nanogpt_reads(capsys, tok, corpus, tmp_path):
    out = tmp_path / "data"
    code, _, err = run(capsys, "encode", "-m", MODEL, "--file", corpus, "-o", out, "--format", "nanogpt",
                       "--eod", "--val-fraction", "0.1", "-q")
    assert code == 0, err
    documents = _expected(tok, corpus)
    # nanoGPT's train.py: np.memmap(os.path.join(data_dir, 'train.bin'), dtype=np.uint16, mode='r')
    train = np.memmap(out / "train.bin", dtype=np.uint16, mode="r").tolist()
    val = np.memmap(out / "val.bin", dtype=np.uint16, mode="r").tolist()
    assert val == [i for k, d in enumerate(documents) if is_val(k, 0.1) for i in d]
    assert train == [i for k, d in enumerate(documents) if not is_val(k, 0.1) for i in d]
    assert len(val) and abs(sum(map(is_val, range(len(documents)), [0.1] * len(documents))) - len(documents) / 10) < 1
    with open(out / "meta.pkl", "rb") as fh:
        assert pickle.load(fh)["vocab_size"] == tok.vocab_size  # train.py's meta_vocab_size


def test_nanogpt_refuses_an_empty_split_and_a_fraction_elsewhere(capsys, corpus, tmp_path):
    out = tmp_path / "data"
    code, _, err = run(capsys, "encode", "-m", MODEL, "--file", corpus, "-o", out, "--format", "nanogpt",
                       "--val-fraction", "0.00001")
    assert code == 2 and err.count("\n") == 1 and "val.bin empty" in err
    assert not any(out.iterdir())
    code, _, err = run(capsys, "encode", "-m", MODEL, "--file", corpus, "-o", tmp_path / "o.bin",
                       "--val-fraction", "0.1")
    assert code == 2 and "--val-fraction is for --format nanogpt" in err
    code, _, err = run(capsys, "encode", "-m", MODEL, "--file", corpus, "-o", out, "--format", "nanogpt",
                       "--val-fraction", "1.5")
    assert code == 2 and "between 0 and 1" in err


def test_bin_header_carries_the_vocabulary_size(capsys, tok, corpus, tmp_path):
    out = tmp_path / "o.bin"
    assert run(capsys, "encode", "-m", MODEL, "--file", corpus, "-o", out, "-q")[0] == 0
    assert json.loads((tmp_path / "o.bin.json").read_text(encoding="utf-8"))["vocab_size"] == tok.vocab_size


@pytest.mark.parametrize("fmt, output, written", [("megatron", "x", "x.json"), ("nanogpt", "data", "data/info.json"),
                                                   ("nanogpt", "data", "data/meta.pkl")])
def test_no_file_a_prefix_or_folder_format_writes_may_be_the_corpus(capsys, corpus, tmp_path, fmt, output, written):
    # Every file the writer opens is checked, not only the .bin ones (the header and meta were not).
    target = tmp_path / written
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(corpus.read_bytes())
    before = target.read_bytes()
    code, _, err = run(capsys, "encode", "-m", MODEL, "--file", target, "-o", tmp_path / output, "--format", fmt, "-q")
    assert code == 2 and err.count("\n") == 1 and "one of the inputs" in err, err
    assert target.read_bytes() == before
