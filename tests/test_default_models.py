"""The bundled default models: present, loadable, exact where lossless, reproducible."""
from __future__ import annotations

import importlib.util
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.base import load_tokenizer
from wubitok.fileio import iter_lines
from wubitok.paths import resources_dir

MODELS_DIR = resources_dir() / "models"


def _script():
    spec = importlib.util.spec_from_file_location("train_default_models", MODELS_DIR / "train_default_models.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()
PATHS = [SCRIPT.model_path(m) for m in SCRIPT.MODELS]
IDS = list(SCRIPT.MODELS)


@pytest.fixture(scope="module")
def models():
    return {m: load_tokenizer(p) for m, p in zip(SCRIPT.MODELS, PATHS)}


def test_one_file_per_model_and_nothing_else():
    assert sorted(p.name for p in MODELS_DIR.glob("*.json")) == sorted(p.name for p in PATHS)


@pytest.mark.parametrize("model_type", IDS)
def test_loads_as_its_type_with_the_documented_vocab_size(models, model_type):
    tok = models[model_type]
    assert tok.model_type == model_type
    assert 0.9 * SCRIPT.VOCAB_SIZE <= tok.vocab_size <= SCRIPT.VOCAB_SIZE
    readme = (MODELS_DIR / "README.md").read_text(encoding="utf-8")
    assert f"`{SCRIPT.model_path(model_type).name}`" in readme


@pytest.mark.parametrize("model_type", IDS)
def test_saving_again_gives_the_same_bytes(models, model_type):
    path = SCRIPT.model_path(model_type)
    assert models[model_type].to_json() == path.read_text(encoding="utf-8")
    assert json.loads(path.read_text(encoding="utf-8"))["model"] == model_type


@pytest.mark.parametrize("model_type", IDS)
def test_round_trip_on_the_sample_texts(models, model_type):
    tok = models[model_type]
    lines = [line for line in iter_lines(SCRIPT.corpus_files()) if line.strip()][::25]
    exact = sum(tok.decode(tok.encode(line).ids) == line for line in lines)
    if tok.lossless:
        assert exact == len(lines)
    else:
        # WordPiece loses whitespace by design (and unknown characters); apart
        # from whitespace, nearly every line must come back.
        def squeeze(s: str) -> str:
            return "".join(s.split())

        same = sum(squeeze(tok.decode(tok.encode(line).ids)) == squeeze(line) for line in lines)
        assert exact < len(lines) and same > 0.9 * len(lines)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60))
def test_lossless_models_round_trip_any_text(models, text):
    for tok in models.values():
        if tok.lossless:
            assert tok.decode(tok.encode(text).ids) == text


# Retraining all four takes well over the test budget (see README.md); the two
# quickest show that the script and the engines reproduce the committed bytes.
@pytest.mark.parametrize("model_type", ["wordpiece", "bpe"])
def test_the_script_reproduces_the_committed_file(tmp_path, model_type):
    path, _seconds = SCRIPT.train(model_type, tmp_path)
    assert path.read_bytes() == SCRIPT.model_path(model_type).read_bytes()


def test_the_wubi_bpe_model_keeps_each_of_the_500_most_used_characters_whole(models):
    # The most used characters of Rime's word list (resources/frequency/simplified.txt,
    # the weights of the words each character occurs in), each alone: one token.
    top = (resources_dir() / "frequency" / "simplified.txt").read_text(encoding="utf-8").split()[0][:500]
    tok = models["wubi-bpe"]
    assert len(set(top)) == 500
    assert [ch for ch in top if len(tok.encode(ch).ids) != 1] == []
    # and in a sentence: the Tokenize pane's demo has no piece of a character
    demo = tok.encode("五笔字型输入法是王永民在1983年发明的一种汉字输入法。")
    assert not any(demo.partial)
