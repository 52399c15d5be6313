"""Tokenizer files: the bundled folder, what kind a file is, loading any kind."""
from __future__ import annotations

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from wubitok.engines.base import load_tokenizer
from wubitok.errors import FileError
from wubitok.services.model_files import (
    KIND_HF,
    KIND_SPM,
    KIND_TIKTOKEN,
    KIND_WUBITOK,
    bundled_models_dir,
    guess_kind,
    load_model_file,
)

BUNDLED = sorted(bundled_models_dir().glob("*.json"))


def test_bundled_models_are_ours_and_load_as_themselves():
    assert {p.stem for p in BUNDLED} >= {"wubi-bpe-6000", "bpe-6000", "wordpiece-6000", "unigram-6000"}
    for path in BUNDLED:
        assert guess_kind(path) == KIND_WUBITOK
        text = "五笔字型 Wubi 123"
        assert load_model_file(path).encode(text).ids == load_tokenizer(path).encode(text).ids


def test_a_hugging_face_file_is_recognised_and_loaded(tmp_path):
    hf = Tokenizer(models.BPE(unk_token="[UNK]"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.BpeTrainer(vocab_size=40, special_tokens=["[UNK]"])
    hf.train_from_iterator(["low lower newest widest"] * 20, trainer)
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    assert guess_kind(path) == KIND_HF
    assert load_model_file(path).encode("lower newest").ids == hf.encode("lower newest").ids


def test_kinds_by_name_and_a_missing_file(tmp_path):
    assert guess_kind(tmp_path / "x.model") == KIND_SPM
    assert guess_kind(tmp_path / "cl100k.tiktoken") == KIND_TIKTOKEN
    missing = tmp_path / "gone.json"
    assert guess_kind(missing) == KIND_WUBITOK  # loading it says what is wrong
    with pytest.raises(FileError):
        load_model_file(missing)
