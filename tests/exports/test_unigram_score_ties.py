"""Exact Viterbi ties in a Unigram model break the same way in its HF ``tokenizer.json``.

Both encoders keep the first path found into a position (a strict ``>``,
starts taken left to right), so on a tie the path whose last piece starts
earliest wins, in ours and in HF's (as in sentencepiece's).  What differed
was the scores themselves: HF read about one shortest decimal in six one
unit in the last place off, so a tie here was none there.  sentencepiece
keeps scores and path sums in 32 bits, so its ties are others unless the
scores and sums are exact in 32 bits (documented in its exporter).
"""
from __future__ import annotations

import json
import random

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizer

from wubitok.engines.base import load_tokenizer
from wubitok.engines.unigram.model import Unigram
from wubitok.exports.hf_json import unigram_tokenizer_json
from wubitok.exports.sentencepiece_model import sentencepiece_model_bytes
from wubitok.paths import resources_dir

# HF read repr(MISREAD) as the next double up (and 2 * MISREAD exactly), so
# "▁" + "▁" beat "▁▁" there; -1.5 is read exactly by any reader.
MISREAD = -5.265375351775711
SCORES = {"misread-by-repr": MISREAD, "short-decimal": -1.5}


def tie_model(a: float) -> Unigram:
    """Pieces whose scores tie exactly: a piece of two scores twice a piece of one."""
    return Unigram([("▁", a), ("x", a), ("▁▁", 2 * a), ("xx", 2 * a), ("▁x", 2 * a), ("▁▁▁▁", 4 * a)])


def hf_scores(model: Unigram) -> list[float]:
    hf = HFTokenizer.from_str(unigram_tokenizer_json(model))
    return [score for _, score in json.loads(hf.to_str())["model"]["vocab"]]


@pytest.fixture(scope="module", params=list(SCORES), ids=list(SCORES))
def pair(request) -> tuple[Unigram, HFTokenizer]:
    model = tie_model(SCORES[request.param])
    return model, HFTokenizer.from_str(unigram_tokenizer_json(model))


def test_a_tie_goes_to_the_longer_first_piece_in_both(pair):
    ours, hf = pair
    # on a tie the last piece that starts earliest wins, and so on backwards
    for text, tokens in (("  ", ["▁▁"]), ("   ", ["▁", "▁▁"]), ("    ", ["▁▁▁▁"]), ("    x", ["▁", "▁▁", "▁x"]),
                         ("xxx", ["x", "xx"]), (" xx", ["▁", "xx"])):
        assert ours.encode(text).tokens == tokens, text
        assert hf.encode(text, add_special_tokens=False).tokens == tokens, text


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(" x"), max_size=40))
def test_ties_on_spaces_and_letters_give_our_ids(pair, text):
    ours, hf = pair
    assert hf.encode(text, add_special_tokens=False).ids == ours.encode(text).ids


def test_hf_reads_the_exported_scores_as_ours():
    bundled = load_tokenizer(resources_dir() / "models" / "unigram-6000.json")
    floor = min(s for i in range(bundled.vocab_size) if (s := bundled.score(i)) is not None)
    assert hf_scores(bundled) == [floor if (s := bundled.score(i)) is None else s for i in range(bundled.vocab_size)]
    rng = random.Random(7)
    scores = [-rng.uniform(0.0, 60.0) for _ in range(5000)]
    model = Unigram([(f"p{i}", s) for i, s in enumerate(scores)])
    read = dict(zip((model.id_to_token(i) for i in range(model.vocab_size)), hf_scores(model)))
    # Written as repr, 15% came back off; the few left have no decimal that
    # serde_json's fast path reads as them (documented in hf_json).
    assert sum(read[f"p{i}"] != s for i, s in enumerate(scores)) < 0.01 * len(scores)


def sentencepiece(model: Unigram) -> spm.SentencePieceProcessor:
    return spm.SentencePieceProcessor(model_proto=sentencepiece_model_bytes(model))


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(" x"), max_size=40))
def test_sentencepiece_breaks_ties_as_we_do_where_its_32_bits_are_exact(text):
    ours = tie_model(SCORES["short-decimal"])  # multiples of 1.5: exact in 32 bits, sums too
    assert sentencepiece(ours).encode(text, out_type=str) == ours.encode(text).tokens


def test_sentencepiece_sums_in_32_bits_so_other_ties_break_otherwise():
    ours = tie_model(MISREAD)
    # 64-bit sums make x + xx + xx + x the best; in 32 bits xx + xx + xx ties and comes first
    assert ours.encode("xxxxxx").tokens == ["x", "xx", "xx", "x"]
    assert sentencepiece(ours).encode("xxxxxx", out_type=str) == ["xx", "xx", "xx"]


def test_a_trained_model_scores_on_the_grid_so_sentencepiece_gives_our_ids():
    # Trained scores are multiples of 1/256 (SCORE_GRID): every path sum is exact in 32 bits
    # too, so sentencepiece's ties are ours.  Fortunes: modern prose, quotations with runs of
    # spaces (whitespace pieces), where 32-bit sums broke ties otherwise on 4% of lines.
    from wubitok.engines.unigram.model import SCORE_GRID

    lines = [ln for ln in (resources_dir() / "samples" / "fortunes-zh.txt").read_text(encoding="utf-8").splitlines()
             if ln.strip() and "\u2581" not in ln and "<" not in ln]
    model = Unigram.train(["\n".join(lines[::2])], vocab_size=3000)
    assert all((s := model.score(i)) is None or s * SCORE_GRID == int(s * SCORE_GRID) for i in range(model.vocab_size))
    held = lines[1::2][:3000]
    theirs = sentencepiece(model).encode(held)
    assert [line for line, enc, ids in zip(held, model.encode_batch(held), theirs) if enc.ids != ids] == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-6000, -1), min_size=6, max_size=6), st.text(st.sampled_from(" x"), max_size=60))
def test_grid_scores_tie_alike_in_sentencepiece(units, text):
    # Any scores on the grid, ties or not: sentencepiece's 32-bit sums pick our path.
    ours = Unigram([(p, u / 256) for p, u in zip(["▁", "x", "▁▁", "xx", "▁x", "▁▁▁▁"], units)])
    assert sentencepiece(ours).encode(text) == ours.encode(text).ids
