"""Versions kept in the encode worker: an edit's tokens spliced into the app's copy are the full run's."""
from __future__ import annotations

import functools
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.services import encode_pool, encoded_versions, tokenized
from wubitok.services.encode_pool import EncodePool, changed_tokens
from wubitok.services.encoded_versions import PART_TOKENS, EditedText, encode_since
from wubitok.services.id_lines import applied, id_lines_after, id_lines_of
from wubitok.services.model_files import bundled_models_dir, load_model_file
from wubitok.services.tokenized import PackedEncoding, Spans, spans_after_edit

PIECES = st.one_of(
    st.sampled_from(["\n", "\r\n", "\n\n", " ", "  ", "\t", "，", "。", "!", "'s", "123", "-",
                     "明月几时有", "把酒问青天", "Wubi", " key", "<unk>", "[UNK]", "▁", "\r", "\u2028", "é",
                     "e\u0301", "\U0001F600", "\u00a0"]),
    st.text(max_size=4),
)
TEXTS = st.lists(PIECES, max_size=30).map("".join)
MODELS = sorted(bundled_models_dir().glob("*.json"))
EDITS = st.lists(st.tuples(st.integers(0, 400), st.integers(0, 6), TEXTS), min_size=1, max_size=4)


@functools.cache
def _model(path):
    return load_model_file(path, "wubitok")


def _same_encoding(packed: PackedEncoding, full) -> None:
    assert list(packed.ids) == full.ids
    assert list(packed.tokens) == full.tokens
    assert list(packed.offsets) == [tuple(o) for o in full.offsets]
    assert [packed.partial_at(i) for i in range(len(packed))] == (full.partial or [False] * len(full.ids))


def _same_spans(a: Spans, b: Spans) -> None:
    assert a.shown_chars == b.shown_chars
    assert list(a.seg_start) == list(b.seg_start)
    assert list(a.seg_end) == list(b.seg_end)
    assert list(a.seg_tokens) == list(b.seg_tokens)
    assert a.seg_partial == b.seg_partial
    assert list(a.doc_start) == list(b.doc_start)
    assert list(a.doc_end) == list(b.doc_end)


@pytest.mark.parametrize("part", [PART_TOKENS, 3])  # 3: the tokens of most answers come in parts
@pytest.mark.parametrize("limit", [10_000, 25])
@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.stem)
@settings(max_examples=60, deadline=None)
@given(old=TEXTS, edits=EDITS)
def test_every_version_spliced_is_the_full_run(path, limit, part, old, edits):
    tok = _model(path)
    ref = ("test", path)
    pool = EncodePool(processes=False)  # the parts are asked for from the calling thread
    with mock.patch.object(encoded_versions, "PART_TOKENS", part), mock.patch.object(encode_pool, "PART_TOKENS", part):
        first = encode_since(ref, tok, EditedText.whole(old), 0, limit)
        text, enc, spans = old, changed_tokens(pool, ref, first), first.spans
        for version, (at, removed, inserted) in enumerate(edits, 1):
            at = min(at, len(text))
            edited = EditedText(at, min(removed, len(text) - at), inserted, version - 1)
            since = encode_since(ref, tok, edited, version, limit)
            assert len(since.tokens) <= part
            text, enc, spans = _next_version(tok, text, enc, spans, edited, since, changed_tokens(pool, ref, since),
                                             limit)


def _next_version(tok, text, enc, spans, edited, since, middle, limit):
    """The version ``since`` made of the one before (``text``, ``enc``, ``spans``), checked against the full run."""
    new = edited.applied_to(text)
    w = since.where
    enc = enc.spliced(w.first, w.stop, middle, w.char_shift)
    spans = spans_after_edit(spans, new, enc, w, limit)
    full = tok.encode(new)
    _same_encoding(enc, full)
    _same_spans(spans, Spans.of(new, full, limit))
    assert since.roundtrip == (tok.decode(full.ids) == new)
    return new, enc, spans


def test_an_unknown_base_asks_for_the_whole_text():
    tok = _model(MODELS[0])
    assert encode_since(("test", "unknown"), tok, EditedText(0, 0, "x", 41), 42) is None


