from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wubitok.text.builder import PART, join_text


@given(st.lists(st.text(max_size=5), max_size=3 * PART + 7))
def test_joined_as_one_join(pieces):
    assert join_text(iter(pieces)) == "".join(pieces)
