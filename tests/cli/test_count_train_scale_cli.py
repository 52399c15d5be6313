"""wubitok count, and wubitok train from counts (--workers, --cluster, --counts), --sample:
the model file is byte for byte the one training in one process gives."""
from __future__ import annotations

import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.cli_run import run
from wubitok.engines.base import engine_class
from wubitok.fileio import iter_lines
from wubitok.paths import resources_dir
from wubitok.scale.counts import read_counts_tsv, sample_lines

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = resources_dir() / "samples"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Three files: one over the 1 MB range size (so it is cut), indented and English lines, one in GBK."""
    folder = tmp_path_factory.mktemp("corpus")
    big = folder / "big.txt"
    big.write_text((SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8") * 2, encoding="utf-8")
    mixed = folder / "mixed.txt"
    mixed.write_text((SAMPLES / "tang300.txt").read_text(encoding="utf-8")
                     + "\n\n  indented line\n\tTabbed, English words 123 <s>\n", encoding="utf-8")
    gbk = folder / "gbk.txt"
    gbk.write_bytes((SAMPLES / "song100.txt").read_text(encoding="utf-8").encode("gb18030"))
    assert big.stat().st_size > 1 << 20
    return [big, mixed, gbk]


def _train(capsys, out, model, vocab, *extra):
    code, _, err = run(capsys, "train", "-m", model, "-v", vocab, "-q", "-o", out, *extra)
    assert code == 0, err
    return out.read_bytes()


def test_wubi_bpe_from_workers_a_cluster_and_counts_files_is_the_same_file(capsys, tmp_path, corpus):
    one = _train(capsys, tmp_path / "one.json", "wubi-bpe", 2000, *corpus)
    assert _train(capsys, tmp_path / "w2.json", "wubi-bpe", 2000, "--workers", 2, *corpus) == one
    assert _train(capsys, tmp_path / "dask.json", "wubi-bpe", 2000, "--cluster", "local:2", *corpus) == one
    # Counted in parts (as Spark or Ray would), trained from the files, and from a file plus text.
    for i, f in enumerate(corpus):
        code, _, err = run(capsys, "count", "-m", "wubi-bpe", "--file", f, "-o", tmp_path / f"{i}.tsv",
                           *(["--progress"] if i == 0 else []))
        assert code == 0 and f"wrote {tmp_path / f'{i}.tsv'}" in err and ("counting" in err) == (i == 0)
    parts = [a for i in range(3) for a in ("--counts", tmp_path / f"{i}.tsv")]
    assert _train(capsys, tmp_path / "tsv.json", "wubi-bpe", 2000, *parts) == one
    assert _train(capsys, tmp_path / "mix.json", "wubi-bpe", 2000, *parts[:4], corpus[2]) == one


def test_clause_pre_tokens_counted_and_trained_from_is_the_same_file(capsys, tmp_path, corpus):
    one = _train(capsys, tmp_path / "one.json", "wubi-bpe", 2000, "--pre-tokens", "clause", *corpus)
    code, _, err = run(capsys, "count", "-m", "wubi-bpe", "--pre-tokens", "clause", "--file", corpus[1],
                       "-o", tmp_path / "clause.tsv", "-q")
    assert code == 0, err
    # A clause model file counts with its own cut.
    code, _, err = run(capsys, "count", "-m", tmp_path / "one.json", "-q", *(a for f in (corpus[0], corpus[2])
                                                                            for a in ("--file", f)),
                       "-o", tmp_path / "model.tsv")
    assert code == 0, err
    parts = ["--counts", tmp_path / "clause.tsv", "--counts", tmp_path / "model.tsv"]
    assert _train(capsys, tmp_path / "tsv.json", "wubi-bpe", 2000, "--pre-tokens", "clause", *parts) == one
    joined = tmp_path / "joined.tsv"
    assert run(capsys, "count", "-m", "wubi-bpe", "--file", corpus[1], "-o", joined, "-q")[0] == 0
    assert joined.read_bytes() != (tmp_path / "clause.tsv").read_bytes()
    code, _, err = run(capsys, "count", "-m", "bpe", "--pre-tokens", "clause", "--file", corpus[1],
                       "-o", tmp_path / "x.tsv")
    assert code == 2 and err.count("\n") == 1 and "--pre-tokens is for wubi-bpe models, not bpe" in err
    assert not (tmp_path / "x.tsv").exists()


@pytest.mark.parametrize("model, vocab", [("bpe", 600), ("wordpiece", 800)])
def test_other_engines_from_workers(capsys, tmp_path, corpus, model, vocab):
    one = _train(capsys, tmp_path / "one.json", model, vocab, "--backend", "python", *corpus)
    assert _train(capsys, tmp_path / "two.json", model, vocab, "--backend", "python", "--workers", 2, *corpus) == one


def test_unigram_trains_from_run_counts_with_the_builtin_trainer(capsys, tmp_path, corpus):
    # Unigram's seeding searches substrings of the text: its count keeps each
    # script run whole (with the symbol after it), so the built-in trainer
    # learns from counts; sentencepiece reads sentences, so --backend fast cannot.
    small = corpus[1:]
    one = _train(capsys, tmp_path / "one.json", "unigram", 800, "--backend", "python", *small)
    assert _train(capsys, tmp_path / "two.json", "unigram", 800, "--workers", 2, *small) == one
    code, _, err = run(capsys, "train", "-m", "unigram", "-v", 800, "--backend", "fast", "--workers", 2,
                       "-o", tmp_path / "fast.json", corpus[1])
    assert code == 2 and err.count("\n") == 1 and "reads text, not counts" in err
    assert not (tmp_path / "fast.json").exists()


def test_count_writes_what_the_engine_counts(capsys, tmp_path, corpus):
    out = tmp_path / "c.tsv"
    code, _, err = run(capsys, "count", "-m", "bpe", "--file", corpus[1], "--file", corpus[2], "-o", out,
                       "--workers", 2)
    assert code == 0, err
    assert f"reading {corpus[2]} as GB18030" in err
    assert read_counts_tsv(out) == engine_class("bpe").count(files=corpus[1:])
    # A model file counts as its type does, with its special tokens.
    model = resources_dir() / "models" / "bpe-6000.json"
    again = tmp_path / "again.tsv"
    assert run(capsys, "count", "-m", model, "--file", corpus[1], "--file", corpus[2], "-o", again, "-q")[0] == 0
    assert again.read_bytes() == out.read_bytes()


@pytest.mark.parametrize("model_type, options", [
    ("wordpiece", {"lowercase": True, "strip_accents": True}),
    ("bpe", {"pattern": r"\S+|\s+"}),
    ("unigram", {"whitespace_pieces": False}),
    ("wubi-bpe", {"pre_tokens": "clause"}),
])
def test_a_model_file_counts_with_its_own_options(capsys, tmp_path, model_type, options):
    text = (SAMPLES / "tang300.txt").read_text(encoding="utf-8")[:3000] + "\nÉcole ÉCOLE   école  Tabbed\tWORDS\n"
    cls = engine_class(model_type)
    model = tmp_path / "model.json"
    cls.train(text, vocab_size=cls.min_vocab_size() + 50, **options).save(model)
    corpus = tmp_path / "c.txt"
    corpus.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "count", "-m", model, "--file", corpus, "-o", tmp_path / "c.tsv", "-q")
    assert code == 0, err
    counted = read_counts_tsv(tmp_path / "c.tsv")
    assert counted == cls.count(files=[corpus], **options)
    assert counted != cls.count(files=[corpus])  # the defaults cut this text otherwise


def test_sample_is_reproducible_and_is_training_on_the_sampled_lines(capsys, tmp_path, corpus):
    small = corpus[1:]
    a = _train(capsys, tmp_path / "a.json", "wubi-bpe", 900, "--sample", 300, "--seed", 7, *small)
    assert _train(capsys, tmp_path / "b.json", "wubi-bpe", 900, "--sample", 300, "--seed", 7, *small) == a
    assert _train(capsys, tmp_path / "c.json", "wubi-bpe", 900, "--sample", 300, "--seed", 8, *small) != a
    sampled = tmp_path / "sampled.txt"
    sampled.write_text("".join(sample_lines(iter_lines(small), 300, seed=7)), encoding="utf-8")
    assert _train(capsys, tmp_path / "d.json", "wubi-bpe", 900, sampled) == a
    # A sample as big as the corpus is the corpus.
    whole = _train(capsys, tmp_path / "w.json", "wubi-bpe", 900, *small)
    assert _train(capsys, tmp_path / "s.json", "wubi-bpe", 900, "--sample", 10**6, *small) == whole


def test_max_words_prunes_the_table(capsys, tmp_path, corpus):
    out = tmp_path / "c.tsv"
    assert run(capsys, "count", "-m", "wubi-bpe", "--file", corpus[0], "-o", out, "-q", "--max-words", 500)[0] == 0
    counts = read_counts_tsv(out)
    assert 0 < len(counts) <= 500
    full = engine_class("wubi-bpe").count(files=[corpus[0]])
    # Approximate: a word pruned in one range and seen again later counts from there on.
    assert len(full) > 500 and all(0 < n <= full[w] for w, n in counts.items())
    assert all(w in counts for w, _ in full.most_common(50))
    pruned = _train(capsys, tmp_path / "p.json", "wubi-bpe", 900, "--max-words", 500, corpus[0])
    assert pruned == _train(capsys, tmp_path / "p2.json", "wubi-bpe", 900, "--max-words", 500, "--workers", 2,
                            corpus[0])


def _one_line(capsys, *argv, match):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and match in err, err
    return err


def test_bad_input_is_one_line_and_leaves_nothing(capsys, tmp_path, corpus, monkeypatch):
    small = str(corpus[1])
    out = tmp_path / "out"
    out.mkdir()
    _one_line(capsys, "count", "-m", "wubi-bpe", "--file", small, "-o", out / "c.tsv", "--cluster", "tcp://127.0.0.1:9",
              match="cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    _one_line(capsys, "train", "-m", "wubi-bpe", "-v", 900, "-o", out / "m.json", "--cluster", "tcp://127.0.0.1:9",
              small, match="cannot reach the Dask scheduler")
    _one_line(capsys, "count", "-m", "wubi-bpe", "--file", small, "-o", tmp_path / "no" / "c.tsv",
              match="does not exist")
    _one_line(capsys, "count", "-m", "nope", "--file", small, "-o", out / "c.tsv", match="unknown model type 'nope'")
    _one_line(capsys, "train", "-m", "wubi-bpe", "-v", 900, "-o", out / "m.json", "--workers", 0, small,
              match="--workers must be")
    _one_line(capsys, "train", "-m", "wubi-bpe", "-v", 900, "-o", out / "m.json", "--sample", 10, "--workers", 2,
              small, match="--sample")
    _one_line(capsys, "train", "-m", "wubi-bpe", "-v", 900, "-o", out / "m.json", match="no corpus")
    bad = tmp_path / "bad.tsv"
    bad.write_text("word 3\n", encoding="utf-8")
    _one_line(capsys, "train", "-m", "wubi-bpe", "-v", 900, "-o", out / "m.json", "--counts", bad,
              match="line 1: not word<TAB>count")
    # The cluster extra missing: as if dask were not installed.
    monkeypatch.setitem(sys.modules, "distributed", None)
    _one_line(capsys, "count", "-m", "wubi-bpe", "--file", small, "-o", out / "c.tsv", "--cluster", "local:2",
              match="pip install 'wubitok[cluster]'")
    assert list(out.iterdir()) == []


def _with_small_disk():
    # A file-size limit makes every write past 4 KB fail with EFBIG, as a full disk fails with ENOSPC.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.parametrize("argv", [
    ["count", "-m", "wubi-bpe", "--file", "{corpus}", "-o", "{out}/c.tsv", "--workers", "2"],
    ["train", "-m", "bpe", "-v", "600", "--workers", "2", "-o", "{out}/m.json", "{corpus}"],
    ["encode", "-m", str(resources_dir() / "models" / "bpe-6000.json"), "--file", "{corpus}", "-o", "{out}/x.bin"],
])
def test_a_full_disk_is_one_line_and_leaves_no_file(tmp_path, corpus, argv):
    out = tmp_path / "out"
    out.mkdir()
    args = [a.format(corpus=corpus[1], out=out) for a in argv]
    proc = subprocess.run([sys.executable, "-m", "wubitok", *args, "-q"], capture_output=True, text=True,
                          preexec_fn=_with_small_disk, cwd=ROOT, timeout=300)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "File too large" in proc.stderr, proc.stderr
    assert list(out.iterdir()) == []
