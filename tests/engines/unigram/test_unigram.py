"""Unigram: losslessness on arbitrary text, the EM pieces against brute force,
token counts against sentencepiece trained on the same text, persistence."""
from __future__ import annotations

import io
import json
import math
import sys
import threading

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.base import load_tokenizer
from wubitok.engines.pre_tokenizers.metaspace import END, count_runs, script_runs, split_words
from wubitok.engines.unigram.model import TRAINED_BY_FAST, Unigram
from wubitok.engines.unigram.trainer import _Lattices, digamma, seed_pieces
from wubitok.errors import Cancelled, InputError, MissingExtraError, ModelError
from wubitok.paths import resources_dir

VOCAB = 3000


@pytest.fixture(scope="module")
def corpus() -> tuple[str, str]:
    text = (resources_dir() / "samples" / "fortunes-zh.txt").read_text(encoding="utf-8")[:150_000]
    cut = text.rfind("\n", 0, 125_000) + 1
    return text[:cut], text[cut:]


@pytest.fixture(scope="module")
def model(corpus) -> Unigram:
    return Unigram.train([corpus[0]], vocab_size=VOCAB, special_tokens=["<mask>"])


@pytest.fixture(scope="module")
def reference(corpus, tmp_path_factory) -> spm.SentencePieceProcessor:
    """sentencepiece trained on the same text with the same settings."""
    path = tmp_path_factory.mktemp("spm") / "train.txt"
    path.write_text(corpus[0], encoding="utf-8")
    proto = io.BytesIO()
    spm.SentencePieceTrainer.train(
        input=str(path), model_writer=proto, model_type="unigram", vocab_size=VOCAB - 1,  # we have <mask> too
        normalization_rule_name="identity", byte_fallback=True, character_coverage=1.0,
        add_dummy_prefix=False, remove_extra_whitespaces=False, split_by_whitespace=True,
        allow_whitespace_only_pieces=True,  # as this engine trains by default
        max_sentence_length=1 << 20, num_threads=2, minloglevel=2)
    return spm.SentencePieceProcessor(model_proto=proto.getvalue())


def test_token_count_within_3_percent_of_sentencepiece(corpus, model, reference):
    lines = [ln for ln in corpus[1].splitlines() if ln]
    ours = sum(len(model.encode(ln)) for ln in lines)
    theirs = sum(len(reference.encode(ln)) for ln in lines)
    assert abs(ours / theirs - 1) <= 0.03, (ours, theirs)


def test_viterbi_equals_sentencepiece_on_its_own_pieces(corpus, reference):
    sp = reference
    pieces = [(sp.id_to_piece(i), sp.get_score(i)) for i in range(sp.get_piece_size())
              if not (sp.is_byte(i) or sp.is_control(i) or sp.is_unknown(i))]
    ours = Unigram(pieces)
    lines = [ln for ln in corpus[1].splitlines() if ln] + ["稀有字：䶮𪚥 emoji 😀 Ünïcödé"]
    for line in lines:
        assert_same_segmentation(ours.encode(line).tokens, sp.encode(line, out_type=str), dict(pieces), line)


def assert_same_segmentation(mine, theirs, scores, line):
    """The same tokens, or (runs of spaces cut in another order: "▁"*4 + "▁"*16 or the other way
    round) the same tokens in another order with the same score, where float rounding broke the tie."""
    if mine != theirs:
        assert sorted(mine) == sorted(theirs) and not set(mine) - set(scores), line
        assert math.isclose(sum(map(scores.get, mine)), sum(map(scores.get, theirs)), abs_tol=1e-4), line


