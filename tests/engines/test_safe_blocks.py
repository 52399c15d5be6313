"""safe_blocks: the one place text is cut into blocks for counting and for streamed encoding."""
from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.engines.corpus import last_safe_cut, safe_blocks
from wubitok.engines.pre_tokenizers.wubi import count_wubi_pretokens
from wubitok.errors import Cancelled

_TEXT = st.text(alphabet=st.sampled_from("你好世界 \n\t ab。"), max_size=300)


def _chunks(text: str, sizes: list[int]) -> list[str]:
    out, i = [], 0
    for n in sizes:
        out.append(text[i:i + n])
        i += n
    return [c for c in out if c] + ([text[i:]] if text[i:] else [])


@settings(max_examples=200, deadline=None)
@given(_TEXT, st.lists(st.integers(1, 40), max_size=20), st.sampled_from([None, 1, 7, 64]),
       st.sampled_from([0, 1, 30, 301]))
def test_blocks_give_the_text_back_cut_only_at_safe_places(text, sizes, block_chars, min_chars):
    chunks = _chunks(text, sizes)
    seen: list[str] = []
    blocks = list(safe_blocks(chunks, block_chars, min_chars=min_chars, on_chunk=seen.append))
    assert "".join(blocks) == text and seen == chunks
    if min_chars > len(text):
        assert len(blocks) <= 1  # never enough text to look for a cut
    for block in blocks[:-1]:
        assert block and last_safe_cut(block + "x") == len(block)
    # The Wubi-BPE counts of the blocks add up to those of the whole text.
    total = sum((count_wubi_pretokens(b) for b in blocks), start=count_wubi_pretokens(""))
    assert total == count_wubi_pretokens(text)


def test_a_text_without_a_safe_place_is_cut_at_max_chars_only_when_asked():
    chunks = ["甲" * 10] * 5
    assert list(safe_blocks(chunks)) == ["甲" * 50]
    assert list(safe_blocks(chunks, max_chars=20)) == ["甲" * 20, "甲" * 20, "甲" * 10]


def test_min_chars_looks_for_a_cut_only_once_that_much_has_come():
    chunks = ["a\n", "b\n", "c\n", "d\n"]
    assert list(safe_blocks(chunks)) == ["a\n", "b\n", "c\n", "d\n"]
    # at "a\nb\nc\n" (6 >= 5) the last safe place is before "c"
    assert list(safe_blocks(chunks, min_chars=5)) == ["a\nb\n", "c\nd\n"]


def test_cancel_stops_before_the_next_chunk():
    cancel = threading.Event()
    blocks = safe_blocks(["a\nb\n", "c\nd\n"], cancel=cancel)
    assert next(blocks) == "a\n"
    cancel.set()
    with pytest.raises(Cancelled):
        list(blocks)
