"""WordPiece: BERT pre-tokenization and encoding against Hugging Face
``tokenizers``, training against a brute-force recount, persistence, errors."""
from __future__ import annotations

import json
import sys
import threading
import unicodedata
from collections import Counter

import pytest
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import models, normalizers, pre_tokenizers

from wubitok.engines.base import load_tokenizer
from wubitok.engines.pre_tokenizers.bert import WHITESPACE, BertPreTokenizer
from wubitok.engines.wordpiece.model import BERT_SPECIALS, TRAINED_BY_FAST, WordPiece
from wubitok.engines.wordpiece.trainer import initial_alphabet, train_wordpiece
from wubitok.errors import Cancelled, FileError, InputError, MissingExtraError, ModelError
from wubitok.paths import resources_dir

# Mixed text with the cases normalization makes hard: accents, case, final
# sigma, dotted I, sharp s, a sign whose accent-stripped form is punctuation,
# a lone combining mark, zero-width joiner, Hangul, kana, a ligature, an
# Extension B ideograph, controls, U+FFFD, tab, ideographic and line separator.
TRICKY = ("Café NAÏVE résumé ΣΟΦΙΑΣ İstanbul straße a≠b x\u0301 y\u200dz 한국어 カタカナ ﬁne "
          "𠀀𠀁字 \x00\x07ok\ufffd tab\there\u3000全角\u2028sep ÉCOLE don't e-mail 3.14")


@pytest.fixture(scope="module")
def sample() -> str:
    text = (resources_dir() / "samples" / "fortunes-zh.txt").read_text(encoding="utf-8")
    return text[:120_000]


@pytest.fixture(scope="module")
def model(sample) -> WordPiece:
    return WordPiece.train([sample[:90_000]], vocab_size=3000)


def hf_wordpiece(wp: WordPiece) -> HFTokenizer:
    hf = HFTokenizer(models.WordPiece(vocab={t: i for i, t in enumerate(wp._vocab)}, unk_token="[UNK]",
                                      max_input_chars_per_word=wp.max_input_chars_per_word))
    hf.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True,
                                               strip_accents=wp.strip_accents, lowercase=wp.lowercase)
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return hf


@pytest.mark.parametrize("lowercase,strip_accents", [(False, False), (True, True), (True, False), (False, True)])
def test_encoding_equals_hf_wordpiece_with_the_same_vocab(sample, lowercase, strip_accents):
    wp = WordPiece.train([sample[:90_000], TRICKY], vocab_size=2500, lowercase=lowercase, strip_accents=strip_accents)
    hf = hf_wordpiece(wp)
    lines = (sample[90_000:] + "\n" + TRICKY).splitlines()
    assert len(lines) > 300
    for line in lines:
        ours = wp.encode(line)
        ref = hf.encode(line, add_special_tokens=False)
        assert ours.ids == ref.ids, line
        assert ours.tokens == ref.tokens, line
        assert ours.offsets == [tuple(o) for o in ref.offsets], line


@pytest.mark.parametrize("lowercase,strip_accents", [(False, False), (True, True)])
def test_words_equal_hf_bert_pre_tokenization(sample, lowercase, strip_accents):
    norm = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True,
                                      strip_accents=strip_accents, lowercase=lowercase)
    pre = pre_tokenizers.BertPreTokenizer()
    ours = BertPreTokenizer(lowercase, strip_accents)
    for line in (sample[:20_000] + "\n" + TRICKY).splitlines():
        ref = [w for w, _ in pre.pre_tokenize_str(norm.normalize_str(line))]
        assert [w for w, _ in ours.words(line)] == ref, line


def test_count_words_matches_words(sample):
    pre = BertPreTokenizer(lowercase=True, strip_accents=True)
    text = sample[:30_000] + TRICKY
    expected = Counter(w for line in text.splitlines(keepends=True) for w, _ in pre.words(line))
    assert pre.count_words(text) == expected


def test_whitespace_set_is_category_zs_plus_the_bert_and_hf_extras():
    zs = {chr(cp) for cp in range(0x110000) if unicodedata.category(chr(cp)) == "Zs"}
    assert WHITESPACE == zs | set("\t\n\r\u2028\u2029")