@given(old=st.text(max_size=30), new=st.text(max_size=30))
def test_the_edit_between_two_texts_makes_one_of_the_other(old, new):
    assert EditedText.between(old, new, 0).applied_to(old) == new


@pytest.mark.parametrize("limit", [10_000, 12])
@settings(max_examples=150, deadline=None)
@given(old=TEXTS, edits=EDITS)
def test_the_id_lines_after_edits_are_those_of_a_full_run(limit, old, edits):
    path = MODELS[0]
    tok = _model(path)
    ref = ("ids", path, limit)
    first = encode_since(ref, tok, EditedText.whole(old), 0, limit)
    text, enc = old, first.tokens
    shape, lines = id_lines_of(text, enc, limit)
    for version, (at, removed, inserted) in enumerate(edits, 1):
        at = min(at, len(text))
        edited = EditedText(at, min(removed, len(text) - at), inserted, version - 1)
        since = encode_since(ref, tok, edited, version, limit)
        old_text, text = text, edited.applied_to(text)
        enc = enc.spliced(since.where.first, since.where.stop, since.tokens, since.where.char_shift)
        shape, changes = id_lines_after(shape, old_text, text, enc, limit, since.where)
        lines = applied(lines, changes)
        assert (shape, lines) == id_lines_of(text, PackedEncoding.pack(tok.encode(text)), limit)


def test_a_splice_past_32_bits_widens_the_offsets():
    from wubitok.engines.base import Encoding

    big = 2**31 - 10
    old = PackedEncoding.pack(Encoding([1, 2], ["a", "b"], [(0, 1), (big, big + 1)], []))
    middle = PackedEncoding.pack(Encoding([3], ["c"], [(0, 1)], []))
    spliced = old.spliced(0, 1, middle, 100)
    assert list(spliced.offsets) == [(0, 1), (big + 100, big + 101)]
    assert list(spliced.ids) == [3, 2] and list(spliced.tokens) == ["c", "b"]


ANY_TOKENS = st.lists(st.text(st.characters(blacklist_categories=()), max_size=3), max_size=8)


@settings(max_examples=200)
@given(ANY_TOKENS, ANY_TOKENS, st.data())
def test_a_splice_keeps_every_token_string_whatever_its_characters(old_tokens, new_tokens, data):
    # Astral characters and lone surrogates too: a buffer of UTF-16 units meets one of UTF-32.
    import pickle

    from wubitok.engines.base import Encoding

    first = data.draw(st.integers(0, len(old_tokens)))
    stop = data.draw(st.integers(first, len(old_tokens)))

    def packed(tokens):
        return pickle.loads(pickle.dumps(PackedEncoding.pack(Encoding(list(range(len(tokens))), tokens,
                                                                      [(0, 0)] * len(tokens), []))))

    with mock.patch.object(tokenized, "COPY_PIECE", 8):  # the buffers copied a few bytes at a time
        spliced = packed(old_tokens).spliced(first, stop, packed(new_tokens), 0)
        parts = [packed(old_tokens).part(a, b) for a, b in ((0, first), (first, stop), (stop, len(old_tokens)))]
        again = PackedEncoding.concatenated(parts)
    assert list(spliced.tokens) == old_tokens[:first] + new_tokens + old_tokens[stop:]
    assert list(spliced.ids) == list(range(first)) + list(range(len(new_tokens))) + list(range(stop, len(old_tokens)))
    assert list(packed(old_tokens).head(first).tokens) == old_tokens[:first]
    assert list(again.tokens) == old_tokens and list(again.ids) == list(range(len(old_tokens)))


def test_the_token_strings_cross_as_bytes_not_as_a_string():
    # Unpickling a str is decoding UTF-8: 71 ms in one call holding the app's GIL for the 17
    # million characters of a 10 MB text's tokens.  Bytes are a copy.
    import pickletools

    tok = _model(MODELS[0])
    pickled = __import__("pickle").dumps(PackedEncoding.pack(tok.encode("明月几时有，把酒问青天。" * 50)))
    strings = [arg for op, arg, _ in pickletools.genops(pickled) if "UNICODE" in op.name]
    assert max(map(len, strings)) < 100, "a long str in the pickle"
