"""The codec's spelling tables from the disk cache: the same tables as a build,
and a damaged, stale or unwritable cache is never a failure."""
from __future__ import annotations

import marshal
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wubitok.wubi import table_cache
from wubitok.wubi.codec import CodecOptions, WubiCodec, _build_tables, _tables
from wubitok.wubi.table_cache import cached_table, join_table, split_table


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
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.lock", "t.marshal"]  # no temporary file left


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
    o = options
    path = table_cache.user_cache_dir() / f"codec-{o.code}-{o.boundary}-{o.index}-{o.layout}.marshal"
    written = path.stat().st_mtime_ns
    _tables.cache_clear()
    stored = _tables(wubi_dict, options)  # loads what was stored: the file is not written again
    assert path.stat().st_mtime_ns == written
    assert first == built and stored == built
    assert all(isinstance(v, tuple) for v in stored[1].values())  # spellings stay tuples through marshal


def test_a_fresh_process_spells_with_the_stored_tables(tmp_path, wubi_dict):
    """Another process, the same cache folder: it loads the file, its spellings are the builder's."""
    env = {**os.environ, "WUBITOK_DATA_DIR": str(tmp_path)}
    script = ("from wubitok.wubi.codec import WubiCodec; c = WubiCodec(); "
              "print(' '.join(c.display(c.spelling(ch)) for ch in '五笔输入法𠀀'))")
    path = tmp_path / "cache" / "codec-hybrid-final-key-symbol-shared-bytes.marshal"
    runs, written = [], []
    for _ in range(2):
        runs.append(subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                                   check=True).stdout)
        written.append(path.stat().st_mtime_ns)
    assert written[0] == written[1]  # the second process loaded the file, it did not write it again
    codec = WubiCodec(dictionary=wubi_dict)
    assert runs == [" ".join(codec.display(codec.spelling(ch)) for ch in "五笔输入法𠀀") + "\n"] * 2
    digest, layout, pieces = marshal.loads(path.read_bytes())
    assert len(digest) == 64
    # In pieces of about PIECE_OBJECTS objects each: the code table and the spellings in several.
    assert layout[0] == "tuple" and [kind for kind, _ in layout[1]] == ["dict", "dict"]
    assert all(count > 1 for _, count in layout[1]) and len(pieces) == sum(count for _, count in layout[1])


def test_cache_lives_under_the_data_folder_when_it_is_set(monkeypatch, tmp_path):
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(tmp_path))
    assert table_cache.user_cache_dir() == Path(tmp_path) / "cache"


LEAVES = st.one_of(st.integers(), st.text(max_size=3), st.booleans(), st.none(), st.binary(max_size=3))
TABLES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=8), st.lists(inner, max_size=5).map(tuple),
    st.dictionaries(st.text(max_size=3), inner, max_size=8)), max_leaves=40)


def _exactly(a, b) -> bool:
    """Equal, and of the same types all the way down (a tuple is not a list to marshal)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_exactly, a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_exactly(a[k], b[k]) for k in a)
    return a == b


@given(TABLES, st.integers(1, 6))
def test_a_table_split_in_pieces_joins_back_exactly(table, size):
    layout, pieces = split_table(table, size)
    assert _exactly(join_table(layout, pieces), table)
    # A dict or list piece is cut once it reaches ``size`` objects (its last member may pass it).
    for piece in map(marshal.loads, pieces):
        if isinstance(piece, (dict, list)) and len(piece) > 1:
            members = list(piece.values()) if isinstance(piece, dict) else piece
            weights = [(1 if isinstance(piece, dict) else 0) + table_cache._weight(m) for m in members]
            assert sum(weights[:-1]) < size


def test_a_file_with_pieces_missing_or_left_over_is_rebuilt(tmp_path):
    calls, build = _calls()
    cached_table("t", ("k",), build, folder=tmp_path)
    path = tmp_path / "t.marshal"
    digest, layout, pieces = marshal.loads(path.read_bytes())
    for damaged in (pieces[:-1], [*pieces, pieces[0]]):
        path.write_bytes(marshal.dumps((digest, layout, damaged)))
        assert cached_table("t", ("k",), build, folder=tmp_path) == {"a": [1, 2], "b": [3]}
    assert len(calls) == 3


def test_a_second_thread_waits_for_the_first_build_and_loads_it(tmp_path):
    builds: list[str] = []
    first_building, second_building = threading.Event(), threading.Event()

    def build() -> dict[str, list[int]]:
        builds.append(threading.current_thread().name)
        if len(builds) == 1:
            first_building.set()
            # Without one build at a time the second thread builds meanwhile; with
            # it, that thread waits for this one, and this wait ends on its timeout.
            second_building.wait(2)
        else:
            second_building.set()
        return {"a": [1, 2]}

    results = {}
    threads = [threading.Thread(target=lambda n=n: results.setdefault(n, cached_table("t", ("k",), build,
                                                                                      folder=tmp_path)), name=n)
               for n in ("first", "second")]
    threads[0].start()
    first_building.wait(60)
    threads[1].start()
    for t in threads:
        t.join(60)
    assert builds == ["first"]
    assert results == {"first": {"a": [1, 2]}, "second": {"a": [1, 2]}}


def test_processes_starting_together_build_a_missing_table_once(tmp_path):
    """A first start: the app and its worker processes need the table at once; one builds, the others read it."""
    builds = tmp_path / "builds.log"
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from wubitok.wubi.table_cache import cached_table\n"
        "def build():\n"
        f"    with open({str(builds)!r}, 'a') as f: f.write('built\\n')\n"
        "    time.sleep(0.5)  # long enough for the others to find the table missing\n"
        "    return {'a': list(range(50_000))}\n"
        f"table = cached_table('shared', ('k',), build, folder=Path({str(tmp_path / 'cache')!r}))\n"
        "print(sum(table['a']))\n"
    )
    runs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert outputs == [f"{sum(range(50_000))}\n"] * 4
    assert builds.read_text() == "built\n"
