"""Other libraries' tokenizers: counts equal to the libraries' own, errors as one line."""
from __future__ import annotations

import base64
import sys

import pytest
import sentencepiece as spm
import tiktoken
import tiktoken.load
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizerLib
from tokenizers import decoders, models, pre_tokenizers, trainers

from wubitok.compare import compare_tokenizers, load_external, token_spans
from wubitok.compare.external import TIKTOKEN_PATTERNS
from wubitok.errors import FileError, InputError, MissingExtraError, ModelError
from wubitok.paths import resources_dir

LINES = resources_dir().joinpath("samples", "song100.txt").read_text(encoding="utf-8").splitlines()[:300]
# Held-out lines with Latin, digits, full-width punctuation and characters the models never saw.
PROBE = "我们的中国很好。\nHello, world 123！\n鑫𠀀 café\tend\n"
PROBE_LINES = [line for line in PROBE.splitlines() if line]


@pytest.fixture(scope="module")
def hf_bytelevel_path(tmp_path_factory):
    tok = HFTokenizerLib(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(LINES, trainer)
    path = tmp_path_factory.mktemp("hf") / "tokenizer.json"
    tok.save(str(path))
    return path


@pytest.fixture(scope="module")
def hf_wordpiece_path(tmp_path_factory):
    tok = HFTokenizerLib(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[UNK]"], show_progress=False)
    tok.train_from_iterator(LINES, trainer)
    path = tmp_path_factory.mktemp("hfwp") / "tokenizer.json"
    tok.save(str(path))
    return path


def _train_spm(path, **options):
    with open(path, "wb") as out:
        spm.SentencePieceTrainer.train(sentence_iterator=iter(LINES), model_writer=out, vocab_size=2000,
                                       hard_vocab_limit=False, minloglevel=2, **options)
    return path


@pytest.fixture(scope="module")
def spm_bytes_path(tmp_path_factory):
    return _train_spm(tmp_path_factory.mktemp("spm") / "bytes.model", byte_fallback=True, character_coverage=1.0)


@pytest.fixture(scope="module")
def spm_unk_path(tmp_path_factory):
    # No byte fallback and a coverage below 1: rare characters become <unk>.
    return _train_spm(tmp_path_factory.mktemp("spm") / "unk.model", character_coverage=0.98)


@pytest.fixture(scope="module")
def rank_path(tmp_path_factory):
    # 256 single bytes, then 中 (E4 B8, E4 B8 AD) and "he", "hel".
    tokens = [bytes([b]) for b in range(256)] + [b"\xe4\xb8", "中".encode(), b"he", b"hel"]
    path = tmp_path_factory.mktemp("tt") / "toy.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {rank}\n" for rank, t in enumerate(tokens)))
    return path


def _count(kind, path, lines):
    (r,) = compare_tokenizers({"x": load_external(kind, path)}, lines)
    return r


def test_hf_bytelevel_counts_equal_the_library(hf_bytelevel_path):
    hf = HFTokenizerLib.from_file(str(hf_bytelevel_path))
    lines = LINES[:50] + PROBE_LINES
    r = _count("hf", hf_bytelevel_path, lines)
    assert r.tokens == sum(len(hf.encode(line, add_special_tokens=False).ids) for line in lines)
    assert r.vocab_size == hf.get_vocab_size() and r.roundtrip_rate == 1.0 and r.unk_tokens == 0
    assert r.kind == "hf-tokenizers"


def test_hf_bytelevel_spans_show_pieces_of_unseen_characters(hf_bytelevel_path):
    spans = token_spans(load_external("hf", hf_bytelevel_path), "鑫")
    # 鑫 (E9 91 AB) was never seen: three byte tokens, each a piece of it.
    assert [(s.start, s.end, s.text, s.partial) for s in spans] == [(0, 1, "鑫", True)] * 3
    assert [s.display for s in spans] == ["<E9>", "<91>", "<AB>"]


def test_hf_wordpiece_unknown_tokens_equal_the_library(hf_wordpiece_path):
    hf = HFTokenizerLib.from_file(str(hf_wordpiece_path))
    unk = hf.token_to_id("[UNK]")
    lines = LINES[:50] + PROBE_LINES
    r = _count("hf", hf_wordpiece_path, lines)
    encs = [hf.encode(line, add_special_tokens=False) for line in lines]
    assert r.tokens == sum(len(e.ids) for e in encs)
    assert r.unk_tokens == sum(e.ids.count(unk) for e in encs) > 0
    # Lossy: spaces around Chinese characters and [UNK] do not give the line back.
    assert r.roundtrip_rate < 1.0


def test_sentencepiece_counts_equal_the_library(spm_bytes_path, spm_unk_path):
    for path in (spm_bytes_path, spm_unk_path):
        sp = spm.SentencePieceProcessor(model_file=str(path))
        lines = LINES[:50] + PROBE_LINES
        r = _count("spm", path, lines)
        ids = [sp.encode(line) for line in lines]
        assert r.tokens == sum(map(len, ids))
        assert r.unk_tokens == sum(i.count(sp.unk_id()) for i in ids)
        assert r.vocab_size == sp.get_piece_size()
    assert _count("spm", spm_unk_path, PROBE_LINES).unk_tokens > 0
    assert _count("spm", spm_bytes_path, PROBE_LINES).unk_tokens == 0


