"""The exported order is the order the engine lists: checked against ImeEngine itself."""
from __future__ import annotations

import random

import pytest
from taught import LEARNED, PHRASES, PINS

from wubitok.ime import ImeEngine, ImeOptions
from wubitok.ime.tables import typing_table


def _engine_exact(wubi_dict, db, options: ImeOptions, code: str) -> list[str]:
    engine = ImeEngine(wubi_dict, user_frequencies=db,
                       **{**options.to_dict(), "auto_commit": False, "page_size": 9})
    for key in code:
        engine.process(key)
    texts = []
    while True:
        state = engine.state
        texts += [c.text for c in state.candidates if c.kind == "exact"]
        if state.page + 1 >= state.page_count or state.candidates[-1].kind != "exact":
            return texts
        engine.process("pagedown")


def _codes(table, n: int) -> list[str]:
    codes = sorted({e.code for e in table})
    taught = {c for c, *_ in PHRASES + LEARNED + PINS} | {"cg", "ed", "wqiy", "a", "aa"}
    return sorted(taught | set(random.Random(14).sample(codes, n)))


def test_each_code_lists_what_the_engine_lists(wubi_dict, taught_db, taught_table):
    by_code: dict[str, list[str]] = {}
    for e in taught_table:
        by_code.setdefault(e.code, []).append(e.text)
    for code in _codes(taught_table, 150):
        assert by_code[code] == _engine_exact(wubi_dict, taught_db, ImeOptions(), code), code


@pytest.mark.parametrize("options", [
    ImeOptions(charset="all", simplified_first=False, learning=False),
    ImeOptions(charset="gb2312", fixed_char_order=True),
])
def test_other_settings(wubi_dict, taught_db, options):
    table = typing_table(wubi_dict, taught_db, options)
    by_code: dict[str, list[str]] = {}
    for e in table:
        by_code.setdefault(e.code, []).append(e.text)
    for code in _codes(table, 40):
        assert by_code.get(code, []) == _engine_exact(wubi_dict, taught_db, options, code), code


def test_user_phrases_are_marked(taught_table):
    assert {(e.code, e.text) for e in taught_table if e.user} == set(PHRASES)
