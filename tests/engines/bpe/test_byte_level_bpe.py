"""Byte-level BPE against Hugging Face ``tokenizers``, and its own contract."""
from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

import wubitok
from wubitok.engines.base import load_tokenizer
from wubitok.engines.bpe.byte_level import ByteLevelBPE, bytes_to_unicode
from wubitok.engines.pre_tokenizers.gpt4 import GPT4_PATTERN, PreTokenizer
from wubitok.errors import Cancelled, FileError, InputError, MissingExtraError, ModelError

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"
FORTUNES = (SAMPLES / "fortunes-zh.txt").read_text(encoding="utf-8")
# Mixed Chinese / English text: a training part and a held-out part.
TRAIN = FORTUNES[:60_000]
HELDOUT = FORTUNES[200_000:230_000]


@pytest.fixture(scope="module")
def model():
    return ByteLevelBPE.train([TRAIN], vocab_size=1500, special_tokens=["<mask>", "<|endoftext|>"])


def hf_pre_tokenizer():
    return pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(GPT4_PATTERN), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])


def test_pre_tokens_equal_hf_split_with_the_same_pattern():
    ours = PreTokenizer().split(FORTUNES)
    theirs = [p for p, _ in pre_tokenizers.Split(Regex(GPT4_PATTERN), behavior="isolated").pre_tokenize_str(FORTUNES)]
    assert ours == theirs


def test_pre_tokenizer_follows_cl100k_rules():
    pieces = PreTokenizer().split("I'm 12345 apples!!\n\n  ok 你好，世界。\tHELLO's")
    assert pieces == [
        "I",
        "'m",
        " ",
        "123",
        "45",
        " apples",
        "!!\n\n",
        " ",
        " ok",
        " 你好",
        "，世界",
        "。",
        "\tHELLO",
        "'s",
    ]


def test_pre_tokenizer_matches_longest_special_token_first():
    pretok = PreTokenizer(special_tokens=["<s>", "<s>x"])
    assert list(pretok.pieces("a<s>xb<s>")) == [("a", 0, False), ("<s>x", 1, True), ("b", 5, False), ("<s>", 6, True)]
    assert pretok.split("a<s>xb<s>") == ["a", "b"]
    with pytest.raises(InputError):
        PreTokenizer(special_tokens=[""])
    with pytest.raises(InputError):
        PreTokenizer("(unclosed")


@settings(max_examples=100, deadline=None)
@given(st.text(), st.lists(st.sampled_from(["<s>", "<|x|>", "ab", "\n"]), max_size=3))
def test_pre_tokenizer_pieces_join_back_to_the_text(text, specials):
    pieces = list(PreTokenizer(special_tokens=specials).pieces(text))
    assert "".join(p for p, _, _ in pieces) == text
    assert all(text.startswith(p, start) and p for p, start, _ in pieces)


def test_first_500_merges_equal_hf_bpe_trainer():
    # HF pre-tokenizes the same text itself (same regex, then bytes) and counts.
    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = hf_pre_tokenizer()
    trainer = trainers.BpeTrainer(vocab_size=256 + 500, min_frequency=2, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    hf.train_from_iterator([TRAIN], trainer)
    theirs = [
        tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in json.loads(hf.to_str())["model"]["merges"]
    ]
    ours = ByteLevelBPE.train([TRAIN], vocab_size=4 + 256 + 500)
    as_text = [(ours.id_to_token(a), ours.id_to_token(b)) for a, b in ours.to_dict()["merges"]]
    assert len(as_text) == len(theirs) == 500
    assert as_text == theirs


def test_encoding_equals_hf_bpe_with_the_same_merges(model):
    data = model.to_dict()
    vocab = {tok: i for i, tok in enumerate(data["vocab"])}
    assert len(vocab) == len(data["vocab"])  # no token string repeats here
    merges = [(data["vocab"][a], data["vocab"][b]) for a, b in data["merges"]]
    hf = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    hf.pre_tokenizer = hf_pre_tokenizer()
    for line in HELDOUT.splitlines(keepends=True)[:400]:
        assert model.encode(line).ids == hf.encode(line).ids


def test_fast_backend_trains_the_same_model():
    python = ByteLevelBPE.train([TRAIN], vocab_size=1200, min_frequency=2)
    fast = ByteLevelBPE.train([TRAIN], vocab_size=1200, min_frequency=2, backend="fast")
    assert fast.training["backend"] == "fast" and fast.vocab_size == python.vocab_size == 1200
    n_python, n_fast = len(python.encode(HELDOUT)), len(fast.encode(HELDOUT))
    assert abs(n_fast - n_python) <= 0.01 * n_python
    assert fast.merges == python.merges  # same tie-break, so in fact identical
    assert fast.decode(fast.encode(HELDOUT).ids) == HELDOUT


def test_fast_backend_without_tokenizers_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # makes `import tokenizers` fail
    with pytest.raises(MissingExtraError, match=r"pip install wubitok\[fast\]"):
        ByteLevelBPE.train(["some text some text"], vocab_size=300, backend="fast")
    assert ByteLevelBPE.train(["some text some text"], vocab_size=300, backend="auto").training["backend"] == "python"


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_round_trip_on_arbitrary_unicode(model, text):
    assert model.decode(model.encode(text).ids) == text


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(["<mask>", "<s>", "中文", "English ", "\n", "😀", "<|endoftext|>", "<", "s>", " "]), max_size=12
    )
)
def test_round_trip_with_special_tokens_in_the_text(model, parts):
    text = "".join(parts)
    enc = model.encode(text)
    assert model.decode(enc.ids) == text
    for tok, (s, e) in zip(enc.tokens, enc.offsets):
        if tok in model.special_tokens:
            assert text[s:e] == tok


