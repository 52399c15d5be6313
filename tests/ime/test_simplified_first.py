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


def test_simplified_first_is_off_when_the_output_is_traditional(wubi_dict):
    from wubitok.ime import ImeEngine, ImeOptions
    from wubitok.ime.options import TRADITIONAL_OUTPUTS

    def first_page(**options):
        engine = ImeEngine(wubi_dict, learning=False, **options)
        for key in "tt":
            engine.process(key)
        return [c.text for c in engine.state.candidates]

    as_ranked = first_page(simplified_first=False)
    assert first_page() != as_ranked  # tt: 種 is third as ranked, off the page simplified first
    for output in TRADITIONAL_OUTPUTS:
        assert not ImeOptions(output=output).orders_simplified_first
        assert first_page(output=output) == as_ranked
    assert first_page(output="simplified") == first_page()


def _choose(engine, text: str) -> str:
    """Type ``text``'s full code and pick it, paging as far as it takes."""
    code = max((c.code for c in engine.dictionary.codes(text)), key=len)
    for key in code:
        engine.process(key)
    while True:
        shown = [c.text for c in engine.state.candidates]
        if text in shown:
            return engine.select(shown.index(text))
        assert engine.state.page + 1 < engine.state.page_count, (text, code)
        engine.process("pagedown")


def test_the_order_follows_the_typist_to_traditional_and_back(wubi_dict):
    from wubitok.ime import ImeEngine
    from wubitok.ime.script_sense import TRADITIONAL_AT, WINDOW

    def first_page(engine):
        for key in "tt":
            engine.process(key)
        page = [c.text for c in engine.state.candidates]
        engine.process("escape")
        return page

    as_ranked = first_page(ImeEngine(wubi_dict, learning=False, simplified_first=False))
    engine = ImeEngine(wubi_dict, learning=False, auto_commit=False)  # each choice a pick
    simplified = first_page(engine)
    assert simplified != as_ranked
    # A simplified text's rare characters do not turn it (3 of 20 outside GB2312) ...
    for text in "國語說" + "的" * (WINDOW - TRADITIONAL_AT):
        _choose(engine, text)
    assert first_page(engine) == simplified
    # ... a fourth does: the typist writes traditional, 種 is back on the first page.
    for text in "國語說書":
        assert _choose(engine, text) == text
    assert first_page(engine) == as_ranked
    # Characters both scripts share keep it (the last 20 still hold one outside GB2312) ...
    for text in "的" * (WINDOW - 1):
        _choose(engine, text)
    assert first_page(engine) == as_ranked
    # ... until none of the last 20 is outside GB2312.
    _choose(engine, "的")
    assert first_page(engine) == simplified