def test_fast_backend_within_3_percent_of_pure(corpus, model):
    train, held = corpus
    fast = Unigram.train([train], vocab_size=VOCAB, special_tokens=["<mask>"], backend="fast")
    assert fast.trained_by == TRAINED_BY_FAST and fast.describe()["trained_by"] == TRAINED_BY_FAST
    assert fast.vocab_size <= VOCAB
    assert abs(len(fast.encode(held)) / len(model.encode(held)) - 1) <= 0.03
    assert fast.decode(fast.encode(held).ids) == held


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_decode_encode_is_lossless_on_any_text(model, text):
    enc = model.encode(text)
    assert model.decode(enc.ids) == text
    # Offsets run through the text in order; a whole piece spells its span.
    first_byte, first_piece = model.token_to_id("<0x00>"), model.token_to_id("<0xFF>") + 1
    pos = 0
    for i, tok, (a, b), part in zip(enc.ids, enc.tokens, enc.offsets, enc.partial):
        assert a == pos or (part and a == pos - 1)
        pos = b
        if first_byte <= i < first_piece:
            assert part == (len(text[a].encode("utf-8")) > 1)
        elif i >= first_piece:
            assert text[a:b] == tok.replace("▁", " ")
    assert pos == len(text)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["▁", " ", "  ", "\n", "\t", "\r\n", "<s>", "<mask>", "中文", "abc",
                                 "\u3000", "𠀀", "é", "\x00", "\U0010ffff"]), max_size=12).map("".join))
def test_lossless_on_spaces_marks_and_specials(model, text):
    assert model.decode(model.encode(text).ids) == text


def test_space_mark_in_the_input_is_bytes_and_a_space_is_a_mark(model):
    enc = model.encode("a▁b c")
    assert enc.tokens[1:4] == ["<0xE2>", "<0x96>", "<0x81>"] and enc.partial[1:4] == [True] * 3
    assert "▁" in "".join(enc.tokens[4:]) and model.decode(enc.ids) == "a▁b c"
    assert model.encode("<s>x").tokens[0] == "<s>"


def test_without_byte_fallback_unknowns_are_unk(corpus):
    m = Unigram.train([corpus[0][:20_000]], vocab_size=800, byte_fallback=False)
    assert not m.lossless and m.token_to_id("<0x41>") is None
    enc = m.encode("\U0001F600 x")
    assert enc.ids[0] == m.token_to_id("<unk>") == 0 and enc.offsets[0] == (0, 1)


def test_nbest_and_sampling(model):
    text = "软件包管理系统 apt-get install"
    best = model.encode(text)
    nbest = model.encode_nbest(text, 8)
    assert nbest[0].ids == best.ids
    assert len(nbest) == 8 and len({tuple(e.ids) for e in nbest}) == 8
    scores = [sum(model.score(i) or 0.0 for i in e.ids) for e in nbest]
    assert scores == sorted(scores, reverse=True)
    assert all(model.decode(e.ids) == text for e in nbest)
    samples = [model.sample_encode(text, alpha=0.1, seed=s) for s in range(20)]
    assert all(model.decode(e.ids) == text for e in samples)
    assert len({tuple(e.ids) for e in samples}) > 2
    assert model.sample_encode(text, 0.1, seed=7).ids == model.sample_encode(text, 0.1, seed=7).ids
    with pytest.raises(InputError):
        model.sample_encode(text, alpha=0)


def test_expected_counts_equal_brute_force_enumeration():
    # Forward-backward (scaled probability space) against summing over every
    # segmentation of each run.
    pieces = ["a", "b", "c", "ab", "bc", "abc", "ca"]
    logp = [-1.0, -1.5, -2.0, -1.2, -2.5, -3.0, -0.7]
    runs = [("abcab", 3), ("cabc", 2), ("b", 5)]
    lat = _Lattices(runs, {p: i for i, p in enumerate(pieces)}, 16, None)
    lam = 1.3
    prob = [math.exp(lp + lam * len(p)) for lp, p in zip(logp, pieces)]
    expected, loglik = lat.expected_counts(prob, lam, logp, None)
    want = [0.0] * len(pieces)
    want_ll = 0.0
    for run, count in runs:
        segs = list(_segmentations(run, pieces))
        weights = [math.exp(sum(logp[pieces.index(p)] for p in seg)) for seg in segs]
        z = sum(weights)
        want_ll += count * math.log(z)
        for seg, w in zip(segs, weights):
            for p in seg:
                want[pieces.index(p)] += count * w / z
    assert expected == pytest.approx(want, rel=1e-9)
    assert loglik == pytest.approx(want_ll, rel=1e-9)
    # Viterbi counts: the single best segmentation of each run (no ties here).
    want_freq = [0.0] * len(pieces)
    for run, count in runs:
        best = max(_segmentations(run, pieces), key=lambda seg: sum(logp[pieces.index(p)] for p in seg))
        for p in best:
            want_freq[pieces.index(p)] += count
    assert lat.viterbi_counts(logp, None) == want_freq
    assert want_freq[pieces.index("ca")] == 5  # "ab ca b" and "ca bc"


