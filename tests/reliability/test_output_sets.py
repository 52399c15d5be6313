"""No output replaces an input or a device; a set of output files is replaced as a whole; a killed
run's leftovers go with the next run (issue #31, items 5-8).  Runs are killed with real signals."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading

import pytest
from cli_run import run
from mounts import small_tmpfs

from wubitok.paths import resources_dir

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


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _one_line_refusal(code, err):
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err


# -- issue #37, 9: every target is checked before anything is written ----------------------------

@pytest.mark.parametrize("fmt, side", [("bin", "c.bin.idx"), ("bin", "c.bin.json"), ("megatron", "c.json"),
                                       ("nanogpt", "c.bin/meta.pkl")])
def test_a_folder_where_a_side_file_goes_leaves_the_old_set_untouched(capsys, model, corpus, tmp_path, fmt, side):
    out = tmp_path / "out"
    (out / side).mkdir(parents=True)
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    code, _, err = run(capsys, "encode", "-m", model, "--file", corpus, "-o", out / "c.bin", "--format", fmt)
    _one_line_refusal(code, err)
    assert "is a folder" in err and side.rsplit("/", 1)[-1] in err
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before  # no new file, no journal


# -- item 5: side files are outputs too ---------------------------------------------------------

def test_a_side_file_that_is_the_model_is_refused(capsys, model, corpus, tmp_path):
    before = _digest(model)
    code, _, err = run(capsys, "encode", "-m", model, "--file", corpus, "-o", tmp_path / "m", "--format", "bin")
    _one_line_refusal(code, err)
    assert "m.json" in err and _digest(model) == before


def test_a_side_file_that_is_the_corpus_is_refused(capsys, model, tmp_path):
    corpus = tmp_path / "x.idx"
    corpus.write_text("一行\n两行\n", encoding="utf-8")
    code, _, err = run(capsys, "encode", "-m", model, "--file", corpus, "-o", tmp_path / "x", "--format", "bin")
    _one_line_refusal(code, err)
    assert corpus.read_text(encoding="utf-8") == "一行\n两行\n"


@pytest.mark.parametrize("link", ["hard", "symbolic"])
def test_a_side_file_linked_to_the_corpus_is_refused(capsys, model, corpus, tmp_path, link):
    side = tmp_path / "out.bin.json"
    (os.link if link == "hard" else os.symlink)(corpus, side)
    before = _digest(corpus)
    code, _, err = run(capsys, "encode", "-m", model, "--file", corpus, "-o", tmp_path / "out.bin")
    _one_line_refusal(code, err)
    assert _digest(corpus) == before


def test_a_corpus_listed_by_the_folders_manifest_is_refused(capsys, model, corpus, tmp_path):
    out = tmp_path / "shards"
    out.mkdir()
    assert run(capsys, "encode", "-m", model, "--file", corpus, "-o", out, "--format", "jsonl", "-q")[0] == 0
    shard = out / json.loads((out / "manifest.json").read_text())["shards"][0]["file"]
    before = _digest(shard)
    # the old result as the new input: switching would remove it
    code, _, err = run(capsys, "encode", "-m", model, "--file", shard, "-o", out, "--format", "jsonl", "-q")
    _one_line_refusal(code, err)
    assert _digest(shard) == before


def test_a_transformers_export_never_replaces_its_model(capsys, tmp_path):
    wubi = resources_dir() / "models" / "wubi-bpe-6000.json"
    folder = tmp_path / "tok"
    assert run(capsys, "export", "-m", wubi, "--to", "transformers", "-o", folder)[0] == 0
    from wubitok.integrations.transformers import MODEL_FILE

    inside = folder / MODEL_FILE  # the folder's own model file, exported again into the folder
    before = _digest(inside)
    code, _, err = run(capsys, "export", "-m", inside, "--to", "transformers", "-o", folder)
    _one_line_refusal(code, err)
    assert "one of the inputs" in err
    assert _digest(inside) == before


# -- item 7: devices and FIFOs are written through ------------------------------------------------

@pytest.mark.system("root")  # mknod of a character device
@pytest.mark.parametrize("fmt", ["jsonl", "bin"])
def test_encode_into_a_device_node_writes_through_it(capsys, model, corpus, tmp_path, fmt):
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    code, _, err = run(capsys, "encode", "-m", model, "--file", corpus, "-o", null, "--format", fmt, "-q")
    assert code == 0, err
    assert stat.S_ISCHR(null.stat().st_mode) and null.stat().st_rdev == os.makedev(1, 3)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith((".tmp", ".partial"))]


def test_encode_into_a_fifo_writes_through_it(capsys, model, corpus, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    code, _, err = run(capsys, "encode", "-m", model, "--file", corpus, "-o", fifo, "--format", "jsonl", "-q")
    reader.join(timeout=120)
    assert code == 0, err
    assert stat.S_ISFIFO(fifo.stat().st_mode) and got and got[0].count(b"\n") > 10


# -- items 6 and 8: a killed or interrupted run keeps the last good result --------------------------

# A real run of encode_files in its own process that sends itself SIG after AFTER ranges
# are written (the progress callback is the only hook: the kill itself is real).
KILLER = textwrap.dedent("""
    import os, signal, sys
    from wubitok import load_tokenizer
    from wubitok.scale import encode_files
    model, corpus, out, fmt, sig, after = sys.argv[1:7]
    seen = []
    def progress(done, total):
        seen.append(done)
        if len(seen) == int(after):
            os.kill(os.getpid(), getattr(signal, sig))
    encode_files(load_tokenizer(model), [corpus], out, fmt=fmt, range_bytes=2000, progress=progress)