def test_offsets_point_into_the_original_text_after_normalization():
    wp = WordPiece(list(BERT_SPECIALS) + ["cafe", "naive", "##s", "σοφια", "istanbul", "=", "a", "b"],
                   lowercase=True, strip_accents=True)
    text = "  CAFÉs naïve ΣΟΦΙΑ İstanbul a≠b"
    enc = wp.encode(text)
    assert enc.tokens == ["cafe", "##s", "naive", "σοφια", "istanbul", "a", "=", "b"]
    assert [text[a:b] for a, b in enc.offsets] == ["CAFÉ", "s", "naïve", "ΣΟΦΙΑ", "İstanbul", "a", "≠", "b"]


def test_specials_unknown_words_and_long_words():
    wp = WordPiece(list(BERT_SPECIALS) + ["un", "##aff", "##able", "中", "文"], max_input_chars_per_word=10)
    assert [wp.id_to_token(i) for i in range(5)] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    enc = wp.encode("[CLS] unaffable 中文 unafx unaffableunaffable [SEP]")
    assert enc.tokens == ["[CLS]", "un", "##aff", "##able", "中", "文", "[UNK]", "[UNK]", "[SEP]"]
    assert enc.offsets[6] == (19, 24) and enc.offsets[7] == (25, 43)


def test_decode_joins_pieces_and_keeps_chinese_together(model):
    text = "Debian 是一个 free operating system。"
    enc = model.encode(text)
    assert any(t.startswith("##") for t in enc.tokens)
    assert model.decode(enc.ids) == "Debian是一个free operating system。"
    assert not model.lossless
    with pytest.raises(InputError):
        model.decode([model.vocab_size])


def test_training_equals_a_brute_force_recount(sample):
    pre = BertPreTokenizer(lowercase=True)
    counts = pre.count_words(sample[:20_000])
    alphabet = initial_alphabet(counts, "##", None)
    fast = train_wordpiece(counts, alphabet, num_merges=300)
    assert len(fast) == 300
    assert fast == _brute_force_wordpiece(counts, alphabet, 300)


def _brute_force_wordpiece(counts, alphabet, num_merges, threshold=2):
    """Every merge from a full recount: the definition, slowly."""
    ids = {t: i for i, t in enumerate(alphabet)}
    strings = list(alphabet)
    words = []
    for w, c in sorted(counts.items()):
        words.append([[ids[w[0]]] + [ids["##" + ch] for ch in w[1:]], c])
    made = []
    while len(made) < num_merges:
        freq, pairs = Counter(), Counter()
        for seq, c in words:
            for t in seq:
                freq[t] += c
            for p in zip(seq, seq[1:]):
                pairs[p] += c
        cands = [(-(n / (freq[a] * freq[b])), -n, (a, b)) for (a, b), n in pairs.items() if n >= threshold]
        if not cands:
            break
        a, b = min(cands)[2]
        new = strings[a] + strings[b].removeprefix("##")
        if new not in ids:
            ids[new] = len(strings)
            strings.append(new)
            made.append(new)
        m = ids[new]
        for entry in words:
            seq, out, i = entry[0], [], 0
            while i < len(seq):
                if i + 1 < len(seq) and seq[i] == a and seq[i + 1] == b:
                    out.append(m)
                    i += 2
                else:
                    out.append(seq[i])
                    i += 1
            entry[0] = out
    return made


def test_trained_vocabulary_layout(model):
    vocab = model._vocab
    assert vocab[:5] == list(BERT_SPECIALS)
    assert model.vocab_size == 3000
    assert "##e" in vocab and "的" in vocab
    assert model.trained_by.startswith("wubitok")


def test_save_load_gives_identical_encodings(model, sample, tmp_path):
    path = tmp_path / "wp.json"
    model.save(path)
    loaded = load_tokenizer(path)
    assert isinstance(loaded, WordPiece)
    text = sample[90_000:100_000]
    assert loaded.encode(text).ids == model.encode(text).ids
    assert loaded.to_json() == model.to_json()
    assert WordPiece.load(path).vocab_size == model.vocab_size


