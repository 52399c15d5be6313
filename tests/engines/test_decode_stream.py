"""Decoding part of an encoding never shows a wrong character (issue #32).

A model streams its output one id at a time; a prefix of the ids can end
inside a character.  Every lossless engine decodes such a prefix to a prefix
of the text with at most its last character replaced by U+FFFD, and
``decode_stream`` gives out only final text, piece by piece, whose pieces
join to ``decode`` of all the ids.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wubitok
from wubitok.engines.base import available_models, engine_class, load_tokenizer
from wubitok.engines.bpe.wubi import WubiBPE
from wubitok.paths import resources_dir
from wubitok.wubi.codec import CodecOptions, WubiCodec

SAMPLES = resources_dir() / "samples"
TANG = "床前明月光，疑是地上霜。举头望明月，低头思故乡。"
_TRAIN = (SAMPLES / "tang300.txt").read_text(encoding="utf-8")[:40_000] + \
    (SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8")[:20_000]
# Characters of the samples (Han with and without index, punctuation), and
# others spelled as bytes: rare Han, Latin with accents, emoji, a lone surrogate.
_CHARS = sorted(set(_TRAIN[:6000])) + list("帝总𠀀é😀\u2581\ufffd") + ["\ud800"]
TEXTS = st.text(st.sampled_from(_CHARS), max_size=40)
LOSSLESS = [m for m in available_models() if engine_class(m).lossless]
# every layout whose plain decode of a prefix never shows a wrong character
PREFIX_SAFE = ["bundled wubi-bpe", "wubi-bpe separator/symbol", "wubi-bpe index-first", "wubi-bpe shared-index",
               *LOSSLESS]


@pytest.fixture(scope="module")
def models():
    """One small model per engine, and the bundled Wubi-BPE model."""
    out = {m: engine_class(m).train([_TRAIN], vocab_size=1200) for m in available_models()}
    out["bundled wubi-bpe"] = load_tokenizer(resources_dir() / "models" / "wubi-bpe-6000.json")
    out["wubi-bpe separator/symbol"] = WubiBPE.train(
        [_TRAIN], vocab_size=1200, codec=CodecOptions(boundary="separator", index="symbol"))
    # the layout before shared-index (models made with it keep it)
    out["wubi-bpe index-first"] = WubiBPE.train(
        [_TRAIN], vocab_size=1200, codec=CodecOptions(index="digits", layout="index-first"))
    # the layout before shared-bytes (its symbols have ids of their own)
    out["wubi-bpe shared-index"] = WubiBPE.train([_TRAIN], vocab_size=1200, codec=CodecOptions(layout="shared-index"))
    return out


def _is_prefix_but_last(shown: str, text: str) -> bool:
    """``shown`` is a prefix of ``text``, or one with U+FFFD for its last character."""
    return text.startswith(shown) or (shown.endswith("\ufffd") and text.startswith(shown[:-1]))


def test_lossless_engines_are_the_three_expected():
    assert set(LOSSLESS) == {"wubi-bpe", "bpe", "unigram"}


def test_a_cut_through_di_shows_a_replacement_mark_not_zong(models):
    # 帝 shares its code with 总 and has an index: a prefix without the index
    # used to decode to 总.
    tok = models["bundled wubi-bpe"]
    codec = WubiCodec(tok.codec.options)
    symbols = codec.encode("帝")
    assert [codec.decode(symbols[:k]) for k in range(1, len(symbols))] == ["\ufffd"] * (len(symbols) - 1)
    assert codec.decode(symbols) == "帝"


@pytest.mark.parametrize("name", PREFIX_SAFE)
def test_every_prefix_of_the_tang_line_decodes_to_a_prefix(models, name):
    tok = models[name]
    ids = tok.encode(TANG).ids
    shown = [tok.decode(ids[:k]) for k in range(len(ids) + 1)]
    assert [s for s in shown if not _is_prefix_but_last(s, TANG)] == []
    assert shown[-1] == TANG


@settings(max_examples=60, deadline=None)
@given(text=TEXTS)
def test_every_prefix_of_every_encoding_decodes_to_a_prefix_of_the_text(models, text):
    for name in PREFIX_SAFE:
        tok = models[name]
        ids = tok.encode(text).ids
        for k in range(len(ids) + 1):
            shown = tok.decode(ids[:k])
            assert _is_prefix_but_last(shown, text), (name, text, k, shown)
            assert shown.count("\ufffd") <= text[:len(shown)].count("\ufffd") + 1


@settings(max_examples=60, deadline=None)
@given(text=TEXTS)
def test_decode_stream_gives_only_final_text_and_all_of_it(models, text):
    for name, tok in models.items():
        ids = tok.encode(text).ids
        whole = tok.decode(ids)
        stream = tok.decode_stream()
        given_out = ""
        for i in ids:
            given_out += stream.step(i)
            assert whole.startswith(given_out), (name, text, given_out)
            if tok.lossless:
                assert text.startswith(given_out), (name, text, given_out)
        assert given_out + stream.finish() == whole


@pytest.mark.parametrize("name", LOSSLESS)
def test_a_cut_through_a_lone_surrogate_is_one_replacement_mark(models, name):
    tok = models[name]
    ids = tok.encode("a\ud800").ids
    shown = [tok.decode(ids[:k]) for k in range(len(ids) + 1)]
    assert all(_is_prefix_but_last(s, "a\ud800") for s in shown) and shown[-1] == "a\ud800"


def test_decode_stream_is_in_the_api_and_takes_several_ids(models):
    tok = models["bundled wubi-bpe"]
    stream = tok.decode_stream()
    assert isinstance(stream, wubitok.DecodeStream)
    ids = tok.encode(TANG).ids
    half = len(ids) // 2
    assert stream.step(ids[:half]) + stream.step(ids[half:]) + stream.finish() == TANG


def test_old_models_index_last_still_stream_no_wrong_character():
    # Models saved before the index moved to the front keep their ids; their
    # decode of a cut-off prefix can name another character, so the stream
    # holds back a character its index may still follow.
    tok = WubiBPE.train([_TRAIN], vocab_size=800, codec=CodecOptions(layout="index-last"))
    assert tok.to_dict()["codec"]["layout"] == "index-last"
    data = tok.to_dict()
    del data["codec"]["layout"]  # as files written before the option
    old = WubiBPE.from_dict(data)
    assert old.codec.options.layout == "index-last" and old.encode(TANG).ids == tok.encode(TANG).ids
    text = TANG + "帝" + TANG
    ids = old.encode(text).ids
    stream = old.decode_stream()
    given_out = ""
    for i in ids:
        given_out += stream.step(i)
        assert text.startswith(given_out)
    assert given_out + stream.finish() == text


@pytest.mark.parametrize("name", available_models())
def test_skip_special_tokens_leaves_them_out_of_decode_and_the_stream(models, name):
    tok = models[name]
    ids = tok.encode(TANG).ids
    specials = sorted(tok.special_ids())
    assert specials and len(specials) == len(tok.special_tokens)
    framed = [specials[0], *ids, specials[-1]]
    assert tok.decode(framed, skip_special_tokens=True) == tok.decode(ids)
    assert tok.decode(framed) != tok.decode(ids)
    stream = tok.decode_stream(skip_special_tokens=True)
    assert "".join(map(stream.step, framed)) + stream.finish() == tok.decode(ids)


@settings(max_examples=80, deadline=None)
@given(text=st.text(st.one_of(st.characters(), st.sampled_from(_CHARS)), max_size=30))
def test_the_bundled_wubi_bpe_on_arbitrary_unicode(models, text):
    # Any code point (surrogates, controls, rare Han outside the samples) next to common text:
    # no prefix of the ids decodes to a wrong character, and the stream gives out the text.
    tok = models["bundled wubi-bpe"]
    ids = tok.encode(text).ids
    for k in range(len(ids) + 1):
        shown = tok.decode(ids[:k])
        assert _is_prefix_but_last(shown, text), (text, k, shown)
    stream = tok.decode_stream()
    given_out = "".join(stream.step(i) for i in ids)
    assert text.startswith(given_out) and given_out + stream.finish() == text
