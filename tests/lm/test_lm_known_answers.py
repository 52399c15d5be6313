"""wubitok.lm against answers known in advance: tiny models, a few hundred steps at most."""
from __future__ import annotations

import math
import threading
from dataclasses import replace

import numpy as np
import pytest

from wubitok.engines.base import Encoding, load_tokenizer
from wubitok.errors import Cancelled
from wubitok.lm.chars import CharTokenizer
from wubitok.lm.data import Tokenized, char_bits, encode_text
from wubitok.lm.experiment import LmConfig, evaluate_tokenizers
from wubitok.paths import resources_dir

TINY = LmConfig(n_layer=1, n_head=2, d_model=32, context_chars=32, batch=8, steps=150, lr=1e-2, warmup=10, seeds=(0,))
SAMPLES = resources_dir() / "samples"


def poems() -> str:
    return (SAMPLES / "tang300.txt").read_text(encoding="utf-8")


class TwoPieces:
    """Spells each character of an alphabet in two ids, both with the character's span (as byte pieces are)."""

    def __init__(self, alphabet: str):
        self.index = {c: i for i, c in enumerate(alphabet)}

    @property
    def vocab_size(self) -> int:
        return 2 * len(self.index)

    def encode(self, text: str, *, add_special_tokens: bool = False) -> Encoding:
        ids = [2 * self.index[c] + half for c in text for half in (0, 1)]
        offsets = [(i, i + 1) for i in range(len(text)) for _ in (0, 1)]
        return Encoding(ids, [str(i) for i in ids], offsets, [True] * len(ids))


def test_a_token_is_shared_by_its_characters_and_a_character_carries_its_pieces():
    # Tokens: "ab" (2 chars), then two pieces of "c", then "d".
    text = Tokenized(np.array([1, 2, 3, 4]), np.array([0, 2, 2, 3]), np.array([2, 3, 3, 4]), 4)
    bits = char_bits(text, np.array([4.0, 1.0, 2.0, 5.0]))
    assert bits.tolist() == [2.0, 2.0, 3.0, 5.0]
    assert bits.sum() == 12.0


def test_spans_of_a_real_tokenizer_cover_the_text():
    text = poems()[:3000]
    tok = load_tokenizer(resources_dir() / "models" / "wubi-bpe-6000.json")
    encoded = encode_text(tok, text)
    covered = char_bits(encoded, np.ones(len(encoded.ids)))
    assert covered.sum() == pytest.approx(len(encoded.ids))
    assert (covered > 0).all()  # every character is covered by some token


def test_an_untrained_model_scores_log2_vocab_per_token():
    text = poems()
    train, test = text[:20000], text[20000:24000]
    chars = CharTokenizer.from_text(train, 2000)
    wubi = load_tokenizer(resources_dir() / "models" / "wubi-bpe-6000.json")
    result = evaluate_tokenizers([("chars", chars), ("wubi", wubi)], train, test, LmConfig(steps=0, seeds=(0,)))
    for score in result.scores:
        expected = math.log2(score.vocab) * score.tokens_per_char
        assert score.bits_per_char.mean == pytest.approx(expected, rel=0.02)


def test_text_seen_in_training_scores_far_lower_than_unrelated_text():
    train = poems()[:3000]
    unrelated = (SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8")[:1000]
    tok = CharTokenizer.from_text(train + unrelated, 4000)
    config = replace(TINY, batch=16, steps=200)
    seen = evaluate_tokenizers([("chars", tok)], train, train[:1000], config).scores[0].bits_per_char.mean
    new = evaluate_tokenizers([("chars", tok)], train, unrelated, config).scores[0].bits_per_char.mean
    assert seen < 0.5 * new


def test_a_perfect_prediction_costs_nothing_however_the_text_is_split():
    alphabet = "天地玄黄宇宙洪荒日月盈昃辰宿列张"
    text = alphabet * 300
    splits = [("whole", CharTokenizer.from_text(text, 300)), ("two pieces", TwoPieces(alphabet))]
    result = evaluate_tokenizers(splits, text, alphabet * 20, TINY)
    assert [s.tokens_per_char for s in result.scores] == [1.0, 2.0]
    for score in result.scores:
        assert score.bits_per_char.mean < 0.05, score.name


def test_cancel_stops_training_and_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cancel = threading.Event()
    stages = []

    def progress(stage, done, total):
        stages.append(stage)
        if stage.startswith("training") and done == 3:
            cancel.set()

    text = poems()[:5000]
    with pytest.raises(Cancelled):
        evaluate_tokenizers([("chars", CharTokenizer.from_text(text, 1000))], text, text[:500], TINY,
                            progress=progress, cancel=cancel)
    assert not any(s.startswith("testing") for s in stages)
    assert list(tmp_path.iterdir()) == []


def test_the_same_seed_gives_the_same_numbers():
    text = poems()[:8000]
    tok = CharTokenizer.from_text(text, 1500)
    config = LmConfig(n_layer=1, n_head=2, d_model=32, context_chars=32, batch=8, steps=30, seeds=(0, 1))

    def numbers():
        result = evaluate_tokenizers([("chars", tok)], text[:7000], text[7000:], config)
        return [(r.bits_per_char, r.rare_bits_per_char, r.train_loss) for r in result.scores[0].runs]

    first = numbers()
    assert first == numbers()
    assert first[0] != first[1]  # and another seed, other numbers
