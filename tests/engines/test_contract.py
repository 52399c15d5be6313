"""The engine contract, run over every registered engine.

Training takes texts, files, both, or an iterator, and each gives the model
that the same text as one list gives; ``train`` equals ``train_from_counts``
of ``count`` byte for byte, and counts of parts add up to the counts of the
whole; models save and load byte-identically; encode / decode and their
batch forms agree; offsets cover the text; special tokens are never split;
bad arguments fail the same way everywhere.
"""
from __future__ import annotations

import threading
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines import backends
from wubitok.engines.base import available_models, engine_class, load_tokenizer
from wubitok.engines.corpus import Corpus, last_safe_cut, merge_counts
from wubitok.engines.pre_tokenizers.bert import count_bert_words
from wubitok.engines.pre_tokenizers.gpt4 import count_gpt4_pretokens
from wubitok.engines.pre_tokenizers.metaspace import count_runs
from wubitok.engines.pre_tokenizers.wubi import count_wubi_pretokens
from wubitok.errors import Cancelled, FileError, InputError
from wubitok.paths import resources_dir

ENGINES = available_models()
VOCAB = 600
SPECIAL = "<extra>"

_SAMPLE = (resources_dir() / "samples" / "fortunes-zh.txt").read_text(encoding="utf-8")
# Two parts of a mixed Chinese / English / digit text, each ending in a line break.
PART_A = _SAMPLE[:3000].rsplit("\n", 1)[0] + "\n"
PART_B = _SAMPLE[3000:6000].rsplit("\n", 1)[0] + "\nMixed text: GPT-4 and 12345 apples, café.\n"


def _train(model_type, texts=None, **kw):
    kw.setdefault("vocab_size", VOCAB)
    return engine_class(model_type).train(texts, **kw)


@pytest.fixture(scope="module")
def trained():
    """One model per engine from PART_A + PART_B as a list, with an extra special token."""
    return {m: _train(m, [PART_A, PART_B], special_tokens=[SPECIAL]) for m in ENGINES}


def test_all_four_engines_are_registered():
    assert set(ENGINES) == {"wubi-bpe", "bpe", "wordpiece", "unigram"}


@pytest.mark.parametrize("model_type", ENGINES)
def test_files_both_and_an_iterator_train_the_same_model_as_a_list(model_type, trained, tmp_path):
    want = trained[model_type].to_json()
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(PART_A, encoding="utf-8")
    b.write_text(PART_B, encoding="utf-8")
    special = [SPECIAL]
    assert _train(model_type, files=[a, b], special_tokens=special).to_json() == want
    assert _train(model_type, [PART_A], files=[b], special_tokens=special).to_json() == want
    assert _train(model_type, iter([PART_A, PART_B]), special_tokens=special).to_json() == want


@pytest.mark.parametrize("model_type", ENGINES)
def test_train_equals_train_from_counts_of_count_byte_for_byte(model_type, trained):
    cls = engine_class(model_type)
    # Counted in two parts and merged, as a parallel or distributed count would.
    parts = [cls.count([part], special_tokens=[SPECIAL]) for part in (PART_A, PART_B)]
    counts = merge_counts(*parts)
    assert counts == cls.count([PART_A, PART_B], special_tokens=[SPECIAL])
    model = cls.train_from_counts(counts, vocab_size=VOCAB, special_tokens=[SPECIAL])
    assert model.to_json() == trained[model_type].to_json()


# Characters of every kind the pre-tokenizers treat differently.
_TEXT = st.text(st.sampled_from(list("中文字詞 \n\t\r ab.,!?'s12é中") + ["\u3000", "\u2581", "：", "。"]), max_size=80)
COUNTERS = {
    "wubi-bpe": partial(count_wubi_pretokens, special_tokens=("<s>",)),
    "wubi-bpe clause": partial(count_wubi_pretokens, special_tokens=("<s>",), mode="clause"),
    "bpe": partial(count_gpt4_pretokens, special_tokens=("<s>",)),
    "wordpiece": count_bert_words,
    "unigram": count_runs,
}