""")


def _killed_run(model, corpus, out, fmt, sig, after=3):
    done = subprocess.run([sys.executable, "-c", KILLER, str(model), str(corpus), str(out), fmt, sig, str(after)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode != 0, done.stderr


def _folder_state(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    return manifest, {s["file"]: _digest(folder / s["file"]) for s in manifest["shards"]}


@pytest.mark.parametrize("sig", ["SIGKILL", "SIGINT"])
def test_an_interrupted_folder_run_keeps_the_previous_shards_and_manifest(capsys, model, corpus, tmp_path, sig):
    out = tmp_path / "shards"
    out.mkdir()
    assert run(capsys, "encode", "-m", model, "--file", corpus, "-o", out, "--format", "jsonl", "-q")[0] == 0
    before = _folder_state(out)
    _killed_run(model, corpus, out, "jsonl", sig)
    assert _folder_state(out) == before  # the old manifest, and every shard it lists, as they were
    assert run(capsys, "encode", "-m", model, "--file", corpus, "-o", out, "--format", "jsonl", "-q")[0] == 0
    manifest, _ = _folder_state(out)
    generations = {p.name for p in out.iterdir() if p.is_dir()}
    assert generations == {s["file"].split("/")[0] for s in manifest["shards"]}  # the killed run's is gone
    assert manifest["documents"] == before[0]["documents"]


def test_a_killed_run_leaves_temps_that_the_next_run_removes(capsys, model, corpus, tmp_path):
    out = tmp_path / "c.bin"
    assert run(capsys, "encode", "-m", model, "--file", corpus, "-o", out, "-q")[0] == 0
    before = {p.name: _digest(p) for p in tmp_path.glob("c.bin*")}
    _killed_run(model, corpus, out, "bin", "SIGKILL")
    assert {p.name: _digest(p) for p in tmp_path.glob("c.bin*")} == before
    assert [p for p in tmp_path.iterdir() if p.name.startswith(".c.bin")]  # the dead run's temps
    (tmp_path / f".c.bin.{2**22 + 12345}.partial").write_bytes(b"x" * 1000)  # an older version's, pid long gone
    assert run(capsys, "encode", "-m", model, "--file", corpus, "-o", out, "-q")[0] == 0
    leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".c.bin") and "lock" not in p.name)
    assert leftovers == []


# The set is switched by renames after a journal: a kill between two renames is finished by the
# next run.  The kill comes from inside os.replace after the first rename (a real SIGKILL).
KILL_BETWEEN_RENAMES = textwrap.dedent("""
    import os, signal, sys
    from wubitok import load_tokenizer
    from wubitok.scale import encode_files
    model, corpus, out = sys.argv[1:4]
    real_replace, renames = os.replace, []
    def replace(src, dst):
        real_replace(src, dst)
        if str(dst).startswith(out):
            renames.append(dst)
            if len(renames) == 1:
                os.kill(os.getpid(), signal.SIGKILL)
    os.replace = replace
    encode_files(load_tokenizer(model), [corpus], out, fmt="bin")
""")


def test_a_kill_between_the_renames_of_a_set_is_finished_by_the_next_run(model, corpus, tmp_path):
    from wubitok.fileio.fileset import roll_forward

    out = tmp_path / "c.bin"
    small = tmp_path / "small.txt"
    small.write_text("一\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "wubitok", "encode", "-m", str(model), "--file", str(small), "-o",
                    str(out), "-q"], check=True)
    done = subprocess.run([sys.executable, "-c", KILL_BETWEEN_RENAMES, str(model), str(corpus), str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == -signal.SIGKILL, done.stderr
    roll_forward(out)  # what the next run does first
    header = json.loads((tmp_path / "c.bin.json").read_text())
    idx = (tmp_path / "c.bin.idx").read_bytes()
    ends = [int.from_bytes(idx[i:i + 8], "little") for i in range(0, len(idx), 8)]
    width = {"uint16": 2, "uint32": 4}[header["dtype"]]
    assert ends[-1] == header["tokens"] == out.stat().st_size // width  # one set: the new one, whole
    assert header["documents"] == len(ends) - 1 > 1


# -- item 8: a full disk leaves no temp files --------------------------------------------------------

def test_a_full_disk_leaves_no_temp_files_and_the_old_output(capsys, model, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text(((resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8") + "\n") * 6,
                   encoding="utf-8")
    with small_tmpfs(tmp_path / "disk", "256k") as disk:
        out = disk / "c.jsonl"
        out.write_text("the last good result\n")
        code, _, err = run(capsys, "encode", "-m", model, "--file", big, "-o", out, "-q")
        _one_line_refusal(code, err)
        assert "No space left" in err or "full" in err, err
        assert sorted(p.name for p in disk.iterdir() if "lock" not in p.name) == ["c.jsonl"]
        assert out.read_text() == "the last good result\n"


def test_dash_writes_to_standard_output_not_a_file_named_dash(model, corpus, tmp_path):
    done = subprocess.run([sys.executable, "-m", "wubitok", "encode", "-m", str(model), "--file", str(corpus),
                           "-o", "-", "--format", "jsonl", "-q"], capture_output=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(b'{"ids":') > 10 and not (tmp_path / "-").exists()
