"""The codec's spelling tables from the disk cache: the same tables as a build,
and a damaged, stale or unwritable cache is never a failure."""
from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wubitok import table_cache
from wubitok.codec import CodecOptions, WubiCodec, _build_tables, _tables
from wubitok.table_cache import cached_table


def _calls() -> tuple[list[int], object]:
    calls: list[int] = []

    def build() -> dict[str, list[int]]:
        calls.append(1)
        return {"a": [1, 2], "b": [3]}

    return calls, build


def test_second_call_loads_what_the_first_stored(tmp_path):
    calls, build = _calls()
    assert cached_table("t", ("k",), build, folder=tmp_path) == {"a": [1, 2], "b": [3]}
    assert cached_table("t", ("k",), build, folder=tmp_path) == {"a": [1, 2], "b": [3]}
    assert len(calls) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["t.marshal"]


def test_another_key_or_other_code_builds_again(tmp_path):
    calls, build = _calls()
    cached_table("t", ("k",), build, folder=tmp_path)
    cached_table("t", ("other",), build, folder=tmp_path)
    assert len(calls) == 2

    def helper() -> None:  # a builder whose code differs from none given before
        return None

    cached_table("t", ("other",), build, helper, folder=tmp_path)
    assert len(calls) == 3


@pytest.mark.parametrize("damage", [b"", b"\x00garbage", None])
def test_a_damaged_file_is_rebuilt_and_replaced(tmp_path, damage):
    calls, build = _calls()
    cached_table("t", ("k",), build, folder=tmp_path)
    path = tmp_path / "t.marshal"
    good = path.read_bytes()
    path.write_bytes(good[: len(good) // 2] if damage is None else damage)
    assert cached_table("t", ("k",), build, folder=tmp_path) == {"a": [1, 2], "b": [3]}
    assert len(calls) == 2
    assert path.read_bytes() == good


def test_an_unwritable_folder_still_gives_the_table(tmp_path):
    calls, build = _calls()
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert cached_table("t", ("k",), build, folder=blocker / "cache") == {"a": [1, 2], "b": [3]}
    assert cached_table("t", ("k",), build, folder=blocker / "cache") == {"a": [1, 2], "b": [3]}
    assert len(calls) == 2


@pytest.mark.parametrize("options", [CodecOptions(), CodecOptions(code="full", boundary="separator", index="symbol"),
                                     CodecOptions(code="prefix")])
def test_codec_tables_from_the_cache_equal_a_build(wubi_dict, options):
    built = _build_tables(wubi_dict, options)
    _tables.cache_clear()
    first = _tables(wubi_dict, options)  # builds or loads, and stores
    path = table_cache.user_cache_dir() / f"codec-{options.code}-{options.boundary}-{options.index}.marshal"
    written = path.stat().st_mtime_ns
    _tables.cache_clear()
    stored = _tables(wubi_dict, options)  # loads what was stored: the file is not written again
    assert path.stat().st_mtime_ns == written
    assert first == built and stored == built
    assert all(isinstance(v, tuple) for v in stored[1].values())  # spellings stay tuples through marshal


def test_a_fresh_process_spells_with_the_stored_tables(tmp_path, wubi_dict):
    """Another process, the same cache folder: it loads the file, its spellings are the builder's."""
    env = {**os.environ, "WUBITOK_DATA_DIR": str(tmp_path)}
    script = ("from wubitok.codec import WubiCodec; c = WubiCodec(); "
              "print(' '.join(c.display(c.spelling(ch)) for ch in '五笔输入法𠀀'))")
    path = tmp_path / "cache" / "codec-hybrid-final-key-digits.marshal"
    runs, written = [], []
    for _ in range(2):
        runs.append(subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                                   check=True).stdout)
        written.append(path.stat().st_mtime_ns)
    assert written[0] == written[1]  # the second process loaded the file, it did not write it again
    codec = WubiCodec(dictionary=wubi_dict)
    assert runs == [" ".join(codec.display(codec.spelling(ch)) for ch in "五笔输入法𠀀") + "\n"] * 2
    digest, _ = marshal.loads(path.read_bytes())
    assert len(digest) == 64


def test_cache_lives_under_the_data_folder_when_it_is_set(monkeypatch, tmp_path):
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(tmp_path))
    assert table_cache.user_cache_dir() == Path(tmp_path) / "cache"