@settings(max_examples=150, deadline=None)
@given(_TEXT, _TEXT)
def test_counts_of_parts_cut_where_the_reader_cuts_add_up_to_the_counts_of_the_whole(left, right):
    text = left + right
    cut = last_safe_cut(text[: len(left) + 1])
    for count in COUNTERS.values():
        assert merge_counts(count(text[:cut]), count(text[cut:])) == count(text)


def test_the_reader_cuts_big_files_only_at_safe_places(tmp_path, monkeypatch):
    import wubitok.engines.corpus as corpus

    monkeypatch.setattr(corpus, "BLOCK_CHARS", 64)
    path = tmp_path / "c.txt"
    text = (PART_A + "\n\n  indented\n" + PART_B) * 2
    path.write_text(text, encoding="utf-8")
    blocks = list(Corpus(files=[path]).blocks())
    assert "".join(blocks) == text and len(blocks) > 10
    for block in blocks[:-1]:
        assert block.endswith("\n") and last_safe_cut(block + "x") == len(block)


@pytest.mark.parametrize("model_type", ENGINES)
def test_save_and_load_give_the_same_bytes(model_type, trained, tmp_path):
    path = tmp_path / "m.json"
    trained[model_type].save(path)
    loaded = load_tokenizer(path)
    assert type(loaded) is type(trained[model_type])
    assert loaded.to_json() == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("model_type", ENGINES)
def test_vocab_and_repr(model_type, trained):
    tok = trained[model_type]
    vocab = tok.get_vocab()
    assert all(tok.token_to_id(t) == i and tok.id_to_token(i) == t for t, i in vocab.items())
    assert len(vocab) <= tok.vocab_size <= VOCAB and len(vocab) > 0.9 * tok.vocab_size
    assert repr(tok).startswith(f"{type(tok).__name__}(vocab_size={tok.vocab_size}, ") and SPECIAL in repr(tok)


@settings(max_examples=60, deadline=None)
@given(st.lists(_TEXT | st.text(max_size=30), max_size=4))
def test_batches_agree_with_one_at_a_time_and_offsets_cover_the_text(trained, texts):
    for tok in trained.values():
        encodings = tok.encode_batch(texts)
        assert [e.ids for e in encodings] == [tok.encode(t).ids for t in texts]
        assert tok.decode_batch([e.ids for e in encodings]) == [tok.decode(e.ids) for e in encodings]
        for text, enc in zip(texts, encodings):
            assert len(enc.ids) == len(enc.tokens) == len(enc.offsets)
            # In text order: incremental_encode and the views' segments find tokens by bisection.
            assert [s for s, _ in enc.offsets] == sorted(s for s, _ in enc.offsets)
            covered = set()
            for start, end in enc.offsets:
                assert 0 <= start < end <= len(text)
                covered.update(range(start, end))
            if tok.lossless:
                assert covered == set(range(len(text)))
                assert tok.decode(enc.ids) == text
            else:  # WordPiece drops whitespace (and control characters) by design
                assert covered >= {i for i, c in enumerate(text) if not c.isspace() and c.isprintable()}


@pytest.mark.parametrize("model_type", ENGINES)
def test_special_tokens_are_never_split(model_type, trained):
    tok = trained[model_type]
    text = f"中文{SPECIAL}ab{SPECIAL}{SPECIAL} x"
    enc = tok.encode(text)
    sid = tok.token_to_id(SPECIAL)
    assert [o for i, o in zip(enc.ids, enc.offsets) if i == sid] == [(2, 9), (11, 18), (18, 25)]


@pytest.mark.parametrize("model_type", ENGINES)
@pytest.mark.parametrize(
    "kw",
    [
        {"vocab_size": "600"},
        {"vocab_size": True},
        {"vocab_size": 0},
        {"vocab_size": 5},
        {"min_frequency": -1},
        {"min_frequency": 1.5},
        {"special_tokens": [""]},
        {"special_tokens": "<x>"},
        {"progress": 5},
        {"cancel": "stop"},
        {"backend": "turbo"},
        {"texts": [b"bytes"]},
        {"texts": None},
    ],
    ids=lambda kw: "-".join(f"{k}={v!r}" for k, v in kw.items()),
)
def test_bad_values_are_input_errors(model_type, kw):
    kw = {"texts": [PART_A], **kw}
    texts = kw.pop("texts")
    with pytest.raises(InputError):
        _train(model_type, texts, **kw)


