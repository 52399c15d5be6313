"""Training from counts made anywhere: the same model for any number of workers or partitions."""
from __future__ import annotations

import pytest

from wubitok.engines.base import engine_class
from wubitok.paths import resources_dir
from wubitok.scale import count_pretokens, train_from_counts

SAMPLES = resources_dir() / "samples"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Two files, with blank-line runs, indented lines and tabs across the cut places."""
    folder = tmp_path_factory.mktemp("corpus")
    a = folder / "a.txt"
    a.write_text((SAMPLES / "tang300.txt").read_text(encoding="utf-8")[:12000]
                 + "\n\n\n  indented line\n\tTabbed, English words 123 <s> x\n", encoding="utf-8")
    b = folder / "b.txt"
    b.write_text((SAMPLES / "song100.txt").read_text(encoding="utf-8")[:8000], encoding="utf-8")
    return [a, b]


@pytest.mark.parametrize("model", ["wubi-bpe", "bpe", "wordpiece", "unigram"])
def test_ranges_count_what_the_engine_counts(corpus, model):
    whole = engine_class(model).count(files=corpus)
    assert count_pretokens(files=corpus, model=model, range_bytes=700) == whole
    assert count_pretokens(files=corpus, model=model, range_bytes=3000, workers=2) == whole


@pytest.mark.parametrize("model, vocab", [("wubi-bpe", 700), ("bpe", 400), ("wordpiece", 600)])
def test_workers_and_a_cluster_give_the_same_model(corpus, model, vocab):
    trained = engine_class(model).train(files=corpus, vocab_size=vocab, backend="python").to_json()
    two = train_from_counts(count_pretokens(files=corpus, model=model, workers=2, range_bytes=3000), model=model,
                            vocab_size=vocab, backend="python")
    assert two.to_json() == trained
    if model == "wubi-bpe":
        dask = train_from_counts(count_pretokens(files=corpus, model=model, cluster="local:2", range_bytes=3000),
                                 model=model, vocab_size=vocab, backend="python")
        assert dask.to_json() == trained


def test_sample_and_pruning(corpus):
    counts = count_pretokens(files=corpus, model="wubi-bpe", sample=50, seed=3)
    assert counts == count_pretokens(files=corpus, model="wubi-bpe", sample=50, seed=3)
    assert 0 < sum(counts.values()) < sum(count_pretokens(files=corpus, model="wubi-bpe").values())
    assert len(count_pretokens(files=corpus, model="bpe", max_words=100)) <= 100