def test_lone_surrogates_round_trip(model):
    text = "a\ud800b\udfff\ud83d\ude00 中\udc00"
    enc = model.encode(text)
    assert model.decode(enc.ids) == text
    assert any(enc.partial)


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_offsets_cover_the_text_and_partial_marks_split_characters(model, text):
    enc = model.encode(text)
    assert len(enc.ids) == len(enc.tokens) == len(enc.offsets) == len(enc.partial)
    pos = 0  # end of the text covered so far
    for id, (s, e), partial in zip(enc.ids, enc.offsets, enc.partial):
        assert 0 <= s < e <= len(text)
        whole = text[s:e].encode("utf-8", "surrogatepass")
        piece = model.token_bytes(id)
        if partial:
            # Part of a character: the span is that character (and any
            # whole ones the token also holds); it may re-cover the last one.
            assert piece in whole and piece != whole and s in (pos - 1, pos)
        else:
            assert piece == whole and s == pos
        pos = e
    assert pos == len(text)


def test_partial_tokens_get_their_characters_span():
    tiny = ByteLevelBPE()  # no merges: every byte is a token
    enc = tiny.encode("a中b")
    assert enc.offsets == [(0, 1), (1, 2), (1, 2), (1, 2), (2, 3)]
    assert enc.partial == [False, True, True, True, False]
    assert enc.tokens == ["a", "ä", "¸", "Ń", "b"]


def test_id_layout_specials_then_bytes_then_merges(model):
    specials = ["<pad>", "<unk>", "<s>", "</s>", "<mask>", "<|endoftext|>"]
    assert model.special_tokens == specials
    assert [model.id_to_token(i) for i in range(6)] == specials
    b2u = bytes_to_unicode()
    assert [model.id_to_token(6 + b) for b in range(256)] == [b2u[b] for b in range(256)]
    assert model.token_to_id("Ġ") == 6 + 32 and model.display_token(6 + 32) == " "
    assert model.vocab_size == 1500
    assert model.encode("x<|endoftext|>y").tokens == ["x", "<|endoftext|>", "y"]


def test_special_tokens_are_not_learned_from_the_training_text():
    tok = ByteLevelBPE.train(["<mask> a <mask> a"] * 50, vocab_size=300, special_tokens=["<mask>"])
    shown = {tok.display_token(i) for i in range(tok.vocab_size)}
    assert "mask" not in shown and "<m" not in shown


def test_display_token_shows_text_and_escapes_partial_bytes(model):
    zhong = model.encode("中").ids
    shown = "".join(model.display_token(i) for i in zhong)
    assert shown == "中" or "\\x" in shown
    assert ByteLevelBPE().display_token(4 + 0xE4) == "\\xe4"


def test_save_load_gives_identical_model_and_encodings(model, tmp_path):
    path = tmp_path / "bpe.json"
    model.save(path)
    loaded = load_tokenizer(path)
    assert isinstance(loaded, ByteLevelBPE)
    assert loaded.to_json() == model.to_json() == path.read_text(encoding="utf-8")
    for text in (HELDOUT[:3000], "mixed 中文 and <mask> 😀\n\n"):
        a, b = model.encode(text), loaded.encode(text)
        assert (a.ids, a.tokens, a.offsets, a.partial) == (b.ids, b.tokens, b.offsets, b.partial)
    assert ByteLevelBPE.load(path).vocab_size == 1500


def test_training_is_deterministic_and_files_equal_texts(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TRAIN[:20_000], encoding="utf-8")
    a = ByteLevelBPE.train([TRAIN[:20_000]], vocab_size=700)
    b = ByteLevelBPE.train([TRAIN[:20_000]], vocab_size=700)
    c = ByteLevelBPE.train(files=[corpus], vocab_size=700)
    assert a.to_json() == b.to_json() == c.to_json()
    data = json.loads(a.to_json())
    assert data["model"] == "bpe" and data["training"] == {"vocab_size": 700, "min_frequency": 2, "backend": "python"}
    assert data["pre_tokenizer"] == {"type": "regex", "pattern": GPT4_PATTERN}


