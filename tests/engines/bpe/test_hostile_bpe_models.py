"""Edited or crafted BPE model files: they load and lose nothing, or are refused in one line.

A model file is data a user may have edited or been sent: a pre-tokenizer
pattern that skips text must not make encoding drop it, and merges that
double a token at each step must not spell out a token of 2**n symbols.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.cli import main
from wubitok.engines.base import tokenizer_from_dict
from wubitok.engines.bpe.byte_level import ByteLevelBPE
from wubitok.engines.bpe.limits import MAX_TOKEN_SYMBOLS
from wubitok.engines.bpe.wubi import WubiBPE
from wubitok.errors import ModelError

# Patterns that match nothing, skip text, match only after a look-behind,
# only at the end, match empty strings, or capture a group (findall would
# return the group, not the match).  ("(a+)+$", a nested repeat, is refused at load:
# tests/reliability/test_bounded_readers.py.)
EDITED_PATTERNS = ["", "a", "(?<=x)y", "(a+)$", "x*", r"(\p{Han})\p{Han}", r"\s"]
TEXT = "你好 abc\n<s>xy aaa 中文\t"


@pytest.fixture(scope="module")
def trained():
    return ByteLevelBPE.train(["你好 abc hello world xy aaa 中文 " * 40], vocab_size=320, special_tokens=["<mask>"])


def with_pattern(model, pattern):
    data = model.to_dict()
    data["pre_tokenizer"]["pattern"] = pattern
    return tokenizer_from_dict(json.loads(json.dumps(data)))


@pytest.mark.parametrize("pattern", EDITED_PATTERNS)
def test_an_edited_pattern_never_drops_text(trained, pattern):
    model = with_pattern(trained, pattern)
    enc = model.encode(TEXT)
    assert model.decode(enc.ids) == TEXT
    # the offsets cover the text in order, with no gap
    assert enc.offsets[0][0] == 0 and enc.offsets[-1][1] == len(TEXT)
    assert all(a[1] in (b[0], b[0] + 1) for a, b in zip(enc.offsets, enc.offsets[1:]))


@settings(max_examples=60, deadline=None)
@given(pattern=st.sampled_from(EDITED_PATTERNS), text=st.text(alphabet="ab xy你好\n<s>", max_size=30))
def test_every_text_round_trips_whatever_the_pattern(trained, pattern, text):
    model = with_pattern(trained, pattern)
    assert model.decode(model.encode(text).ids) == text


@pytest.mark.parametrize("pattern", ["a", "(?<=x)y"])
def test_training_with_a_partial_pattern_counts_the_gaps_too(pattern):
    text = "xy abc xyz " * 20
    counts = ByteLevelBPE.count(text, pattern=pattern)
    assert sum(len(piece) * n for piece, n in counts.items()) == len(text)
    model = ByteLevelBPE.train(text, vocab_size=300, pattern=pattern)
    assert model.decode(model.encode(text).ids) == text


def doubling_merges(first: int, base: int, steps: int) -> list[list[int]]:
    """Merge ``base`` with itself, then each new token with itself: token n has 2**(n+1) symbols."""
    return [[base, base]] + [[first + i, first + i] for i in range(steps - 1)]


def test_doubling_merges_in_a_byte_level_model_are_refused_on_load(tmp_path, capsys):
    data = ByteLevelBPE().to_dict()
    data["merges"] = doubling_merges(4 + 256, 4 + ord("a"), 60)
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert path.stat().st_size < 4000
    assert main(["encode", "-m", str(path), "aaaa"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"a token has at most {MAX_TOKEN_SYMBOLS}" in err


def test_doubling_merges_in_a_wubi_bpe_model_are_refused_on_load():
    data = WubiBPE().to_dict()
    first = WubiBPE().first_merge_id
    data["merges"] = doubling_merges(first, 10, 60)
    with pytest.raises(ModelError, match=f"makes a token of 2048 symbols; a token has at most {MAX_TOKEN_SYMBOLS}"):
        tokenizer_from_dict(data)


def test_merges_up_to_the_limit_still_load_and_encode():
    steps = MAX_TOKEN_SYMBOLS.bit_length() - 1  # the last token has exactly MAX_TOKEN_SYMBOLS symbols
    model = ByteLevelBPE(merges=[(97, 97)] + [(256 + i, 256 + i) for i in range(steps - 1)])
    text = "a" * (3 * MAX_TOKEN_SYMBOLS + 5)
    enc = model.encode(text)
    assert model.decode(enc.ids) == text and len(enc) == 3 + 2


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("engine", [ByteLevelBPE, WubiBPE])
def test_training_never_makes_a_token_longer_than_the_limit(engine, backend):
    # one pre-token of 3,000 dashes, often: unbounded, BPE would learn it whole
    text = ("-" * 3000 + "\n") * 8
    model = engine.train(text, vocab_size=engine().vocab_size + 40, min_frequency=2, backend=backend)
    longest = max(len(model.decode([i]).encode("utf-8")) for i in range(model.vocab_size)
                  if model.id_to_token(i) not in model.special_tokens)
    # close to the limit (without it, one token of 3,000 dashes), never over
    assert MAX_TOKEN_SYMBOLS * 0.9 < longest <= MAX_TOKEN_SYMBOLS
    assert model.decode(model.encode(text).ids) == text
    assert type(model).from_dict(model.to_dict()).to_json() == model.to_json()


def test_a_huge_dictionary_hash_is_quoted_as_an_excerpt():
    from wubitok.paths import resources_dir

    data = json.loads((resources_dir() / "models" / "wubi-bpe-6000.json").read_text(encoding="utf-8"))
    data["dictionary_hash"] = "x" * 1_000_000
    with pytest.raises(ModelError) as info:
        tokenizer_from_dict(data)
    assert "made with dictionary" in str(info.value) and len(str(info.value)) < 300