def test_runs_beyond_float_range_fall_back_to_log_space():
    # 400 characters at about e^-40 each underflow unless lam rescales them;
    # with lam = 0 the run is redone in log space and must agree.
    pieces, logp = ["a", "aa", "b"], [-40.0, -79.0, -3.0]
    lat = _Lattices([("a" * 400 + "b", 2), ("ab", 3)], {p: i for i, p in enumerate(pieces)}, 16, None)
    results = []
    for lam in (40.0, 0.0):
        prob = [math.exp(lp + lam * len(p)) for lp, p in zip(logp, pieces)]
        results.append(lat.expected_counts(prob, lam, logp, None))
    (scaled, ll_scaled), (logspace, ll_log) = results
    assert math.exp(logp[0] * 400) == 0.0  # really out of range unscaled
    assert logspace == pytest.approx(scaled, rel=1e-9) and ll_log == pytest.approx(ll_scaled, rel=1e-12)
    assert scaled[2] == pytest.approx(5.0)


def _segmentations(text, pieces):
    if not text:
        yield []
        return
    for p in pieces:
        if text.startswith(p):
            for rest in _segmentations(text[len(p):], pieces):
                yield [p, *rest]


def test_seeds_are_right_maximal_frequent_substrings():
    # "xyz" always continues "xy"; "──" is always followed by a character
    # starting with byte E2 ("─" or "▁"), so sentencepiece's byte-level
    # suffix array never branches there; a line end is a branch.
    text = "xyzq xyzr xyz\n──── ──── x\n注意\n注意\n"
    chars, subs = seed_pieces(count_runs(text))
    found = dict(subs)
    assert "xyz" in found and "xy" not in found and found["xyz"] == 3 * 3
    assert "──" not in found and "注意" in found
    assert dict(chars)["x"] == 4 and [c for c, _ in chars][0] == "─"


def test_seed_search_in_parts_finds_the_same_seeds(corpus, monkeypatch):
    import wubitok.engines.unigram.trainer as trainer

    runs = count_runs(corpus[0][:40_000])
    whole = seed_pieces(runs)
    monkeypatch.setattr(trainer, "_PART_CHARS", 2_000)  # many parts
    assert seed_pieces(runs) == whole
    assert len(whole[1]) > 1000


def test_words_and_script_runs():
    assert split_words("a  b\n\tc ▁x") == [("a", 0), ("▁", 1), ("▁b", 2), ("\n", 4), ("\t", 5),
                                          ("c", 6), ("▁", 7), ("", 8), ("x", 9)]
    assert script_runs("▁abc中文ア，123x\u0301y") == ["▁abc", "中文ア", "，123", "x\u0301y"]
    runs = count_runs("ab c中\n")
    assert runs == {"ab▁": 1, "▁c中": 1, "中" + END: 1, "\n" + END: 1}


def test_digamma_matches_known_values():
    assert digamma(1.0) == pytest.approx(-0.5772156649015329, abs=1e-9)
    assert digamma(0.5) == pytest.approx(-1.9635100260214235, abs=1e-9)
    assert digamma(100.0) == pytest.approx(4.600161852738087, abs=1e-9)


