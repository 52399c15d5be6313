"""The --train experiment end to end: four engines trained alike, measured on held-out text."""
from __future__ import annotations

import threading

import pytest

from wubitok.compare import train_and_compare
from wubitok.compare.experiment import DEFAULT_MODELS
from wubitok.engines.base import load_tokenizer
from wubitok.errors import Cancelled, FileError, InputError
from wubitok.paths import resources_dir

SAMPLES = resources_dir() / "samples"
# Above the training text's 1,573 distinct characters plus the 256 bytes: a Unigram
# vocabulary, like SentencePiece's, keeps every character seen.
VOCAB = 2000


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    d = tmp_path_factory.mktemp("experiment")
    train, held = d / "train.txt", d / "held.txt"
    train.write_text("\n".join((SAMPLES / "tang300.txt").read_text(encoding="utf-8").splitlines()[:600]) + "\n",
                     encoding="utf-8")
    # Held-out: other poems, plus Latin, characters no model saw and a literal "<unk>"
    # (text, not an unknown token, for the lossless engines).
    held.write_text((SAMPLES / "song100.txt").read_text(encoding="utf-8") + "Hello, world 2024! 鑫𠀀 <unk>\n",
                    encoding="utf-8")
    return train, held, d


@pytest.fixture(scope="module")
def experiment(corpus):
    train, held, d = corpus
    stages: list[str] = []
    result = train_and_compare([train], [held], VOCAB, out_dir=d / "models",
                               progress=lambda stage, done, total: stages.append(stage))
    return result, stages


def test_every_engine_is_trained_and_measured(experiment, corpus):
    result, stages = experiment
    _, held, _ = corpus
    assert [r.name for r in result.results] == list(DEFAULT_MODELS)
    held_lines = [line for line in held.read_text(encoding="utf-8").splitlines() if line]
    for r in result.results:
        assert r.lines == len(held_lines) and r.chars == len(held.read_text(encoding="utf-8"))
        assert 0 < r.vocab_used <= r.vocab_size <= VOCAB
        assert r.train_seconds is not None and r.train_seconds > 0
        assert 0 < r.renyi_efficiency <= 1
    # Progress: each training announced under its own name, then the comparison.
    for model in DEFAULT_MODELS:
        assert any(s.startswith(f"training {model}: ") for s in stages)
    assert stages[-1] == "encoding"


def test_lossless_engines_round_trip_and_wordpiece_does_not(experiment):
    result, _ = experiment
    by_name = {r.name: r for r in result.results}
    for name in ("wubi-bpe", "bpe", "unigram"):
        assert by_name[name].roundtrip_rate == 1.0 and by_name[name].unk_tokens == 0
    # WordPiece drops spacing and maps unseen characters (鑫, 𠀀) to [UNK].
    assert by_name["wordpiece"].roundtrip_rate < 1.0 and by_name["wordpiece"].unk_tokens > 0


def test_saved_models_give_the_measured_counts(experiment, corpus):
    result, _ = experiment
    _, held, _ = corpus
    for r in result.results:
        tok = load_tokenizer(result.model_paths[r.name])
        assert type(tok) is type(result.tokenizers[r.name])
        assert len(tok.encode(held.read_text(encoding="utf-8")).ids) == r.tokens  # the file, as the library counts it


def test_bad_held_out_fails_before_any_training(corpus):
    train, _, d = corpus
    stages = []
    with pytest.raises(FileError, match="no such file"):
        train_and_compare([train], [d / "missing.txt"], VOCAB, progress=lambda *a: stages.append(a))
    assert stages == []
    with pytest.raises(InputError, match="unknown model type"):
        train_and_compare([train], [train], VOCAB, models=["bpe", "nope"])


def test_cancel_stops_training(corpus):
    train, held, _ = corpus
    cancel = threading.Event()

    def progress(stage, done, total):
        cancel.set()

    with pytest.raises(Cancelled):
        train_and_compare([train], [held], VOCAB, models=["bpe"], progress=progress, cancel=cancel)