@pytest.mark.parametrize("model_type", ENGINES)
def test_unknown_keywords_are_type_errors_and_min_frequency_0_is_accepted(model_type, tmp_path):
    with pytest.raises(TypeError):
        _train(model_type, [PART_A], vocab_sise=600)
    with pytest.raises(TypeError):
        engine_class(model_type).train_from_counts({"a": 1}, colour="red")
    assert _train(model_type, [PART_A], min_frequency=0).vocab_size > 0
    with pytest.raises(FileError):
        _train(model_type, files=[tmp_path / "missing.txt"])


@pytest.mark.parametrize("model_type", ENGINES)
@pytest.mark.parametrize("counts", [{}, {"a": 0}, {"a": -1}, {"a": "1"}, {1: 2}, [("a", 1)]], ids=repr)
def test_bad_counts_are_input_errors(model_type, counts):
    with pytest.raises(InputError):
        engine_class(model_type).train_from_counts(counts, vocab_size=VOCAB)


@pytest.mark.parametrize("model_type", ENGINES)
def test_a_set_cancel_event_stops_training(model_type):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        _train(model_type, [PART_A], cancel=cancel)


@pytest.mark.parametrize("model_type", ENGINES)
def test_progress_reports_counting_up_to_the_corpus_size(model_type):
    seen = []
    _train(model_type, [PART_A, PART_B], progress=lambda stage, done, total: seen.append((stage, done, total)))
    size = len((PART_A + PART_B).encode("utf-8"))
    counting = [(d, t) for s, d, t in seen if s == "counting"]
    assert counting[0] == (0, size) and counting[-1] == (size, size)
    assert [d for d, _ in counting] == sorted(d for d, _ in counting)


@pytest.mark.parametrize("model_type", ENGINES)
def test_auto_means_fast_from_the_corpus_size_the_front_ends_use(model_type, monkeypatch):
    size = len(PART_A.encode("utf-8"))
    monkeypatch.setattr(backends, "AUTO_FAST_BYTES", size + 1)
    # the BPE engines' backends learn the same merges: auto is fast for them at any size
    small = "fast" if model_type in backends.SAME_MODEL else "python"
    assert _train(model_type, [PART_A], backend="auto").training["backend"] == small
    monkeypatch.setattr(backends, "AUTO_FAST_BYTES", size)
    assert backends.choose_backend("auto", model_type, size) == "fast"
    assert _train(model_type, [PART_A], backend="auto", vocab_size=1500).training["backend"] == "fast"


@pytest.mark.parametrize("model_type", ENGINES)
@pytest.mark.parametrize("text", ["", " ", "   \n\t\n", "\u3000\u00a0 \r\n"], ids=repr)
def test_a_blank_corpus_is_refused_alike_by_every_engine(model_type, text, tmp_path, capsys):
    from wubitok.cli import main
    from wubitok.engines.base import NO_TEXT

    with pytest.raises(InputError, match="empty or only whitespace") as caught:
        _train(model_type, [text])
    assert caught.value.code == "training.no_text"
    with pytest.raises(InputError, match="empty or only whitespace"):
        engine_class(model_type).train_from_counts(engine_class(model_type).count([text]), vocab_size=VOCAB)
    corpus = tmp_path / "blank.txt"
    corpus.write_text(text + " \n", encoding="utf-8")
    assert main(["train", "-m", model_type, "-v", str(VOCAB), "-o", str(tmp_path / "m.json"), str(corpus)]) == 2
    assert capsys.readouterr().err.endswith(f"error: {NO_TEXT}\n")
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("model_type", ENGINES)
@pytest.mark.parametrize("specials", [None, [SPECIAL, "<x2>"]], ids=["default-specials", "two-more"])
def test_min_vocab_size_is_the_smallest_size_training_accepts(model_type, specials):
    cls = engine_class(model_type)
    smallest = cls.min_vocab_size(specials)
    model = _train(model_type, [PART_A], vocab_size=smallest, special_tokens=specials)
    assert 0 < model.vocab_size <= smallest
    with pytest.raises(InputError, match="too small"):
        _train(model_type, [PART_A], vocab_size=smallest - 1, special_tokens=specials)