def test_sentencepiece_byte_fallback_pieces_are_partial(spm_bytes_path):
    spans = token_spans(load_external("spm", spm_bytes_path), "鑫a")
    pieces = [s for s in spans if s.text == "鑫"]
    assert [s.display for s in pieces] == ["<0xE9>", "<0x91>", "<0xAB>"]
    assert all(s.partial and (s.start, s.end) == (0, 1) for s in pieces)
    assert not any(s.partial for s in spans if s.text != "鑫")


def test_tiktoken_counts_equal_the_library(rank_path):
    assert load_external("tiktoken", rank_path).pattern == "cl100k"  # the default for an unknown size
    enc = tiktoken.Encoding(name="toy", pat_str=TIKTOKEN_PATTERNS["cl100k"],
                            mergeable_ranks=tiktoken.load.load_tiktoken_bpe(str(rank_path)), special_tokens={})
    lines = LINES[:50] + PROBE_LINES
    r = _count("tiktoken", rank_path, lines)
    assert r.tokens == sum(len(enc.encode_ordinary(line)) for line in lines)
    assert r.vocab_size == 260 and r.roundtrip_rate == 1.0


def test_tiktoken_spans_by_hand(rank_path):
    spans = token_spans(load_external("tiktoken", rank_path), "中国hello")
    # 中 is a token; 国 (E5 9B BD) is three byte pieces; "hello" -> "hel" "l" "o".
    assert [(s.display, s.start, s.end, s.partial) for s in spans] == [
        ("中", 0, 1, False), ("<E5>", 1, 2, True), ("<9B>", 1, 2, True), ("<BD>", 1, 2, True),
        ("hel", 2, 5, False), ("l", 5, 6, False), ("o", 6, 7, False)]


@pytest.fixture(scope="module")
def adapters(hf_bytelevel_path, spm_bytes_path, rank_path):
    # (tokenizer, lossless): SentencePiece's default normalizer (NFKC) is not.
    return [(load_external("hf", hf_bytelevel_path), True), (load_external("spm", spm_bytes_path), False),
            (load_external("tiktoken", rank_path), True)]


@settings(max_examples=60, deadline=None)
@given(text=st.text())
def test_adapters_give_ordered_spans_and_bytelevel_round_trips(adapters, text):
    for tok, lossless in adapters:
        enc = tok.encode(text)
        assert len(enc.ids) == len(enc.offsets) == len(enc.partial) == len(enc.tokens)
        assert all(0 <= s <= e <= len(text) for s, e in enc.offsets)
        assert [s for s, _ in enc.offsets] == sorted(s for s, _ in enc.offsets)
        if lossless:
            assert tok.decode(enc.ids) == text


def test_missing_files_and_corrupt_models_are_one_line_errors(tmp_path, hf_bytelevel_path, spm_bytes_path):
    for kind in ("hf", "spm", "tiktoken"):
        with pytest.raises(FileError, match="no such file"):
            load_external(kind, tmp_path / "missing")
    garbage = tmp_path / "garbage.bin"
    garbage.write_text("this is not a model\n")
    with pytest.raises(ModelError, match="not a Hugging Face tokenizer.json"):
        load_external("hf", garbage)
    with pytest.raises(ModelError, match="not a SentencePiece model"):
        load_external("spm", garbage)
    with pytest.raises(ModelError, match=r"garbage.bin:1: not a tiktoken rank line"):
        load_external("tiktoken", garbage)
    with pytest.raises(FileError, match="not UTF-8"):
        load_external("hf", spm_bytes_path)
    few = tmp_path / "few.tiktoken"
    few.write_text("YQ== 0\nYg== 1\n")
    with pytest.raises(ModelError, match="254 of the 256 single bytes have no rank"):
        load_external("tiktoken", few)
    twice = tmp_path / "twice.tiktoken"
    twice.write_text("".join(f"{base64.b64encode(bytes([b])).decode()} {b}\n" for b in range(256)) + "YQ== 300\n")
    with pytest.raises(ModelError, match=":257: token or rank"):
        load_external("tiktoken", twice)
    with pytest.raises(InputError, match="unknown external tokenizer kind"):
        load_external("fasttext", garbage)


@pytest.mark.parametrize("kind, module, extra", [
    ("hf", "tokenizers", "fast"), ("spm", "sentencepiece", "fast"), ("tiktoken", "tiktoken", "tiktoken")])
def test_missing_package_names_the_extra(monkeypatch, kind, module, extra, hf_bytelevel_path, spm_bytes_path,
                                         rank_path):
    path = {"hf": hf_bytelevel_path, "spm": spm_bytes_path, "tiktoken": rank_path}[kind]
    monkeypatch.setitem(sys.modules, module, None)  # what Python does when the package is not installed
    with pytest.raises(MissingExtraError, match=rf"pip install wubitok\[{extra}\]"):
        load_external(kind, path)


def test_adapters_give_their_byte_pieces_for_readable_tokens(adapters):
    # What Tokenize shows as <E9 BE> for a piece of a rare character (services.readable_tokens).
    from wubitok.services.readable_tokens import TokenForms, format_parts, readable_parts

    text = "龘𠀀 ok"
    for tok, _ in adapters:
        enc = tok.encode(text)
        forms = TokenForms.of(tok)
        pieces = [forms.byte_piece(t) for t, part in zip(enc.ids, enc.partial) if part]
        assert pieces and all(p is not None for p in pieces)
        assert b"".join(pieces) == "龘𠀀".encode()  # the byte pieces of the two rare characters, in order
        shown = [format_parts(readable_parts(text, enc.ids, enc.offsets, enc.partial, i, forms))
                 for i in range(len(enc.ids))]
        assert all(s.startswith("<") for s, part in zip(shown, enc.partial) if part)
