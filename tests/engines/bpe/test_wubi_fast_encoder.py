"""Wubi-BPE's fast encoder (merges in HF tokenizers' Rust BPE) against the Python one.

Both must give the same ids, tokens, offsets and partial flags on every text;
the plain rank-order oracle of ``test_wubi_bpe`` checks the default (fast)
encoder as well.
"""
from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok import load_tokenizer
from wubitok.engines.backends import choose_encoder
from wubitok.engines.bpe.wubi import WubiBPE
from wubitok.errors import InputError, MissingExtraError
from wubitok.paths import resources_dir
from wubitok.wubi.codec import CodecOptions, WubiCodec

SAMPLES = resources_dir() / "samples"
BUNDLED = resources_dir() / "models" / "wubi-bpe-6000.json"


def pair(model: WubiBPE) -> tuple[WubiBPE, WubiBPE]:
    fast, python = WubiBPE.from_dict(model.to_dict()), WubiBPE.from_dict(model.to_dict())
    assert fast.use_encoder("fast") == "fast"
    assert python.use_encoder("python") == "python"
    return fast, python


@pytest.fixture(scope="module")
def bundled():
    return pair(load_tokenizer(BUNDLED))


@pytest.fixture(scope="module")
def trained():
    # a user special token: merge ids start one past the codec's symbols
    text = (SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8")[:60_000]
    return pair(WubiBPE.train([text], vocab_size=1200, special_tokens=["[MASK]"]))


@pytest.fixture(scope="module")
def han_chars(wubi_dict):
    chars = [ch for ch, _, _ in wubi_dict.iter_full_codes()]
    return chars[:2000] + chars[-300:]


def check_same(fast: WubiBPE, python: WubiBPE, texts: list[str]) -> None:
    got, expected = fast.encode_batch(texts), python.encode_batch(texts)
    assert [(e.ids, e.tokens, e.offsets, e.partial) for e in got] == [
        (e.ids, e.tokens, e.offsets, e.partial) for e in expected
    ]
    assert fast.encode_batch_ids(texts) == [e.ids for e in expected]
    assert [fast.decode(e.ids) for e in got] == texts


TRICKY = [" ", "  ", "\n", "\r\n", "\t", "1", "2345", "<s>", "[MASK]", "\u0301", "\ufe0f", "\ud800", "𠀀", "é",
          "。", "👍🏽", "1\ufe0f\u20e3", "\u3000", "\x00", "\ue000", "abc", " x",
          "\uffff"]  # the character that joins pre-tokens on the fast path: such texts take the slow one


@pytest.mark.parametrize("which", ["bundled", "trained"])
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_fast_and_python_encoders_agree_on_arbitrary_text(request, which, han_chars, data):
    fast, python = request.getfixturevalue(which)
    parts = st.one_of(st.characters(blacklist_categories=()), st.sampled_from(han_chars), st.sampled_from(TRICKY))
    texts = data.draw(st.lists(st.lists(parts, max_size=40).map("".join), max_size=8))
    check_same(fast, python, texts)


@pytest.mark.parametrize("which", ["bundled", "trained"])
def test_fast_and_python_encoders_agree_on_the_samples(request, which):
    fast, python = request.getfixturevalue(which)
    for name in ("tang300.txt", "song100.txt", "fortunes-zh.txt"):
        text = (SAMPLES / name).read_text(encoding="utf-8")
        check_same(fast, python, text.split("\n")[:4000])
        check_same(fast, python, [text[:50_000]])  # one long text, newlines inside


@pytest.mark.parametrize("options", [
    CodecOptions(boundary="separator", index="digits", layout="index-first"),
    CodecOptions(index="digits", layout="index-last"),
    CodecOptions(code="full", boundary="separator", layout="shared-index"),
    CodecOptions(code="shortest", boundary="separator", index="digits", layout="shared-bytes"),
])
def test_fast_offsets_agree_under_other_codecs(options):
    # the fast encoder's offsets read where characters meet from the codec's symbols; shared-bytes
    # symbols do not say it alone (read with WubiCodec.follow instead)
    assert (WubiCodec(options).char_edges() is None) == (options.layout == "shared-bytes")
    text = (SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8")
    fast, python = pair(WubiBPE.train([text[:30_000]], vocab_size=900, codec=options))
    check_same(fast, python, text[30_000:90_000].split("\n") + TRICKY + ["", "é中", "\ud800你"])


def test_texts_holding_the_pre_token_joiner_encode_the_same(bundled):
    fast, python = bundled
    texts = ["你好\uffff世界 ok", "\uffff", "中文，\n English \uffff\uffff 123", "没有它的文本"]
    check_same(fast, python, texts)
    check_same(fast, python, texts[-1:])


def test_the_spelling_tables_stay_exact_after_they_are_emptied(bundled):
    # More distinct characters than the tables hold: each is emptied on the way,
    # and the joiner's entry must come back with it.
    fast, python = bundled
    many = "".join(map(chr, range(0x4E00, 0x4E00 + 21_000))) + "".join(map(chr, range(0x20000, 0x20000 + 46_000)))
    texts = [many[i : i + 500] + " 好。\n" for i in range(0, len(many), 500)]
    assert fast.encode_batch_ids(texts) == python.encode_batch_ids(texts)
    check_same(fast, python, ["之后 还是 一样。", "ok ok"])


def test_a_merge_that_recreates_a_token_keeps_the_python_encoder():
    # x y z spelled by the codec's first three byte symbols: (x,y) (xy,z) (y,z) (x,yz);
    # the last merge makes "xyz" again, which HF cannot give an id of its own
    x, y, z = 4 + ord("x"), 4 + ord("y"), 4 + ord("z")
    base = WubiBPE().first_merge_id
    merges = [(x, y), (base, z), (y, z), (x, base + 2)]
    model = WubiBPE(merges)
    assert model.use_encoder("fast") == "python"
    assert model.encoder_backend == "python"
    reference = WubiBPE(merges)
    reference.use_encoder("python")
    assert model.encode("xyz yzx").ids == reference.encode("xyz yzx").ids


def test_encoder_choice():
    model = WubiBPE()
    assert model.encoder_choice == "auto" and model.encoder_backend == "fast"  # tokenizers is installed here
    with pytest.raises(InputError, match="unknown encoder"):
        model.use_encoder("rust")
    with pytest.raises(InputError, match="no fast encoder"):
        choose_encoder("fast", "unigram")
    assert choose_encoder("auto", "unigram") == "python"


def test_without_tokenizers_auto_encodes_in_python(monkeypatch):
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # import now fails
    model = load_tokenizer(BUNDLED)
    assert model.encoder_backend == "python"
    assert model.decode(model.encode("你好，世界").ids) == "你好，世界"
    with pytest.raises(MissingExtraError, match=r"wubitok\[fast\]"):
        model.use_encoder("fast")


def test_a_codec_without_char_edges_takes_the_symbol_by_symbol_offsets(monkeypatch):
    monkeypatch.setattr(WubiCodec, "char_edges", lambda self: None)
    text = (SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8")
    fast, python = pair(WubiBPE.train([text[:30_000]], vocab_size=900, codec=CodecOptions(layout="shared-index")))
    check_same(fast, python, text[:40_000].split("\n") + TRICKY)
    assert fast._token_edges() is None
