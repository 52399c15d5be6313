from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wubitok.text.builder import same_text, text_blocks, text_parts

STRINGS = st.lists(st.text(alphabet="ab\r\n中\U00020000", max_size=5), max_size=300)


@given(STRINGS, st.integers(1, 40))
def test_the_parts_are_the_text_and_keep_a_crlf_in_one_part(strings, size):
    parts = text_parts(iter(strings), size)
    assert "".join(parts) == "".join(strings)
    assert all(parts)
    assert not any(part.endswith("\r") for part in parts[:-1])
    assert all(len(part) >= size for part in parts[:-1])


def test_the_parts_are_about_their_size():
    parts = text_parts(["中文"] * 100_000, 1000)
    assert len(parts) == 200 and {len(part) for part in parts} == {1000}


@given(STRINGS, st.text(alphabet="ab\r\n中", max_size=12))
def test_same_text_is_equality_with_the_join(strings, text):
    parts = text_parts(strings, 7)
    joined = "".join(parts)
    assert same_text(joined, parts)
    assert same_text(text, parts) == (text == joined)
    assert same_text(joined + text, parts) == (text == "")


@given(st.lists(st.tuples(st.text(alphabet="ab中\U00020000", max_size=9), st.integers(0, 9), st.integers(0, 9))),
       st.integers(1, 5))
def test_the_blocks_of_slices_are_the_text(slices, size):
    slices = [(whole, min(a, b, len(whole)), min(max(a, b), len(whole))) for whole, a, b in slices]
    text = "".join(whole[a:b] for whole, a, b in slices)
    blocks = list(text_blocks(slices, size))
    assert "".join(blocks) == text and all(len(block) == size for block in blocks[:-1])
    assert all(0 < len(block) <= size for block in blocks)
    assert same_text(slices, text_parts([text], 3)) and same_text(slices, [text[:1], "", text[1:]])
    assert not same_text(slices, [text + "a"]) and (not text or not same_text(slices, [text[:-1]]))
