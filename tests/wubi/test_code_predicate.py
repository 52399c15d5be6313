"""One rule for "is this a Wubi code?": 1-4 keys a-y; z only as a search's wildcard."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wubitok.errors import InputError
from wubitok.ime.phrases import check_code
from wubitok.wubi.convert import to_hanzi
from wubitok.wubi.dictionary import default_dictionary, is_wubi_code
from wubitok.wubi.query import classify_query


@pytest.mark.parametrize("s, exact, pattern", [
    ("a", True, True), ("wqiy", True, True), ("yyyy", True, True),
    ("z", False, True), ("wzzz", False, True),
    ("", False, False), ("wqiyy", False, False), ("Wqiy", False, False), ("w1", False, False), ("你", False, False),
])
def test_the_rule(s, exact, pattern):
    assert is_wubi_code(s) is exact
    assert is_wubi_code(s, wildcard=True) is pattern


@given(st.text(alphabet="abcxyzA1 ", max_size=6))
def test_every_caller_agrees_with_it(s):
    d = default_dictionary()
    # A user's phrase code: exactly the rule.
    try:
        check_code(s)
        accepted = True
    except InputError:
        accepted = False
    assert accepted is is_wubi_code(s)
    # The dictionary's candidates and a lookup box take search patterns (z = any key).
    try:
        d.candidates(s, limit=1)
        searched = True
    except InputError:
        searched = False
    assert searched is is_wubi_code(s.lower(), wildcard=True)
    if s.strip() == s and s:
        assert (classify_query(s, "code").kind == "code") is is_wubi_code(s.lower(), wildcard=True)


def test_conversion_refuses_what_is_no_code():
    with pytest.raises(InputError, match="not a Wubi code"):
        to_hanzi("wqiyy")
    assert to_hanzi("wqiy") == "你"
