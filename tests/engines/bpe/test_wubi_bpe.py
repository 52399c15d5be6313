"""Wubi-BPE: training, exact round trips, offsets, special tokens, save/load."""
from __future__ import annotations

import json
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok import load_tokenizer
from wubitok.engines.bpe.encoder import MergeApplier
from wubitok.engines.bpe.wubi import WubiBPE
from wubitok.engines.pre_tokenizers.wubi import joined_pretokens, pretokenize
from wubitok.errors import Cancelled, FileError, InputError, MissingExtraError, ModelError
from wubitok.paths import resources_dir
from wubitok.services.readable_tokens import TokenForms
from wubitok.wubi.codec import CodecOptions

SAMPLES = resources_dir() / "samples"


@pytest.fixture(scope="module")
def tang():
    return (SAMPLES / "tang300.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def fortunes():
    text = (SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8")
    return text[:120_000], text[-40_000:]  # train part, held-out part


@pytest.fixture(scope="module")
def tok(tang, fortunes):
    return WubiBPE.train([tang, fortunes[0]], vocab_size=1500, special_tokens=["[MASK]"])


@pytest.fixture(scope="module", params=["python", "fast"])
def tok_on(request, tok, tmp_path_factory):
    """A copy of ``tok`` on one encoder: "python" (with its cache) or "fast"
    (the default when installed, which would leave the other untested)."""
    path = tmp_path_factory.mktemp(request.param) / "tok.json"
    tok.save(path)
    model = load_tokenizer(path)
    assert model.use_encoder(request.param) == request.param
    return model


@pytest.fixture(scope="module")
def mixed_chars(wubi_dict):
    chars = [ch for ch, _, _ in wubi_dict.iter_full_codes()]
    return chars[:3000] + chars[-300:] + list("你好世界工㠭的一是不了")


# -- round trips --------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=())))
def test_round_trip_on_arbitrary_unicode_with_surrogates(tok, text):
    assert tok.decode(tok.encode(text).ids) == text


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_round_trip_on_mixed_han_text(tok, mixed_chars, data):
    alphabet = st.one_of(st.characters(), st.sampled_from(mixed_chars), st.sampled_from(" \n\t<>[]sMASK/"))
    text = data.draw(st.text(alphabet, max_size=60))
    enc = tok.encode(text)
    assert tok.decode(enc.ids) == text
    _check_offsets(tok, text, enc)


def test_round_trip_on_held_out_text_and_hard_cases(tok, fortunes):
    for text in [
        fortunes[1],
        "",
        " ",
        "\r\n\n  \t",
        "你好abc世界123456789 𠀀𪚥 工㠭",
        "👨‍👩‍👧‍👦🇨🇳👍🏽 e\u0301 \x00\x1b[31m",
        "葛\U000E0100 〇々",
        "\ud800\udc00\udfff",
        "<s>[MASK]</s><pad><unk>",
    ]:
        enc = tok.encode(text)
        assert tok.decode(enc.ids) == text
        _check_offsets(tok, text, enc)


def _check_offsets(tok, text, enc):
    assert len(enc.ids) == len(enc.tokens) == len(enc.offsets) == len(enc.partial)
    pos = 0
    for i, (start, end) in enumerate(enc.offsets):
        # spans are in order and cover the text; they overlap only on a
        # character that two partial tokens share
        assert start < end
        assert start == pos or (enc.partial[i] and enc.partial[i - 1] and start == pos - 1)
        pos = max(pos, end)
        if not enc.partial[i]:
            assert tok.decode([enc.ids[i]]) == text[start:end]
    assert pos == len(text)


def test_bpe_result_equals_rank_order_merging(tok, fortunes):
    # the fast encoder against the plain algorithm on every pre-token
    oracle = MergeApplier(tok.merges, tok.first_merge_id, cache_size=0)
    pieces = [piece for piece, _ in list(pretokenize(fortunes[1], mode=tok.pre_tokens))[:3000]]
    for piece, entry in zip(pieces, tok._encode_pieces(pieces)):
        assert list(entry[0]) == oracle.apply(tok.codec.encode(piece))


def _oracle_encoding(tok, text):
    """ids, offsets and partial flags the plain way: split out special tokens,
    pre-tokenize, merges by rank on each pre-token's spelling, offsets by
    bisecting the characters' symbol bounds."""
    from bisect import bisect_left, bisect_right
    from itertools import accumulate

    oracle = MergeApplier(tok.merges, tok.first_merge_id, cache_size=0)
    ids, offsets, partial = [], [], []
    for start, end, special in tok._splitter.split(text):
        if special is not None:
            ids.append(special)
            offsets.append((start, end))
            partial.append(False)
            continue
        for piece, base in pretokenize(text[start:end], start, tok.pre_tokens):
            spelled = tok.codec.spell_chars(piece)
            bounds = list(accumulate(map(len, spelled), initial=0))
            merged = oracle.apply([s for sp in spelled for s in sp])
            pos = 0
            for t in merged:
                s, e = pos, pos + len(tok.symbols(t))
                first, last = bisect_right(bounds, s) - 1, bisect_left(bounds, e)
                ids.append(t)
                offsets.append((base + first, base + last))
                partial.append(bounds[first] != s or bounds[last] != e)
                pos = e
    return ids, offsets, partial


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_encode_equals_the_plain_way(tok_on, mixed_chars, data):
    # all pre-tokens of a text are encoded together (one greedy pass, offsets
    # for all tokens at once); tricky text: astral characters, lone
    # surrogates, combining marks, spaces, digits, special tokens
    parts = st.one_of(
        st.characters(blacklist_categories=()),
        st.sampled_from(mixed_chars),
        st.sampled_from(
            [" ", "  ", "\n", "\t", "1", "23", "<s>", "[MASK]", "\u0301", "\ufe0f", "\ud800", "𠀀", "é", "。"]
        ),
    )
    text = "".join(data.draw(st.lists(parts, max_size=60)))
    tok_on._cache.clear()
    cold = tok_on.encode(text)
    warm = tok_on.encode(text)
    expected = _oracle_encoding(tok_on, text)
    for enc in (cold, warm):
        assert (enc.ids, enc.offsets, enc.partial) == expected
        assert enc.tokens == [tok_on.id_to_token(i) for i in enc.ids]


# -- pre-tokens -----------------------------------------------------------------
def test_clause_pretokens_never_mix_han_with_other_text():
    text = "你好abc 世界 hello  world 1234567 ,中文。\n\n  x"
    pieces = list(pretokenize(text, mode="clause"))
    assert "".join(p for p, _ in pieces) == text
    assert all(text[s : s + len(p)] == p for p, s in pieces)
    assert [p for p, _ in pieces] == [
        "你好", "abc", " ", "世界", " hello", " ", " world", " 123", "456", "7", " ,", "中文", "。", "\n\n ", " x",
    ]


@settings(max_examples=200, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=())))
def test_joined_pretokens_tile_every_str(text):
    pieces = list(pretokenize(text, 5, mode="joined"))
    assert all(p for p, _ in pieces)
    assert "".join(p for p, _ in pieces) == text
    assert all(text[s - 5 : s - 5 + len(p)] == p for p, s in pieces)


