"""Simplified-first ordering, read lazily: the same order as sorting everything, however it is read."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wubitok.ime.engine import _SimplifiedFirst
from wubitok.ime.index import LEVEL

entries = st.lists(st.tuples(st.integers(0, 9), st.text("abc", max_size=2), st.integers(0, 99),
                             st.sampled_from("一丢丟𠉎"), st.integers(0, 2)), max_size=40)


@given(entries, st.lists(st.integers(-60, 60), max_size=30))
def test_lazy_order_is_the_stable_partition(items, reads):
    expected = sorted(items, key=lambda e: e[LEVEL] != 2)
    view = _SimplifiedFirst(items)
    for i in reads:  # random access in any order, out of range included
        if -len(items) <= i < len(items):
            assert view[i] == expected[i]
        else:
            try:
                view[i]
            except IndexError:
                continue
            raise AssertionError(f"no IndexError for {i}")
    assert len(view) == len(items) and list(view) == expected and view[1:5] == expected[1:5]
