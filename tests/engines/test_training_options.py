"""One training-options object: the shared options once (TrainingArgs), each engine's own on top (Options)."""
from __future__ import annotations

import inspect
from dataclasses import fields

import pytest

from wubitok.engines.base import EngineOptions, Tokenizer, available_models, engine_class
from wubitok.paths import resources_dir

TEXT = (resources_dir() / "samples" / "fortunes-zh.txt").read_text(encoding="utf-8")[:3000]
ENGINES = available_models()
# What each engine states as its own, and nothing more.
OWN = {
    "wubi-bpe": {"codec", "pre_tokens", "workers"},
    "bpe": {"pattern"},
    "wordpiece": {"lowercase", "strip_accents", "max_input_chars_per_word", "limit_alphabet"},
    "unigram": {"byte_fallback", "max_piece_length", "seed_size", "shrinking_factor", "num_sub_iterations",
                "whitespace_pieces"},
}


@pytest.mark.parametrize("model_type", ENGINES)
def test_each_engine_states_only_its_own_options_and_writes_no_training_method(model_type):
    cls = engine_class(model_type)
    assert issubclass(cls.Options, EngineOptions)
    assert {f.name for f in fields(cls.Options)} == OWN[model_type]
    assert set(cls.Options.counted) <= OWN[model_type]
    for method in ("train", "count", "train_from_counts"):
        assert method not in vars(cls), f"{cls.__name__} writes {method} out again"
        assert inspect.getattr_static(cls, method) is inspect.getattr_static(Tokenizer, method)


@pytest.mark.parametrize("model_type", ENGINES)
def test_the_defaults_of_the_options_train_the_model_no_options_train(model_type):
    cls = engine_class(model_type)
    defaults = {f.name: f.default for f in fields(cls.Options)}
    plain = cls.train([TEXT], vocab_size=600)
    assert cls.train([TEXT], vocab_size=600, **defaults).to_json() == plain.to_json()
    counted = {name: defaults[name] for name in cls.Options.counted}
    assert cls.count([TEXT], **counted) == cls.count([TEXT])
    from_counts = {k: v for k, v in defaults.items() if k not in cls.Options.text_only}
    assert cls.train_from_counts(cls.count([TEXT]), vocab_size=600, **from_counts).to_json() == plain.to_json()


@pytest.mark.parametrize("model_type", ENGINES)
def test_an_option_a_method_does_not_take_is_a_type_error_naming_it(model_type):
    cls = engine_class(model_type)
    with pytest.raises(TypeError, match=r"train\(\) got an unexpected keyword argument 'dropout'"):
        cls.train([TEXT], dropout=0.1)
    not_counted = sorted(OWN[model_type] - set(cls.Options.counted))
    if not_counted:
        with pytest.raises(TypeError, match=f"count\\(\\) got an unexpected keyword argument '{not_counted[0]}'"):
            cls.count([TEXT], **{not_counted[0]: None})
    for name in cls.Options.text_only:
        with pytest.raises(TypeError, match=name):
            cls.train_from_counts({"a": 1}, **{name: 1})


@pytest.mark.parametrize("model_type", ENGINES)
def test_train_on_a_model_retrains_that_model_in_place(model_type, tmp_path):
    # As tokenizers.Tokenizer.train: ``t.train(...)`` trains t; options not given are t's own.
    cls = engine_class(model_type)
    model = cls.train([TEXT[:1000]], vocab_size=400, special_tokens=["[X]"])
    assert model.train([TEXT], vocab_size=600) is model
    assert model.to_json() == cls.train([TEXT], vocab_size=600, special_tokens=["[X]"]).to_json()
    counts = cls.count([TEXT[:2000]])
    assert model.train_from_counts(counts, vocab_size=500) is model
    assert model.to_json() == cls.train_from_counts(counts, vocab_size=500, special_tokens=["[X]"]).to_json()
    model.save(tmp_path / "m.json")
    assert (tmp_path / "m.json").read_text(encoding="utf-8") == model.to_json()


def test_an_empty_wubi_bpe_trains_in_place_with_its_own_codec(tmp_path):
    from wubitok.engines.bpe.wubi import WubiBPE
    from wubitok.wubi.codec import CodecOptions

    codec = CodecOptions(code="full")
    t = WubiBPE(codec=codec, pre_tokens="clause")
    t.train([TEXT], vocab_size=500)
    t.save(tmp_path / "m.json")
    again = Tokenizer.load(tmp_path / "m.json")
    assert len(again.merges) == 500 - t.first_merge_id > 0
    assert again.to_json() == WubiBPE.train([TEXT], vocab_size=500, codec=codec, pre_tokens="clause").to_json()