def test_joined_pretokens_keep_marks_and_line_breaks_with_letters():
    text = "下马饮君酒，问君何所之。\n君言 abc，「好」…… 12345 gpm( 8) 作为\n"
    assert list(joined_pretokens(text)) == [
        "下马饮君酒，", "问君何所之。\n", "君言", " abc，「", "好」…", "…", " ", "123", "45", " gpm(", " ", "8", ")",
        " 作为", "\n",
    ]


@pytest.fixture(scope="module")
def joined(tang):
    return WubiBPE.train([tang], vocab_size=3000, pre_tokens="joined")


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_joined_model_round_trips_every_str(joined, mixed_chars, data):
    alphabet = st.one_of(st.characters(blacklist_categories=()), st.sampled_from(mixed_chars),
                         st.sampled_from(" \n，。、「」"))
    text = data.draw(st.text(alphabet, max_size=60))
    enc = joined.encode(text)
    assert joined.decode(enc.ids) == text
    _check_offsets(joined, text, enc)


def test_joined_model_learns_tokens_across_punctuation(joined, tang, tmp_path):
    # Tang verse: every line ends "。\n", and the joined cut lets a token span it.
    spans = [joined.decode([i]) for i in joined.encode(tang[-3000:]).ids]
    assert any("。\n" in s and len(s) > 2 for s in spans)
    counts = WubiBPE.count([tang], pre_tokens="joined")
    assert WubiBPE.train_from_counts(counts, vocab_size=3000, pre_tokens="joined").merges == joined.merges
    path = tmp_path / "j.json"
    joined.save(path)
    again = load_tokenizer(path)
    assert again.pre_tokens == "joined"
    assert again.encode(tang[:2000]).ids == joined.encode(tang[:2000]).ids


