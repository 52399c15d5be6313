"""The shared BPE core against a naive trainer and Hugging Face ``tokenizers``."""
from __future__ import annotations

import json
import random
import threading
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from wubitok.engines.bpe.encoder import MergeApplier
from wubitok.engines.bpe.trainer import train_merges
from wubitok.errors import Cancelled


def naive_merges(words, first_new_id, num_merges, min_frequency=2):
    """Textbook BPE: recount every pair before every merge."""
    seqs = [(list(w), c) for w, c in words]
    merges = []
    for k in range(num_merges):
        pairs = Counter()
        for s, c in seqs:
            for p in zip(s, s[1:]):
                pairs[p] += c
        if not pairs:
            break
        pair, count = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
        if count < max(1, min_frequency):
            break
        merges.append(pair)
        seqs = [(merge_once(s, pair, first_new_id + k), c) for s, c in seqs]
    return merges


def merge_once(seq, pair, new):
    out, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and (seq[i], seq[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def zipf_corpus(n_words=6000, seed=7):
    """Distinct pseudo-words (Latin syllables and Han characters) with Zipf counts."""
    rng = random.Random(seed)
    syllables = ["ka", "to", "ri", "sen", "mu", "la", "ne", "shi", "o", "an", "tr", "qu", "e", "iy"]
    han = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年"
    words = {}
    while len(words) < n_words:
        if rng.random() < 0.3:
            w = "".join(rng.choice(han) for _ in range(rng.randint(1, 6)))
        else:
            w = "".join(rng.choice(syllables) for _ in range(rng.randint(1, 5)))
        words.setdefault(w, 1 + int(2000 / (len(words) + 1) ** 0.9 * rng.random()))
    return words


def codepoint_words(words):
    return [(tuple(map(ord, w)), c) for w, c in words.items()]


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.text(alphabet="abcd", min_size=1, max_size=10), st.integers(1, 6), max_size=25),
    st.integers(0, 3),
)
def test_equals_naive_trainer_on_arbitrary_words(words, min_frequency):
    ws = codepoint_words(words)
    ours = train_merges(ws, first_new_id=1000, num_merges=30, min_frequency=min_frequency)
    assert ours == naive_merges(ws, 1000, 30, min_frequency)


def test_equals_naive_trainer_on_overlapping_runs():
    # "aaaa" and "abab" make pairs that overlap themselves: the trickiest updates.
    words = {"aaaa": 3, "aaa": 2, "abab": 4, "ababab": 1, "baaab": 2, "bbbb": 1}
    ws = codepoint_words(words)
    assert train_merges(ws, first_new_id=500, num_merges=50, min_frequency=1) == naive_merges(ws, 500, 50, 1)


def hf_merges(words, vocab_size, min_frequency):
    """HF BpeTrainer on exactly these words (each word a whitespace-free token)."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=min_frequency, show_progress=False)
    tok.train_from_iterator((" ".join([w] * c) for w, c in words.items()), trainer)
    merges = json.loads(tok.to_str())["model"]["merges"]
    return [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in merges]


def test_thousands_of_merges_equal_hf_bpe_trainer():
    words = zipf_corpus()
    alphabet = sorted({ch for w in words for ch in w})
    num_merges = 3000
    ours = train_merges(codepoint_words(words), first_new_id=0x110000, num_merges=num_merges, min_frequency=2)
    strings = {}

    def text(i):
        return chr(i) if i < 0x110000 else strings[i]

    for k, (a, b) in enumerate(ours):
        strings[0x110000 + k] = text(a) + text(b)
    theirs = hf_merges(words, len(alphabet) + num_merges, 2)
    assert len(ours) == num_merges
    # A merge that re-creates an existing string does not grow HF's vocab; none here.
    assert len(set(strings.values())) == num_merges
    assert [(text(a), text(b)) for a, b in ours] == theirs


def test_word_order_does_not_matter():
    ws = codepoint_words(zipf_corpus(1500, seed=3))
    shuffled = ws[:]
    random.Random(5).shuffle(shuffled)
    kwargs = dict(first_new_id=0x110000, num_merges=400)
    assert train_merges(ws, **kwargs) == train_merges(shuffled, **kwargs)


def test_min_frequency_stops_early_and_progress_ends_at_total():
    calls = []
    merges = train_merges(
        codepoint_words({"abc": 5, "abd": 1, "xy": 1}), first_new_id=200, num_merges=100,
        min_frequency=2, progress=lambda *a: calls.append(a),
    )
    assert merges == [(ord("a"), ord("b")), (200, ord("c"))]
    assert calls[-1] == ("merging", 2, 2)


def test_progress_is_monotonic_and_reaches_total():
    calls = []
    train_merges(codepoint_words(zipf_corpus(2000)), first_new_id=0x110000, num_merges=500,
                 progress=lambda *a: calls.append(a))
    assert {stage for stage, _, _ in calls} == {"merging"}
    done = [d for _, d, _ in calls]
    assert done == sorted(done) and len(calls) >= 50
    assert calls[-1] == ("merging", 500, 500)


def test_cancel_raises_cancelled_before_merging_much():
    cancel = threading.Event()
    seen = []

    def progress(stage, done, total):
        seen.append(done)
        if done >= 50:
            cancel.set()

    with pytest.raises(Cancelled):
        train_merges(codepoint_words(zipf_corpus(2000)), first_new_id=0x110000, num_merges=1000,
                     progress=progress, cancel=cancel)
    assert max(seen) < 100


def test_cancel_set_up_front_stops_at_once():
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        train_merges(codepoint_words({"ab": 3}), first_new_id=200, num_merges=5, cancel=cancel)


def test_applier_reproduces_training_segmentation_and_hf_encoding():
    words = zipf_corpus(3000, seed=11)
    ws = codepoint_words(words)
    merges = train_merges(ws, first_new_id=0x110000, num_merges=1500)
    applier = MergeApplier(merges, first_new_id=0x110000)
    # Reference: every merge applied to the word in creation order.
    for symbols, _ in ws[:400]:
        seq = list(symbols)
        for k, pair in enumerate(merges):
            seq = merge_once(seq, pair, 0x110000 + k)
        assert applier.apply(symbols) == seq
        assert applier.apply(list(symbols)) == seq  # cached path, list input
    # HF's BPE model with the same merges splits the same way.
    strings = {}

    def text(i):
        return chr(i) if i < 0x110000 else strings[i]

    vocab = {ch: n for n, ch in enumerate(sorted({ch for w in words for ch in w}))}
    for k, (a, b) in enumerate(merges):
        strings[0x110000 + k] = text(a) + text(b)
        vocab.setdefault(strings[0x110000 + k], len(vocab))
    hf = Tokenizer(models.BPE(vocab=vocab, merges=[(text(a), text(b)) for a, b in merges]))
    hf.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    for w in list(words)[:400]:
        assert [text(i) for i in applier.apply(tuple(map(ord, w)))] == hf.encode(w).tokens


def test_applier_bytes_input_and_small_cache():
    merges = [(ord("a"), ord("b")), (256, ord("c"))]
    applier = MergeApplier(merges, first_new_id=256, cache_size=1)
    assert applier.apply(b"abcab") == [257, 256]
    assert applier.apply(b"xab") == [ord("x"), 256]
    assert applier.apply(b"abcab") == [257, 256]
    assert MergeApplier(merges, 256, cache_size=0).apply([97, 98]) == [256]
    assert applier.apply([]) == [] and applier.apply([5]) == [5]