def test_trained_model_layout(model):
    assert [model.id_to_token(i) for i in range(4)] == ["<unk>", "<s>", "</s>", "<mask>"]
    assert model.id_to_token(4) == "<0x00>" and model.id_to_token(259) == "<0xFF>"
    assert model.vocab_size == VOCAB
    scores = [model.score(i) for i in range(260, model.vocab_size)]
    assert scores == sorted(scores, reverse=True)
    assert model.token_to_id("的") is not None and model.lossless


def test_save_load_gives_identical_encodings(model, corpus, tmp_path):
    path = tmp_path / "uni.json"
    model.save(path)
    loaded = load_tokenizer(path)
    assert isinstance(loaded, Unigram)
    assert loaded.encode(corpus[1]).ids == model.encode(corpus[1]).ids
    assert loaded.to_json() == model.to_json()


def test_training_is_deterministic(corpus):
    a = Unigram.train([corpus[0][:30_000]], vocab_size=1200)
    b = Unigram.train([corpus[0][:30_000]], vocab_size=1200)
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("change", [
    lambda d: d.pop("pieces"),
    lambda d: d.update(pieces=[["a", "x"]]),
    lambda d: d.update(pieces=[["a", 1.0], ["a", 2.0]]),
    lambda d: d.update(special_tokens=["<s>"]),
    lambda d: d.update(byte_fallback="yes"),
])
def test_corrupt_models_raise_model_error(model, tmp_path, change):
    data = json.loads(model.to_json())
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelError):
        load_tokenizer(path)


def test_bad_arguments_raise_input_error(corpus):
    with pytest.raises(InputError):
        Unigram.train([corpus[0][:1000]], vocab_size=200)  # fewer than specials + bytes
    with pytest.raises(InputError):
        Unigram.train([""], vocab_size=1000)
    with pytest.raises(InputError):
        Unigram.train([corpus[0][:1000]], vocab_size=1000, shrinking_factor=2)
    with pytest.raises(InputError):
        Unigram.train([corpus[0][:1000]], vocab_size=1000, backend="turbo")
    with pytest.raises(InputError):
        model_ids = Unigram.train([corpus[0][:5000]], vocab_size=600)
        model_ids.decode([10 ** 6])


def test_progress_reaches_total_and_cancel_is_quick(corpus):
    seen = []
    Unigram.train([corpus[0][:40_000]], vocab_size=1200, progress=lambda s, d, t: seen.append((s, d, t)))
    stage, done, total = seen[-1]
    assert stage == "training" and done == total > 0
    cancel = threading.Event()
    calls = []

    def progress(stage, done, total):
        calls.append(stage)
        if stage == "seeding" and done == 1:
            cancel.set()

    with pytest.raises(Cancelled):
        Unigram.train([corpus[0]], vocab_size=VOCAB, progress=progress, cancel=cancel)
    assert "training" not in calls  # stopped inside the first EM round


def test_fast_backend_without_sentencepiece_names_the_extra(corpus, monkeypatch):
    monkeypatch.setitem(sys.modules, "sentencepiece", None)
    with pytest.raises(MissingExtraError, match=r"pip install wubitok\[fast\]"):
        Unigram.train([corpus[0][:1000]], vocab_size=1000, backend="fast")


def test_a_vocabulary_smaller_than_the_alphabet_ends_training():
    # 20,000 characters of Tang poems hold about 2,000 distinct characters:
    # more than a vocabulary of 800 can keep.  Training must end (it once
    # looped forever), keep the most frequent characters and spell the rest
    # with byte pieces, losslessly.
    poems = (resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8")[:20_000]
    assert len(set(poems)) > 800
    model = Unigram.train([poems], vocab_size=800)
    assert model.vocab_size == 800
    assert model.decode(model.encode(poems).ids) == poems
    assert model.token_to_id("，") is not None  # the commonest characters stay whole