def test_model_files_without_pre_tokens_are_clause_models(tok, tmp_path):
    path = _broken(tok, tmp_path, lambda d: d.pop("pre_tokens"))
    assert load_tokenizer(path).pre_tokens == "clause"
    with pytest.raises(InputError, match="unknown pre_tokens 'words'"):
        WubiBPE.train(["你好"], vocab_size=400, pre_tokens="words")


@pytest.mark.parametrize("mode, middle", [("clause", "abc"), ("joined", "123")])
def test_merges_never_cross_pre_tokens(tang, mode, middle):
    # clause: Han never joins Latin; joined: letters never join digits
    tok = WubiBPE.train([tang[:30_000]], vocab_size=1500, pre_tokens=mode)
    text = "山水" * 50 + middle + "山水" * 50
    enc = tok.encode(text)
    assert tok.pre_tokens == mode
    assert all(not (s < cut < e) for s, e in enc.offsets for cut in (100, 103))


# -- special tokens -------------------------------------------------------------
def test_special_tokens_have_fixed_ids_and_are_never_split(tok):
    assert [tok.id_to_token(i) for i in range(4)] == ["<pad>", "<unk>", "<s>", "</s>"]
    mask = tok.token_to_id("[MASK]")
    assert mask == tok.codec.end_id
    enc = tok.encode("<s>你好[MASK]世界</s>")
    assert enc.ids[0] == 2 and enc.ids[-1] == 3 and mask in enc.ids
    assert enc.offsets[0] == (0, 3) and enc.tokens[-1] == "</s>"
    assert tok.decode(enc.ids) == "<s>你好[MASK]世界</s>"


# -- vocabulary and display ---------------------------------------------------
def test_vocab_lookups(tok):
    assert tok.vocab_size == 1500
    for i in range(tok.vocab_size):
        t = tok.id_to_token(i)
        assert tok.id_to_token(tok.token_to_id(t)) == t
    assert tok.id_to_token(tok.vocab_size) is None
    assert tok.token_to_id("no such token") is None


def test_display_shows_keys_and_whole_characters(tok, tang):
    enc = tok.encode("山")
    assert len(enc.ids) == 1
    assert tok.display_token(enc.ids[0]) == "M⑭ (山)"  # one-key code m, index 14
    (a,) = tok.encode("a").ids
    assert tok.display_token(a) == "a"
    (nl,) = tok.encode("\n").ids
    assert tok.display_token(nl) == "Ċ (\\n)"
    # shared-bytes: key w is the byte 0x96, read alone as a key (where a character may start)
    key_w = 4 + 0x80 + "abcdefghijklmnopqrstuvwxy".index("w")
    assert tok.display_token(key_w) == "w" and tok.spelling(key_w) == "w"
    assert tok.display_token(0) == "<pad>"


def test_a_piece_of_a_character_reads_on_from_the_pieces_before_it():
    # Without merges every symbol is a token.  … is E2 80 A6: alone, 80 A6 would read as the keys
    # aN where a character may start; read where they stand they are the rest of its UTF-8 bytes.
    tok = WubiBPE()
    text = "…你𠀀"
    enc = tok.encode(text)
    forms = TokenForms.of(tok)
    shown = [tok.display_at(enc, i) for i in range(len(enc.ids))]
    spelled = [forms.spelling_at(enc.ids, enc.offsets, i) for i in range(len(enc.ids))]
    assert shown[:3] == spelled[:3] == ["â", "Ģ", "¦"]  # E2 80 A6 in GPT-2 form
    assert tok.display_token(enc.ids[1], partial=True) == "a"  # alone it reads as a key
    assert shown[3:5] == ["W", "②"] and spelled[3:5] == ["w", "#2"]  # 你 is W②: the index byte 2 is an index
    # 𠀀's pieces: the keys and index each holds, together its whole spelling
    codec = tok.codec
    assert "".join(spelled[5:]) == codec.keys_display(codec.spelling("𠀀"))
    assert "".join(shown[5:]) == codec.display(codec.spelling("𠀀"))
    # the app's summary of the model reads them alike
    assert [forms.display_at(enc.ids, enc.offsets, i) or tok.display_token(enc.ids[i], partial=True)
            for i in range(len(enc.ids))] == shown


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(
        st.lists(
            st.one_of(st.text(max_size=3), st.sampled_from(["[MASK]", "<s>", "你好", "的", " ", "123456", "\n"])),
            max_size=10,
        ).map("".join),
        max_size=6,
    )
)
def test_encode_batch_equals_encoding_each_text(tok_on, texts):
    # one batch shares the encoding of its new pre-tokens; the result must
    # not depend on that, nor on what the cache held
    tok_on._cache.clear()
    batch = tok_on.encode_batch(texts)
    tok_on._cache.clear()
    assert batch == [tok_on.encode(t) for t in texts]
    assert [tok_on.decode(e.ids) for e in batch] == texts


