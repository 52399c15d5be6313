"""Reading user files with one-line errors; atomic writes."""
from __future__ import annotations

import os
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.errors import FileError, InputError
from wubitok.fileio import (
    DETECT_BYTES,
    TEXT_ENCODINGS,
    SaveFormat,
    TextFile,
    TextPath,
    atomic_write_many,
    atomic_write_text,
    check_readable_text,
    decode_text,
    detect_encoding,
    encoding_label,
    iter_lines,
    iter_text_chunks,
    normalize_encoding,
    read_text,
    read_text_file,
)
from wubitok.paths import resources_dir

SIMPLIFIED = "床前明月光，疑是地上霜。支持 f-string 和中文的文本文件。"
TRADITIONAL = "這是一個繁體中文的測試句子，請問你好嗎？"


def test_read_text_keeps_line_endings_and_bom(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes("\ufeff一\r\n二\r三\n".encode("utf-8"))
    assert read_text(f) == "\ufeff一\r\n二\r三\n"
    assert "".join(iter_text_chunks(f, chunk_chars=2)) == read_text(f)
    assert list(iter_lines([f])) == ["\ufeff一\r\n", "二\r", "三\n"]


@pytest.mark.parametrize("where", [0, 3, 299_999, 300_000, (1 << 20) - 1, 1 << 20])
def test_invalid_byte_offset_is_exact(tmp_path, where):
    f = tmp_path / "bad.txt"
    good = ("a" * where).encode()
    f.write_bytes(good + b"\xe9" + "中文".encode() * 10)
    for read in (lambda: read_text(f), lambda: list(iter_text_chunks(f, chunk_chars=4096))):
        with pytest.raises(FileError, match=rf"not UTF-8 text \(invalid byte 0x[0-9A-F]{{2}} at offset {where}\)"):
            read()


def test_a_character_cut_at_the_end_of_the_file(tmp_path):
    f = tmp_path / "cut.txt"
    f.write_bytes(("x" * 300_000).encode() + "中".encode()[:2])
    with pytest.raises(FileError, match="offset 300000"):
        list(iter_text_chunks(f))


@pytest.mark.parametrize("make, message", [
    (lambda d: d / "missing.txt", "no such file"),
    (lambda d: d, "is a directory"),
])
def test_open_errors(tmp_path, make, message):
    with pytest.raises(FileError, match=message):
        read_text(make(tmp_path))


def test_check_readable_text(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(FileError, match="empty"):
        check_readable_text([empty])
    with pytest.raises(FileError, match="no input files"):
        check_readable_text([])


def test_atomic_write_replaces_and_follows_the_umask(tmp_path):
    target = tmp_path / "model.json"
    target.write_text("old")
    old_mask = os.umask(0o022)
    try:
        atomic_write_text(target, "新")
    finally:
        os.umask(old_mask)
    assert target.read_text(encoding="utf-8") == "新"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]  # no temp file left


def test_atomic_write_into_a_missing_folder_is_a_file_error(tmp_path):
    with pytest.raises(FileError, match="cannot write: folder .*dir does not exist") as caught:
        atomic_write_text(tmp_path / "no" / "such" / "dir" / "x.json", "x")
    assert caught.value.code == "file.no_folder" and caught.value.params["folder"].endswith("dir")


def test_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "keep.txt"
    target.write_text("precious")

    def boom(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(FileError, match="No space left"):
        atomic_write_text(target, "new")
    assert target.read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


@pytest.mark.parametrize("data, encoding", [
    ("你好".encode("gbk"), "gb18030"),                       # GBK is read as GB18030, its superset
    ("你好".encode("gb2312"), "gb18030"),
    (SIMPLIFIED.encode("gb18030"), "gb18030"),
    ("𠀀𠉎 Ext B 中文".encode("gb18030"), "gb18030"),          # four-byte GB18030
    (TRADITIONAL.encode("big5"), "cp950"),  # Big5 is read as CP950, its superset
    ("中文".encode("big5"), "cp950"),
    ("\ufeff中文".encode("utf-16-le"), "utf-16-le"),
    ("\ufeff中文".encode("utf-16-be"), "utf-16-be"),
    ("\ufeff中文".encode("utf-8"), "utf-8"),
    ("中文 abc".encode("utf-8"), "utf-8"),
    (b"", "utf-8"),
])
def test_encodings_are_detected(tmp_path, data, encoding):
    f = tmp_path / "t.txt"
    f.write_bytes(data)
    assert detect_encoding(data) == encoding
    document = read_text_file(f)
    assert document == TextFile(data.decode(encoding), encoding)
    assert "".join(iter_text_chunks(f, chunk_chars=3)) == document.text
    assert check_readable_text([f], allow_empty=True) == [TextPath(f, encoding)]
    # Saved in the encoding it came in: the same bytes (a BOM is kept as text).
    atomic_write_text(f, document.text, document.encoding)
    assert f.read_bytes() == data


def test_sample_texts_in_legacy_encodings_are_detected_line_by_line():
    # Every line of the bundled samples with two Han characters or more, in
    # GB18030.  (A single one can be valid UTF-8 too: 止 is D6 B9, U+05B9.)
    lines = [line for name in ("tang300.txt", "song100.txt", "fortunes-zh.txt")
             for line in (resources_dir() / "samples" / name).read_text(encoding="utf-8").splitlines()
             if sum("\u4e00" <= c <= "\u9fff" for c in line) >= 2]
    wrong = [line for line in lines if detect_encoding(line.encode("gb18030")) != "gb18030"]
    # The one known miss is a line whose only Chinese is 或 and 框架: in Big5 they read as 麼 and
    # 遺殤, as frequent (tests/test_encoding_detection.py has the traditional side).
    assert len(lines) > 5000 and len(wrong) <= 1, wrong


def test_detection_of_a_big_file_uses_its_start(tmp_path):
    f = tmp_path / "big.txt"
    text = SIMPLIFIED * (2 * DETECT_BYTES // len(SIMPLIFIED.encode("gb18030")) + 1)
    f.write_bytes(text.encode("gb18030"))
    assert list(iter_lines([f])) == [text]
    assert check_readable_text([f])[0].encoding == "gb18030"


@pytest.mark.parametrize("data", [
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10",
    "café".encode("latin-1"),
    bytes(range(256)),
])
def test_what_is_not_text_is_one_clear_error(tmp_path, data):
    f = tmp_path / "x.bin"
    f.write_bytes(data)
    assert detect_encoding(data) is None
    for read in (lambda: read_text(f), lambda: list(iter_text_chunks(f)), lambda: check_readable_text([f])):
        with pytest.raises(FileError, match=r"not UTF-8 text \(invalid byte at offset \d+\), nor GB18030, Big5") as e:
            read()
        assert e.value.code == "file.not_text" and e.value.params["path"] == str(f)


def test_a_given_encoding_is_used_and_checked(tmp_path):
    f = tmp_path / "t.txt"
    f.write_bytes("中文".encode("big5"))
    assert read_text(f, "big5") == "中文"
    assert read_text(f, "gbk") == read_text(f, "gb18030") == "中文".encode("big5").decode("gb18030")
    with pytest.raises(FileError, match=r"not UTF-8 text \(invalid byte 0xA4 at offset 0\); give --encoding if"):
        read_text(f, "utf-8")
    with pytest.raises(InputError, match="unknown encoding 'nope'"):
        read_text(f, "nope")
    paths = check_readable_text([f], encoding="big5")
    assert paths == [TextPath(f, "cp950")] and list(iter_lines(paths)) == ["中文"]


def test_an_invalid_gb18030_byte_after_a_chunk_boundary_has_its_exact_offset(tmp_path):
    f = tmp_path / "bad.txt"
    good = ("中" * ((1 << 20) // 2 - 1) + "a").encode("gb18030") + "文".encode("gb18030")  # 文 straddles 1 MiB
    f.write_bytes(good + b"\xff abc")
    with pytest.raises(FileError, match=rf"not GB18030 text \(invalid byte 0x[0-9A-F]{{2}} at offset {len(good)}\)"):
        list(iter_text_chunks(f, encoding="gb18030"))


def test_saving_text_an_encoding_cannot_hold_says_which_character(tmp_path):
    f = tmp_path / "t.txt"
    with pytest.raises(FileError, match=r"cannot save as Big5: it has no '😀' \(U\+1F600, character 2\)") as e:
        atomic_write_text(f, "中文😀", "big5")
    assert e.value.code == "file.unencodable" and not f.exists()


def test_encoding_names():
    assert [normalize_encoding(n) for n in (None, "auto", "GBK", "gb2312", "cp936", "utf-8-sig", "BIG5")] == [
        None, None, "gb18030", "gb18030", "gb18030", "utf-8", "cp950"]
    assert [encoding_label(n) for n in ("gb18030", "big5", "cp950", "utf-16-le", "utf-8", "cp1252")] == [
        "GB18030", "Big5", "Big5", "UTF-16LE", "UTF-8", "CP1252"]


@settings(max_examples=60, deadline=None)
@given(text=st.text(), encoding=st.sampled_from(["utf-8", "gb18030", "utf-16-le", "utf-16-be"]))
def test_any_text_comes_back_from_its_encoding(tmp_path_factory, text, encoding):
    # Lone surrogates cannot be stored in a text file in any of these encodings.
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    f = tmp_path_factory.mktemp("rt") / "t.txt"
    atomic_write_text(f, text, encoding)
    assert read_text_file(f, encoding) == TextFile(text, encoding)
    assert "".join(iter_text_chunks(f, chunk_chars=5, encoding=encoding)) == text
    if encoding.startswith("utf-16"):
        # With a byte-order mark it is found without being named.
        atomic_write_text(f, "\ufeff" + text, encoding)
        assert read_text_file(f) == TextFile("\ufeff" + text, encoding)


def test_a_temp_file_a_live_writer_holds_is_kept(tmp_path):
    import fcntl

    out = tmp_path / "a.txt"
    live = tmp_path / ".a.txt.0123456789ab.tmp"
    live.write_bytes(b"being written")
    with open(live, "rb") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)  # as atomic_write_bytes holds it while writing
        atomic_write_text(out, "new")
        assert live.exists()
    atomic_write_text(out, "newer")  # its writer is gone now
    assert not live.exists() and out.read_text() == "newer"


def test_atomic_write_many_replaces_nothing_when_one_fails(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "missing" / "b.txt"
    a.write_text("old")
    with pytest.raises(FileError, match="does not exist"):
        atomic_write_many([(a, b"new"), (b, b"new")])
    assert a.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_long_names_get_a_temp_name_that_fits(tmp_path):
    name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
    out = tmp_path / ("文" * (name_max // 3))
    atomic_write_text(out, "x")
    assert out.read_text() == "x" and [p.name for p in tmp_path.iterdir()] == [out.name]


def test_an_empty_output_name_is_refused():
    with pytest.raises(FileError, match="output file name is empty"):
        atomic_write_text("", "x")


# What a plain-text editor (QPlainTextEdit) keeps of a file: no BOM, every line break "\n".
_LINE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85"
                                                                                  "\u2028\u2029\ufeff"))


@settings(max_examples=200)
@given(lines=st.lists(_LINE, max_size=5), newline=st.sampled_from(["\n", "\r\n", "\r"]), bom=st.booleans(),
       encoding=st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "gb18030"]))
def test_a_file_shown_in_an_editor_and_saved_back_is_the_same_bytes(lines, newline, bom, encoding):
    bom = bom and encoding != "gb18030"  # a BOM is a UTF thing
    data = (("\ufeff" if bom else "") + newline.join(lines)).encode(encoding)
    file = decode_text(data, encoding)
    edited = file.text.removeprefix("\ufeff").replace(newline, "\n")
    assert SaveFormat.of(file).apply(edited, encoding).encode(encoding) == data


def test_converting_to_utf16_adds_a_bom_and_to_gb18030_drops_it():
    form = SaveFormat.of(TextFile("\ufeff一\r\n二", "utf-8"))
    assert form.apply("一\n二", "gb18030") == "一\r\n二"
    assert form.apply("一\n二", "utf-8") == "\ufeff一\r\n二"
    assert SaveFormat.of(TextFile("一", "gb18030")).apply("一", "utf-16-le") == "\ufeff一"
    assert SaveFormat.of(TextFile("一", "utf-16-be")).apply("一", "utf-16-le") == "一"  # BOM-less stays so


def test_every_offered_encoding_has_a_label_and_normalizes_to_itself():
    assert [encoding_label(e) for e in TEXT_ENCODINGS] == ["UTF-8", "GB18030", "Big5", "Big5-HKSCS",
                                                           "UTF-16LE", "UTF-16BE"]
    assert [normalize_encoding(e) for e in TEXT_ENCODINGS] == list(TEXT_ENCODINGS)
