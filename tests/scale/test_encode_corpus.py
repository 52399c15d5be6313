"""Corpus encoding: equal to per-document encode, identical for any split, never a partial output."""
from __future__ import annotations

import errno
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.cli_run import run
from wubitok.engines.base import load_tokenizer
from wubitok.errors import FileError
from wubitok.paths import resources_dir
from wubitok.scale import byte_ranges, encode_files, iter_documents
from wubitok.scale.documents import split_documents
from wubitok.scale.encode import make_spec, write_results

MODELS = resources_dir() / "models"
SAMPLES = resources_dir() / "samples"


@pytest.fixture(scope="module")
def wubi():
    return load_tokenizer(MODELS / "wubi-bpe-6000.json")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Two files: Chinese lines, blank-line paragraphs, CRLF, Latin, no final newline."""
    folder = tmp_path_factory.mktemp("corpus")
    a = folder / "a.txt"
    a.write_text((SAMPLES / "tang300.txt").read_text(encoding="utf-8")[:30000], encoding="utf-8")
    b = folder / "b.txt"
    b.write_bytes("第一段，第一行。\r\n第二行 English words.\r\n\r\n  \n第二段 😀\n\n\n最后一行没有换行".encode())
    return [a, b]


def _documents(files, docs):
    out = []
    for f in files:
        text = Path(f).read_bytes().decode("utf-8")
        out.extend(split_documents(text, docs) if text else [])
    return out


@pytest.mark.parametrize("docs", ["lines", "paragraphs", "files"])
def test_small_ranges_give_the_same_documents(corpus, docs):
    ranges = byte_ranges(corpus, docs, range_bytes=700)
    assert len(ranges) == 2 if docs == "files" else len(ranges) > 10
    assert list(iter_documents(corpus, docs)) == _documents(corpus, docs)
    from wubitok.scale.documents import read_range
    assert [d for r in ranges for d in split_documents(read_range(r), docs)] == _documents(corpus, docs)


def test_documents_kinds():
    text = "a\r\nb\n\n c \n\n\nd"
    assert split_documents(text, "lines") == ["a", "b", "", " c ", "", "", "d"]
    assert split_documents(text, "paragraphs") == ["a\r\nb", " c ", "d"]
    assert split_documents(text, "files") == [text]


@settings(max_examples=60)
@given(st.lists(st.text(st.characters(codec="utf-8", exclude_characters="\n"), max_size=12), max_size=30),
       st.integers(1, 40), st.sampled_from(["lines", "paragraphs"]))
def test_ranges_never_cut_a_document(tmp_path_factory, lines, range_bytes, docs):
    path = tmp_path_factory.mktemp("prop") / "c.txt"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass"))
    from wubitok.scale.documents import read_range
    got = [d for r in byte_ranges([path], docs, range_bytes) for d in split_documents(read_range(r), docs)]
    assert got == split_documents(path.read_bytes().decode("utf-8"), docs)


@pytest.mark.parametrize("fmt", ["jsonl", "bin", "npy"])
def test_output_equals_per_document_encode(tmp_path, corpus, wubi, fmt):
    out = tmp_path / f"ids.{fmt}"
    header = encode_files(wubi, corpus, out, fmt=fmt, eod=True, range_bytes=2000)
    docs = _documents(corpus, "lines")
    expected = [wubi.encode(d).ids + [3] for d in docs]
    assert header["documents"] == len(docs) and header["tokens"] == sum(map(len, expected))
    if fmt == "jsonl":
        assert [json.loads(line)["ids"] for line in out.read_text().splitlines()] == expected
        return
    flat = np.load(out, mmap_mode="r") if fmt == "npy" else np.memmap(out, dtype=header["dtype"], mode="r")
    idx = np.fromfile(f"{out}.idx", dtype="<u8")
    assert flat.dtype == np.uint16 and len(idx) == len(docs) + 1 and idx[-1] == len(flat)
    assert [flat[idx[i]:idx[i + 1]].tolist() for i in range(len(docs))] == expected
    meta = json.loads(Path(f"{out}.json").read_text())
    assert meta["model"] == "wubi-bpe" and meta["dtype"] == "uint16" and meta["eod_id"] == 3
    assert len(meta["model_sha256"]) == 64


def test_jsonl_offsets(tmp_path, corpus, wubi):
    out = tmp_path / "o.jsonl"
    encode_files(wubi, corpus[1:], out, fmt="jsonl", docs="paragraphs", offsets=True)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    docs = _documents(corpus[1:], "paragraphs")
    assert [r["offsets"] for r in rows] == [[list(o) for o in wubi.encode(d).offsets] for d in docs]


def test_workers_give_identical_bytes(tmp_path, corpus, wubi):
    one, two = tmp_path / "one.bin", tmp_path / "two.bin"
    encode_files(wubi, corpus, one, range_bytes=3000)
    encode_files(wubi, corpus, two, range_bytes=3000, workers=2)
    for suffix in ("", ".idx"):
        assert Path(f"{one}{suffix}").read_bytes() == Path(f"{two}{suffix}").read_bytes()


def test_uint32_when_the_vocabulary_needs_it(wubi):
    class Big:
        vocab_size = 70000
        model_type = "wubi-bpe"
        encoder_choice = "auto"

        def to_json(self):
            return wubi.to_json()

        token_to_id = wubi.token_to_id

    assert make_spec(Big(), fmt="bin").dtype == "uint32"


# -- never a partial output ------------------------------------------------------

def _results_then(error, wubi, corpus):
    from wubitok.scale.encode import encode_range

    spec = make_spec(wubi, fmt="bin")
    ranges = byte_ranges(corpus, "lines", 2000)

    def gen():
        yield encode_range(spec, ranges[0])
        raise error

    return spec, gen()


@pytest.mark.parametrize("error", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()])
def test_a_failure_leaves_no_file(tmp_path, wubi, corpus, error):
    spec, results = _results_then(error, wubi, corpus)
    out = tmp_path / "ids.bin"
    with pytest.raises(FileError if isinstance(error, OSError) else KeyboardInterrupt) as info:
        write_results(results, out, spec, {}, 1)
    assert list(tmp_path.iterdir()) == []
    if isinstance(error, OSError):
        assert "No space left on device" in str(info.value)


def test_cli_bad_input_is_one_line_and_no_output(capsys, tmp_path, corpus):
    bad = tmp_path / "bad.txt"
    bad.write_bytes("好的\n".encode() * 2000 + b"\xff\xfe\n" + "好的\n".encode() * 10)
    out = tmp_path / "out.bin"
    code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus[0], "--file", bad,
                       "-o", out, "--workers", "2", "-q")
    assert code == 2 and "not UTF-8" in err and "offset 14000" in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt"]
    code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus[0],
                       "-o", tmp_path / "missing" / "out.bin")
    assert code == 2 and "no such folder" in err
    code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus[0], "-o", corpus[0])
    assert code == 2 and "is one of the inputs" in err


def test_cli_workers_and_formats(capsys, tmp_path, corpus):
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.jsonl"
        code, _, err = run(capsys, "encode", "-m", MODELS / "unigram-6000.json", *sum((["--file", f] for f in corpus),
                           []), "-o", out, "--workers", workers, "--docs", "paragraphs")
        assert code == 0 and "documents" in err
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "你好", "--workers", "2")
    assert code == 2 and "--workers is for corpus encoding" in err


@settings(max_examples=60)
@given(st.text(st.sampled_from(list("ab \n\t\u3000你")), max_size=80), st.integers(1, 20))
def test_counting_ranges_start_where_no_pretoken_can_go_on(tmp_path_factory, text, range_bytes):
    from wubitok.scale.documents import read_range

    path = tmp_path_factory.mktemp("blocks") / "c.txt"
    path.write_bytes(text.encode("utf-8"))
    parts = [read_range(r) for r in byte_ranges([path], "blocks", range_bytes)]
    assert "".join(parts) == text
    assert all(p and p[-1] == "\n" and not q[0].isspace() for p, q in zip(parts, parts[1:]))


def test_python_and_fast_encoders_write_identical_files(tmp_path, corpus):
    # the model's encoder choice travels to the worker processes with the task
    outputs = []
    for encoder, fmt in (("python", "bin"), ("fast", "bin"), ("python", "jsonl"), ("fast", "jsonl")):
        model = load_tokenizer(MODELS / "wubi-bpe-6000.json")
        model.use_encoder(encoder)
        out = tmp_path / f"{encoder}.{fmt}"
        encode_files(model, corpus, out, fmt=fmt, offsets=fmt == "jsonl", range_bytes=3000, workers=2)
        assert make_spec(model).encoder == encoder
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] and outputs[2] == outputs[3]