def test_encode_batch_and_decode_errors(tok):
    texts = ["你好", "abc", ""]
    assert [e.ids for e in tok.encode_batch(texts)] == [tok.encode(t).ids for t in texts]
    with pytest.raises(InputError):
        tok.decode([tok.vocab_size])
    with pytest.raises(InputError):
        tok.decode([-1])


# -- training -----------------------------------------------------------------------
def test_training_is_deterministic_and_independent_of_workers(tang, tmp_path):
    a = WubiBPE.train([tang[:30_000]], vocab_size=600)
    b = WubiBPE.train([tang[:30_000]], vocab_size=600)
    assert a.to_json() == b.to_json()
    corpus = tmp_path / "c.txt"
    corpus.write_text(tang[:30_000], encoding="utf-8")
    c = WubiBPE.train(files=[corpus], vocab_size=600, workers=2)
    assert c.to_json() == a.to_json()


def test_progress_reaches_100_percent(tang):
    calls = []
    WubiBPE.train([tang[:20_000]], vocab_size=500, progress=lambda *a: calls.append(a))
    stages = {s for s, _, _ in calls}
    assert {"counting", "merging"} <= stages
    for stage in stages:
        last = [c for c in calls if c[0] == stage][-1]
        assert last[1] == last[2] > 0


def test_cancel_stops_training(tang):
    cancel = threading.Event()

    def progress(stage, done, total):
        if stage == "merging" and done > 0:
            cancel.set()

    with pytest.raises(Cancelled):
        WubiBPE.train([tang], vocab_size=3000, progress=progress, cancel=cancel)


def test_training_errors(tmp_path):
    with pytest.raises(InputError, match="too small"):
        WubiBPE.train(["你好"], vocab_size=100)
    with pytest.raises(InputError):
        WubiBPE.train()
    with pytest.raises(InputError, match="empty"):
        WubiBPE.train([""], vocab_size=1000)
    with pytest.raises(InputError, match="backend"):
        WubiBPE.train(["你好"], vocab_size=1000, backend="gpu")
    with pytest.raises(FileError, match="no such file"):
        WubiBPE.train(files=[tmp_path / "missing.txt"], vocab_size=1000)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"abc \xff\xfe")
    with pytest.raises(FileError, match="not UTF-8"):
        WubiBPE.train(files=[bad], vocab_size=1000)


@pytest.mark.parametrize("code", ["shortest", "hybrid"])
def test_codec_options_are_trained_saved_and_used(tang, tmp_path, code):
    options = CodecOptions(code=code, boundary="final-key", index="digits")
    tok = WubiBPE.train([tang[:20_000]], vocab_size=600, codec=options)
    path = tmp_path / "m.json"
    tok.save(path)
    again = load_tokenizer(path)
    assert again.codec.options == options
    text = "工㠭你好 abc"
    assert again.decode(again.encode(text).ids) == text
    assert again.encode(text).ids == tok.encode(text).ids


@pytest.mark.parametrize("sample, vocab_size", [("fortunes-zh.txt", 2000), ("tang300.txt", 1500),
                                                ("song100.txt", 900)])
def test_fast_backend_trains_the_same_merges(sample, vocab_size):
    # HF's BpeTrainer breaks count ties by its ids, its alphabet numbered in code-point order:
    # the Python trainer gets that order by relabelling the codec's symbols, so the backends agree.
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    py = WubiBPE.train([text], vocab_size=vocab_size)
    fast = WubiBPE.train([text], vocab_size=vocab_size, backend="fast")
    assert fast.training["backend"] == "fast"
    assert fast.merges == py.merges and len(py.merges) > 100
    assert fast.decode(fast.encode(text).ids) == text


