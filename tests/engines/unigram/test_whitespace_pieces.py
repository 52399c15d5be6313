"""Whitespace-only pieces (sentencepiece's ``allow_whitespace_only_pieces``), against sentencepiece.

The oracle is sentencepiece trained on the same text with this engine's
settings (identity normalization, byte fallback, no dummy prefix, no
extra-whitespace removal), once with whitespace-only pieces and once without.
The text is indented: this project's engine sources (``wubitok/engines``,
the unigram package held out) as of commit b5e7f23, kept in ``data/`` so that
an edit to the engines does not retrain these models.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st
from test_unigram import assert_same_segmentation

from wubitok.engines.base import load_tokenizer
from wubitok.engines.pre_tokenizers.metaspace import count_runs, split_words
from wubitok.engines.unigram.model import Unigram
from wubitok.errors import ModelError
from wubitok.paths import resources_dir

DATA = Path(__file__).parent / "data"
TRAIN = (DATA / "engines-source-train.txt").read_text(encoding="utf-8")
HELD_OUT = (DATA / "engines-source-held-out.txt").read_text(encoding="utf-8")
VOCAB = 1200


def sentencepiece(whitespace_pieces: bool) -> spm.SentencePieceProcessor:
    proto = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(TRAIN.splitlines()), model_writer=proto, model_type="unigram", vocab_size=VOCAB,
        normalization_rule_name="identity", byte_fallback=True, character_coverage=1.0, add_dummy_prefix=False,
        remove_extra_whitespaces=False, split_by_whitespace=True, allow_whitespace_only_pieces=whitespace_pieces,
        max_sentence_length=1 << 20, num_threads=2, minloglevel=2)
    return spm.SentencePieceProcessor(model_proto=proto.getvalue())


@pytest.fixture(scope="module")
def ours():
    return {ws: Unigram.train(TRAIN, vocab_size=VOCAB, whitespace_pieces=ws) for ws in (True, False)}


@pytest.fixture(scope="module")
def theirs():
    return {ws: sentencepiece(ws) for ws in (True, False)}


def held_out_tokens(tok) -> int:
    # sentencepiece reads lines (a line break is not in its pieces): both count line by line
    return sum(len(tok.encode(line)) for line in HELD_OUT.splitlines() if line)


@pytest.mark.parametrize("ws", [True, False], ids=["whitespace-pieces", "one-per-space"])
def test_token_count_within_3_percent_of_sentencepiece_in_both_settings(ours, theirs, ws):
    mine, reference = held_out_tokens(ours[ws]), held_out_tokens(theirs[ws])
    assert abs(mine / reference - 1) <= 0.03, (mine, reference)


def test_whitespace_pieces_are_learned_and_the_default_and_better_on_indented_text(ours):
    default = Unigram.train(TRAIN, vocab_size=VOCAB)
    assert default.to_json() == ours[True].to_json()
    assert default.token_to_id("▁" * 8) is not None and ours[False].token_to_id("▁▁") is None
    assert held_out_tokens(ours[True]) < 0.85 * held_out_tokens(ours[False])
    indented = default.encode("        return x").tokens
    assert len(indented) <= 4 and not indented[0].strip("▁")  # eight spaces: one or two tokens


@pytest.mark.parametrize("ws", [True, False], ids=["whitespace-pieces", "one-per-space"])
def test_viterbi_equals_sentencepiece_on_its_own_pieces(theirs, ws):
    sp = theirs[ws]
    pieces = [(sp.id_to_piece(i), sp.get_score(i)) for i in range(sp.get_piece_size())
              if not (sp.is_byte(i) or sp.is_control(i) or sp.is_unknown(i))]
    model = Unigram(pieces, whitespace_pieces=ws)
    # lines without what this engine treats apart: a literal "▁" (bytes), a tab, special tokens
    lines = [ln for ln in HELD_OUT.splitlines()
             if ln and not any(t in ln for t in ("\t", "▁", "<unk>", "<s>", "</s>"))]
    for line in lines[:400]:
        assert_same_segmentation(model.encode(line).tokens, sp.encode(line, out_type=str), dict(pieces), line)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([" ", "  ", "    ", "\n", "\t", "x", "def", "中文", "▁", "<s>", "\u3000"]),
                max_size=16).map("".join))
def test_lossless_with_whitespace_pieces(ours, text):
    model = ours[True]
    enc = model.encode(text)
    assert model.decode(enc.ids) == text
    assert enc.offsets[-1][1] == len(text) if text else enc.ids == []


@settings(max_examples=100, deadline=None)
@given(st.text(st.sampled_from(list(" ab中\n\t▁")), max_size=40))
def test_words_and_runs_cover_the_text(text):
    words = split_words(text, whitespace_runs=True)
    assert "".join(w.replace("▁", " ") if w else "▁" for w, _ in words) == text
    assert all(not w.lstrip("▁") or "▁" not in w.lstrip("▁") for w, _ in words)
    for run in count_runs(text, whitespace_runs=True):
        body = run[:-1]
        assert "▁" not in body.lstrip("▁") and (body.count("▁") <= 1 or not body.strip("▁"))


def test_the_setting_is_saved_only_when_on_and_old_models_load_without_it(ours, tmp_path):
    data = json.loads(ours[True].to_json())
    assert data["whitespace_pieces"] is True and "whitespace_pieces" not in json.loads(ours[False].to_json())
    bundled = load_tokenizer(resources_dir() / "models" / "unigram-6000.json")
    assert bundled.whitespace_pieces is False
    path = tmp_path / "m.json"
    ours[True].save(path)
    assert load_tokenizer(path).encode(HELD_OUT[:2000]).ids == ours[True].encode(HELD_OUT[:2000]).ids
    data["pieces"].append(["▁▁x", -30.0])  # a piece with inner spaces that are not all it is
    with pytest.raises(ModelError, match="invalid piece"):
        Unigram.from_dict(data)


def test_the_hugging_face_export_keeps_runs_of_spaces_together(ours):
    from tokenizers import Tokenizer as HFTokenizer

    from wubitok.exports.hf_json import unigram_tokenizer_json

    hf = HFTokenizer.from_str(unigram_tokenizer_json(ours[True]))
    lines = [ln for ln in HELD_OUT.splitlines() if ln.startswith("        ") and "▁" not in ln and "<" not in ln]
    assert len(lines) > 50
    for line in lines:
        assert hf.encode(line, add_special_tokens=False).tokens == ours[True].encode(line).tokens, line
