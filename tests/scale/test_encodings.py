"""Corpus files in GB18030, Big5 and UTF-16: cut into ranges, counted and encoded as their UTF-8 twins."""
from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.base import engine_class, load_tokenizer
from wubitok.errors import FileError
from wubitok.fileio import read_text
from wubitok.paths import resources_dir
from wubitok.scale import byte_ranges, count_pretokens, encode_files
from wubitok.scale.documents import read_range, split_documents

SAMPLES = resources_dir() / "samples"
# 上 is 0A 4E in UTF-16LE: a lone 0x0A byte that is not a line break.
TEXT = ((SAMPLES / "song100.txt").read_text(encoding="utf-8")[:6000]
        + "\n\n上上下下\r\n  indented 上\n\tEnglish words 123 😀\n\n\n最后一行")
ENCODINGS = {"gb18030": b"", "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE,
             "utf-8": codecs.BOM_UTF8}


def _write(folder, text, encoding, bom=b""):
    path = folder / f"{encoding}.txt"
    path.write_bytes(bom + text.encode(encoding))
    return path


def _documents(ranges, docs):
    return [d for r in ranges for d in split_documents(read_range(r), docs)]


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("docs", ["lines", "paragraphs", "blocks"])
def test_ranges_of_any_encoding_hold_the_text(tmp_path, encoding, docs):
    path = _write(tmp_path, TEXT, encoding, ENCODINGS[encoding])
    ranges = byte_ranges([path], docs, range_bytes=300)
    assert len(ranges) > 10 and {r.encoding for r in ranges} == {encoding}
    whole = read_text(path)  # detected, the byte-order mark kept as text
    assert "".join(read_range(r) for r in ranges) == whole
    if docs != "blocks":
        assert _documents(ranges, docs) == split_documents(whole, docs)


def test_big5_and_a_given_utf16_with_its_bom(tmp_path):
    big5 = _write(tmp_path, "上下左右，這是繁體中文。\n第二行\n" * 40, "big5")
    assert "".join(read_range(r) for r in byte_ranges([big5], range_bytes=50)) == read_text(big5)
    # --encoding utf-16: the codec reads the BOM (and drops it), ranges keep its byte order.
    path = tmp_path / "be.txt"
    path.write_bytes(codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"))
    ranges = byte_ranges([path], range_bytes=300, encoding="utf-16")
    assert ranges[0].start == 2 and "".join(read_range(r) for r in ranges) == TEXT


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("上\n\r 好a😀\t\u2028"), max_size=200),
       encoding=st.sampled_from(["utf-16-le", "utf-16-be", "gb18030"]), range_bytes=st.integers(1, 40))
def test_any_cut_decodes(tmp_path_factory, text, encoding, range_bytes):
    path = tmp_path_factory.mktemp("h") / "t.txt"
    path.write_bytes(text.encode(encoding))
    ranges = byte_ranges([path], "lines", range_bytes=range_bytes, encoding=encoding)
    assert "".join(read_range(r) for r in ranges) == text
    assert _documents(ranges, "lines") == split_documents(text, "lines")


@pytest.mark.parametrize("encoding", ["gb18030", "utf-16-le"])
def test_counts_and_encoding_equal_the_utf8_twin(tmp_path, encoding):
    utf8 = _write(tmp_path, TEXT, "utf-8")
    other = _write(tmp_path, TEXT, encoding, ENCODINGS[encoding])
    if encoding == "utf-16-le":  # the BOM is text: give the twin one too
        utf8.write_bytes(codecs.BOM_UTF8 + TEXT.encode("utf-8"))
    expected = engine_class("wubi-bpe").count(files=[utf8])
    assert count_pretokens(files=[other], model="wubi-bpe", range_bytes=500, workers=2) == expected
    model = load_tokenizer(resources_dir() / "models" / "wubi-bpe-6000.json")
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    encode_files(model, [utf8], a, range_bytes=500)
    encode_files(model, [other], b, range_bytes=500, workers=2)
    assert a.read_bytes() == b.read_bytes()


def test_a_bad_byte_names_its_offset_in_the_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(("你好\n" * 100).encode("gb18030") + b"\xff\xff\n")
    with pytest.raises(FileError, match="not GB18030 text.*offset 500"):
        [read_range(r) for r in byte_ranges([path], range_bytes=64, encoding="gbk")]