@pytest.mark.parametrize("options", [CodecOptions(code="full", boundary="separator"),
                                     CodecOptions(index="symbol", layout="index-last")])
def test_fast_backend_trains_the_same_merges_with_other_codecs(fortunes, options):
    py = WubiBPE.train([fortunes[0]], vocab_size=1500, codec=options)
    assert WubiBPE.train([fortunes[0]], vocab_size=1500, codec=options, backend="fast").merges == py.merges


_RUNS = st.lists(st.tuples(st.sampled_from("ab哈工 。=\n"), st.integers(1, 12)), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(_RUNS.map(lambda runs: "".join(c * n for c, n in runs)), st.integers(1, 9),
                       min_size=1, max_size=12), st.integers(0, 3))
def test_fast_backend_trains_the_same_merges_on_small_corpora(counts, min_frequency):
    # Runs of one symbol ("aaaa", "。。。") are where merges overlap and counts tie most.
    counts = {w: n for w, n in counts.items() if w.strip()} or {"ab": 1}
    size = WubiBPE.min_vocab_size() + 80
    py = WubiBPE.train_from_counts(counts, vocab_size=size, min_frequency=min_frequency)
    before = dict(counts)
    fast = WubiBPE.train_from_counts(counts, vocab_size=size, min_frequency=min_frequency, backend="fast")
    assert fast.merges == py.merges
    assert counts == before  # the caller's counts; train() empties only those it counted itself


def test_fast_backend_without_tokenizers(monkeypatch):
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # import now fails
    with pytest.raises(MissingExtraError, match=r"wubitok\[fast\]"):
        WubiBPE.train(["你好"], vocab_size=1000, backend="fast")
    assert WubiBPE.train(["你好你好"], vocab_size=1000, backend="auto").training["backend"] == "python"


# -- save and load ------------------------------------------------------------------
def test_save_load_gives_identical_model_and_encodings(tok, fortunes, tmp_path):
    path = tmp_path / "model.json"
    tok.save(path)
    again = load_tokenizer(path)
    assert isinstance(again, WubiBPE)
    assert again.to_json() == tok.to_json() == path.read_text(encoding="utf-8")
    held = fortunes[1][:5000]
    assert again.encode(held) == tok.encode(held)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["model"] == "wubi-bpe" and data["version"] == 1
    assert data["dictionary_hash"].startswith("sha256:")
    assert data["codec"] == {"code": "hybrid", "boundary": "final-key", "index": "symbol", "layout": "shared-bytes"}


def _broken(tok, tmp_path, change):
    data = json.loads(tok.to_json())
    change(data)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.update(model="nope"), "unknown model type"),
        (lambda d: d.pop("merges"), "missing merges"),
        (lambda d: d.pop("vocab"), "missing vocab"),
        (lambda d: d.update(dictionary_hash="sha256:0000"), "sha256:0000"),
        (lambda d: d.update(codec={"code": "tiny", "boundary": "separator", "index": "symbol"}), "codec"),
        (lambda d: d["merges"].append([1, 99999]), "merge"),
        (lambda d: d["merges"].append("x"), "merges"),
        (lambda d: d["vocab"].__setitem__(500, "?"), "vocab does not match"),
        (lambda d: d.update(special_tokens=["<s>"]), "special_tokens"),
        (lambda d: d.update(pre_tokens="words"), "unknown pre_tokens"),
        (lambda d: d.update(pre_tokens=1), "pre_tokens must be a string"),
    ],
)
def test_bad_model_files_are_rejected(tok, tmp_path, change, message):
    path = _broken(tok, tmp_path, change)
    with pytest.raises(ModelError, match=message):
        load_tokenizer(path)


def test_not_json_is_rejected(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"format": "wubitok-tokenizer", ', encoding="utf-8")
    with pytest.raises(ModelError, match="not a JSON"):
        load_tokenizer(path)


def test_dictionary_mismatch_names_both_hashes(tok, tmp_path, wubi_dict):
    path = _broken(tok, tmp_path, lambda d: d.update(dictionary_hash="sha256:abc"))
    with pytest.raises(ModelError) as err:
        load_tokenizer(path)
    assert "sha256:abc" in str(err.value) and wubi_dict.content_hash in str(err.value)
