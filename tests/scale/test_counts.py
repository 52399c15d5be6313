"""Count tables as data: merging, TSV files sentencepiece reads, pruning, line samples."""
from __future__ import annotations

from collections import Counter

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.corpus import merge_counts
from wubitok.errors import FileError
from wubitok.scale.counts import BoundedCounts, read_counts_tsv, sample_lines, write_counts_tsv

WORDS = st.dictionaries(st.text(min_size=1, max_size=8), st.integers(1, 10**12), max_size=30)


@given(WORDS, WORDS, WORDS)
def test_merging_is_adding(a, b, c):
    assert merge_counts(merge_counts(a, b), c) == merge_counts(a, merge_counts(b, c)) == Counter(a) + Counter(b) + \
        Counter(c)


@given(WORDS)
def test_tsv_round_trip(tmp_path_factory, counts):
    path = tmp_path_factory.mktemp("tsv") / "counts.tsv"
    write_counts_tsv(counts, path)
    assert read_counts_tsv(path) == Counter(counts)


def test_tsv_is_sorted_and_escaped(tmp_path):
    path = tmp_path / "c.tsv"
    write_counts_tsv({"b": 2, "a": 2, "\n\t\\": 5}, path)
    assert path.read_text(encoding="utf-8") == "\\n\\t\\\\\t5\na\t2\nb\t2\n"


def test_bad_tsv_is_one_line(tmp_path):
    path = tmp_path / "c.tsv"
    path.write_text("good\t3\nbad line\n", encoding="utf-8")
    with pytest.raises(FileError, match="line 2: not word<TAB>count"):
        read_counts_tsv(path)


def test_sentencepiece_reads_the_tsv(tmp_path):
    text = (("你好 世界 " * 3 + "今天 天气 很好 ") * 50).split()
    path = tmp_path / "counts.tsv"
    write_counts_tsv(Counter(text), path)
    prefix = tmp_path / "m"
    spm.SentencePieceTrainer.train(input=str(path), input_format="tsv", model_prefix=str(prefix), vocab_size=20,
                                   model_type="bpe", minloglevel=2)
    sp = spm.SentencePieceProcessor(model_file=f"{prefix}.model")
    assert "▁你好" in [sp.id_to_piece(i) for i in range(sp.get_piece_size())]


def test_pruning_keeps_the_most_frequent():
    table = BoundedCounts(max_words=4)
    table.add({"a": 5, "b": 1, "c": 2})
    table.add({"d": 1, "e": 3})
    assert table.counts == Counter({"a": 5, "e": 3})
    assert table.pruned_words == 3
    assert table.max_undercount == 2  # words of counts 1 and 2 were cut
    unbounded = BoundedCounts()
    unbounded.add({"a": 1, "b": 1, "c": 1})
    assert len(unbounded.counts) == 3


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from("abcdefghij"), st.integers(1, 9), max_size=6), max_size=12),
       st.integers(2, 8))
def test_pruned_counts_keep_the_documented_error_bound(parts, max_words):
    # Lossy counting: a kept count is low by at most max_undercount, never high;
    # a word seen more than max_undercount times is kept.
    table = BoundedCounts(max_words)
    true: Counter = Counter()
    for part in parts:
        table.add(part)
        true.update(part)
        assert len(table.counts) <= max_words
    error = table.max_undercount
    for word, n in true.items():
        kept = table.counts.get(word, 0)
        assert n - error <= kept <= n
        if n > error:
            assert word in table.counts
    if not table.pruned_words:
        assert table.counts == true and error == 0


def test_sample_is_reproducible_and_in_order():
    lines = [f"{i}\n" for i in range(1000)]
    one, two = sample_lines(lines, 50, seed=1), sample_lines(iter(lines), 50, seed=1)
    assert one == two and len(one) == 50 and one == sorted(one, key=lambda s: int(s))
    assert sample_lines(lines, 50, seed=2) != one
    assert sample_lines(lines[:10], 50) == lines[:10]
