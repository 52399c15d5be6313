"""Encoding on a real Dask cluster (distributed.LocalCluster, worker processes): same bytes as one process."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import cloudpickle
import dask
import pytest
from distributed import LocalCluster

from tests.cli.cli_run import run
from wubitok import processes
from wubitok.engines.base import load_tokenizer
from wubitok.paths import resources_dir
from wubitok.processes import usable_workers
from wubitok.scale import encode_files
from wubitok.scale.runner import ClusterError, run_ranges

MODELS = resources_dir() / "models"
SAMPLES = resources_dir() / "samples"

# The task functions below die on purpose; workers get them by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c.scheduler_address


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "c.txt"
    path.write_text((SAMPLES / "tang300.txt").read_text(encoding="utf-8")[:8000] + "\nEnglish line 😀\n",
                    encoding="utf-8")
    return path


def test_cluster_output_is_byte_identical_to_one_process(tmp_path, corpus, cluster):
    model = load_tokenizer(MODELS / "wubi-bpe-6000.json")
    one, dask_out = tmp_path / "one.bin", tmp_path / "dask.bin"
    encode_files(model, [corpus], one, range_bytes=2000, eod=True)
    header = encode_files(model, [corpus], dask_out, range_bytes=2000, eod=True, cluster=cluster)
    assert header["documents"] > 50
    for suffix in ("", ".idx", ".json"):
        a, b = Path(f"{one}{suffix}").read_bytes(), Path(f"{dask_out}{suffix}").read_bytes()
        assert a == b


def test_cli_local_cluster(capsys, tmp_path, corpus):
    one, local = tmp_path / "one.jsonl", tmp_path / "local.jsonl"
    assert run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus, "-o", one, "-q")[0] == 0
    code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus, "-o", local, "-q",
                       "--cluster", "local:2")
    assert code == 0, err
    assert one.read_bytes() == local.read_bytes()


def test_a_local_cluster_is_capped_at_the_cores_like_workers(capsys, monkeypatch, tmp_path, corpus):
    # local:64 on a small machine started 64 Dask worker processes (about 100 MB each)
    monkeypatch.setattr(processes, "_said", set())  # the cap is said once per process
    out = tmp_path / "capped.jsonl"
    code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus, "-o", out, "-q",
                       "--cluster", "local:64")
    assert code == 0, err
    usable = usable_workers(64)
    assert f"wubitok: {usable} worker processes, not 64" in err


def _die_once(marker: str, item: int) -> int:
    # The first attempt of task 3 kills its worker process; Dask runs it again elsewhere.
    if item == 3 and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return item * item


def _always_die(_spec: object, item: int) -> int:
    if item == 1:
        os._exit(1)
    return item


@pytest.fixture()
def fresh_cluster():
    # Tests that kill workers get their own cluster: the shared one may still be restarting a worker.
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c.scheduler_address


def test_a_dead_worker_is_retried(tmp_path, fresh_cluster):
    marker = str(tmp_path / "died")
    assert list(run_ranges(_die_once, marker, list(range(6)), cluster=fresh_cluster)) == [0, 1, 4, 9, 16, 25]
    assert os.path.exists(marker)


def _die_last(marker: str, item: int) -> int:
    # Task 3 outlives the others, then kills its worker once: by then the scheduler's
    # memory manager has dropped the copies of the scattered spec that no waiting
    # task needs, and kept the one on this worker.
    if item == 3 and not os.path.exists(marker):
        time.sleep(1.5)
        open(marker, "w").close()
        os._exit(1)
    return item * item


def test_a_worker_dying_with_the_last_copy_of_the_spec_costs_a_resend(tmp_path):
    marker = str(tmp_path / "died")
    with dask.config.set({"distributed.scheduler.active-memory-manager.interval": "50ms"}):
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
            assert list(run_ranges(_die_last, marker, list(range(6)), cluster=c.scheduler_address)) == [
                0, 1, 4, 9, 16, 25]
    assert os.path.exists(marker)


def test_a_task_that_cannot_finish_fails_the_run(fresh_cluster):
    with pytest.raises(ClusterError, match="could not finish"):
        list(run_ranges(_always_die, None, [0, 1, 2], cluster=fresh_cluster))


def test_unreachable_scheduler_is_one_line(capsys, tmp_path, corpus):
    out = tmp_path / "x.bin"
    code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus, "-o", out,
                       "--cluster", "tcp://127.0.0.1:9", "-q")
    assert code == 2 and "cannot reach the Dask scheduler" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
    code, _, err = run(capsys, "encode", "-m", MODELS / "bpe-6000.json", "--file", corpus, "-o", out,
                       "--cluster", "local:zero")
    assert code == 2 and "local:N" in err


def test_a_folder_gets_shards_and_a_manifest(tmp_path, corpus, cluster):
    import json

    model = load_tokenizer(MODELS / "bpe-6000.json")
    one = tmp_path / "one.bin"
    folder = tmp_path / "shards"
    folder.mkdir()
    encode_files(model, [corpus], one, range_bytes=2000)
    manifest = encode_files(model, [corpus], folder, range_bytes=2000, cluster=cluster)
    assert json.loads((folder / "manifest.json").read_text()) == manifest
    assert len(manifest["shards"]) > 3
    joined = b"".join((folder / s["file"]).read_bytes() for s in manifest["shards"])
    assert joined == one.read_bytes()


def test_a_scheduler_without_workers_fails_the_run_instead_of_waiting(monkeypatch):
    from wubitok.scale import runner

    monkeypatch.setattr(runner, "NO_WORKERS_SECONDS", 2)
    with LocalCluster(n_workers=0, processes=True, dashboard_address=None) as empty:
        with pytest.raises(ClusterError, match="no workers"):
            list(run_ranges(_always_die, None, [0, 2], cluster=empty.scheduler_address))


def _sleep(_spec: object, item: int) -> int:
    import time

    time.sleep(item)
    return item


def test_workers_that_all_leave_mid_run_fail_it_instead_of_waiting():
    import threading

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        threading.Timer(3, c.scale, args=(0,)).start()  # once the task is running, every worker goes
        with pytest.raises(ClusterError, match="could not finish"):
            list(run_ranges(_sleep, None, [60], cluster=c.scheduler_address))