def test_progress_reaches_total_for_both_stages(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TRAIN, encoding="utf-8")
    calls = []
    ByteLevelBPE.train(files=[corpus], vocab_size=900, progress=lambda *a: calls.append(a))
    counting = [c for c in calls if c[0] == "counting"]
    merging = [c for c in calls if c[0] == "merging"]
    assert counting[-1][1] == counting[-1][2] == corpus.stat().st_size
    assert merging[-1] == ("merging", 900 - 260, 900 - 260)


def test_cancel_raises_cancelled_quickly():
    cancel = threading.Event()
    seen = []

    def progress(stage, done, total):
        if stage == "merging":
            seen.append(done)
            if done >= 20:
                cancel.set()

    with pytest.raises(Cancelled):
        ByteLevelBPE.train([TRAIN], vocab_size=4000, progress=progress, cancel=cancel)
    assert max(seen) < 80


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(texts=["abc"], vocab_size=100), InputError, "too small"),
        (dict(texts=None), InputError, "nothing to train on"),
        (dict(texts=[""], vocab_size=300), InputError, "empty"),
        (dict(texts=["abc"], backend="gpu"), InputError, "unknown backend"),
        (dict(texts=["abc"], dropout=0.1), TypeError, "unexpected keyword argument 'dropout'"),
        (dict(texts=["abc"], special_tokens=[""]), InputError, "non-empty"),
        (dict(texts=None, files=["/nonexistent/corpus.txt"]), FileError, "no such file"),
    ],
)
def test_training_errors_are_clear(kwargs, error, message):
    texts = kwargs.pop("texts")
    with pytest.raises(error, match=message):
        ByteLevelBPE.train(texts, **kwargs)


def test_decode_rejects_unknown_ids_and_replaces_broken_utf8(model):
    with pytest.raises(InputError, match="unknown token id"):
        model.decode([5, model.vocab_size])
    with pytest.raises(InputError, match="unknown token id -1"):
        model.decode([-1])
    e4 = model.token_to_id(bytes_to_unicode()[0xE4])
    assert model.decode([e4, model.token_to_id("a")]) == "\ufffda"


def _corrupt(model, tmp_path, change):
    data = json.loads(model.to_json())
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("merges"),
        lambda d: d.update(version=99),
        lambda d: d.update(model="no-such-engine"),
        lambda d: d["merges"].append([10**6, 7]),
        lambda d: d["merges"][0].reverse() or d["merges"][0].append(1),
        lambda d: d["vocab"].__setitem__(300, "zzz"),
        lambda d: d.update(special_tokens=["<mask>"]),
        lambda d: d["pre_tokenizer"].update(pattern="(unclosed"),
        lambda d: d.update(training=[]),
    ],
)
def test_load_rejects_corrupt_models(model, tmp_path, change):
    with pytest.raises(ModelError):
        load_tokenizer(_corrupt(model, tmp_path, change))


def test_load_rejects_non_json(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelError, match="not a JSON"):
        load_tokenizer(path)


def test_public_export():
    assert wubitok.ByteLevelBPE is ByteLevelBPE
    assert ByteLevelBPE.model_type == "bpe" and ByteLevelBPE.lossless


def test_cli_train_encode_decode_round_trip(tmp_path, capsys):
    from wubitok.cli import main

    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TRAIN[:20_000], encoding="utf-8")
    model_path = tmp_path / "bpe.json"
    assert main(["train", "--model", "bpe", "--vocab-size", "600", "--special-token", "<mask>", "-q",
                 "-o", str(model_path), str(corpus)]) == 0
    assert ByteLevelBPE.load(model_path).special_tokens[-1] == "<mask>"
    text = "混合 text <mask>\n😀\n"
    source = tmp_path / "in.txt"
    source.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["encode", "-m", str(model_path), "--file", str(source), "--json"]) == 0
    ids_file = tmp_path / "ids.json"
    ids_file.write_text(capsys.readouterr().out, encoding="utf-8")
    out = tmp_path / "out.txt"
    assert main(["decode", "-m", str(model_path), "--ids-file", str(ids_file), "-o", str(out)]) == 0
    assert out.read_bytes() == text.encode("utf-8")


def test_cli_subprocess_encodes_with_a_bpe_model(model, tmp_path):
    import subprocess

    path = tmp_path / "bpe.json"
    model.save(path)
    run = subprocess.run([sys.executable, "-m", "wubitok", "encode", "-m", str(path), "--json", "中文 text"],
                         capture_output=True, text=True, check=True)
    assert json.loads(run.stdout)["ids"] == model.encode("中文 text").ids


def test_model_file_is_identical_across_processes_with_different_hash_seeds(tmp_path):
    import os
    import subprocess

    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TRAIN[:15_000], encoding="utf-8")
    code = ("import sys; from wubitok.engines.bpe.byte_level import ByteLevelBPE; "
            "ByteLevelBPE.train(files=[sys.argv[1]], vocab_size=500).save(sys.argv[2])")
    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / f"model{seed}.json"
        subprocess.run([sys.executable, "-c", code, str(corpus), str(out)], check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed})
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