def test_training_is_deterministic(sample):
    a = WordPiece.train([sample[:30_000]], vocab_size=1500, special_tokens=["<extra>"])
    b = WordPiece.train([sample[:30_000]], vocab_size=1500, special_tokens=["<extra>"])
    assert a.to_json() == b.to_json()
    assert a.token_to_id("<extra>") == 5


def test_files_and_texts_train_the_same(sample, tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text(sample[:30_000], encoding="utf-8")
    assert WordPiece.train(files=[path], vocab_size=1500).to_json() == \
        WordPiece.train([sample[:30_000]], vocab_size=1500).to_json()
    with pytest.raises(FileError):
        WordPiece.train(files=[tmp_path / "missing.txt"], vocab_size=1500)


@pytest.mark.parametrize("data", [
    "not json", "[]", '{"format": "wubitok-tokenizer", "version": 1, "model": "wordpiece"}',
])
def test_corrupt_files_raise_model_error(tmp_path, data):
    path = tmp_path / "bad.json"
    path.write_text(data, encoding="utf-8")
    with pytest.raises(ModelError):
        load_tokenizer(path)


def test_inconsistent_model_raises_model_error(model, tmp_path):
    data = json.loads(model.to_json())
    data["vocab"] = [t for t in data["vocab"] if t != "[UNK]"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelError, match="UNK"):
        load_tokenizer(path)
    data = json.loads(model.to_json())
    data["version"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelError, match="version"):
        load_tokenizer(path)


def test_bad_arguments_raise_input_error(sample):
    with pytest.raises(InputError):
        WordPiece.train([sample[:1000]], vocab_size=3)
    with pytest.raises(InputError):
        WordPiece.train([sample[:1000]], vocab_size=500, backend="turbo")
    with pytest.raises(InputError):
        WordPiece.train(["   \n\t "], vocab_size=500)
    with pytest.raises(InputError):
        WordPiece.train(vocab_size=500)


def test_progress_reaches_total(sample):
    seen = []
    WordPiece.train([sample[:30_000]], vocab_size=1500, progress=lambda s, d, t: seen.append((s, d, t)))
    stage, done, total = seen[-1]
    assert stage == "merging" and done == total > 0
    assert all(d <= t for s, d, t in seen if s == "merging")


def test_cancel_raises_cancelled(sample):
    cancel = threading.Event()

    def progress(stage, done, total):
        if stage == "merging" and done > 0:
            cancel.set()

    with pytest.raises(Cancelled):
        WordPiece.train([sample[:60_000]], vocab_size=3000, progress=progress, cancel=cancel)


def test_fast_backend_says_how_it_was_trained(sample, tmp_path):
    wp = WordPiece.train([sample[:60_000]], vocab_size=2000, backend="fast")
    assert wp.trained_by == TRAINED_BY_FAST
    assert "not the WordPiece score" in wp.describe()["trained_by"]
    assert wp._vocab[:5] == list(BERT_SPECIALS)
    path = tmp_path / "fast.json"
    wp.save(path)
    assert load_tokenizer(path).trained_by == TRAINED_BY_FAST
    # Its vocabulary works with the same encoder, which HF agrees with.
    text = sample[60_000:70_000]
    assert wp.encode(text).ids == hf_wordpiece(wp).encode(text, add_special_tokens=False).ids
    # Files are read by HF itself.  HF breaks ties between equally frequent
    # pairs by hash order, which changes from run to run, so the two models
    # may differ a little, but not in what they do.
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(sample[:60_000], encoding="utf-8")
    from_file = WordPiece.train(files=[corpus], vocab_size=2000, backend="fast")
    assert from_file.trained_by == TRAINED_BY_FAST and abs(from_file.vocab_size - wp.vocab_size) <= 20
    assert abs(len(from_file.encode(text)) / len(wp.encode(text)) - 1) <= 0.01
    with pytest.raises(FileError):
        WordPiece.train(files=[tmp_path / "missing.txt"], vocab_size=2000, backend="fast")


def test_fast_backend_without_tokenizers_names_the_extra(sample, monkeypatch):
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # import now fails, as when not installed
    with pytest.raises(MissingExtraError, match=r"pip install wubitok\[fast\]"):
        WordPiece.train([sample[:1000]], vocab_size=500, backend="fast")
