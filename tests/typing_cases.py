"""One list of typing cases for every front end of the engine: the app's pad
(tests/gui/panes/test_ime_pad.py, real Qt key events) and the IBus engine through the real
ibus-daemon (tests/platform/test_ibus_engine.py).  Each front end types the keys and
must end with the same document text, the same pre-edit and the same candidate page
as the engine alone does (:func:`engine_result`, an editor applying the keys the
engine leaves to it), and where a case states ``text``/``preedit`` literally, those.

Keys: a character, a named key (space enter backspace escape pageup pagedown), a
navigation key (left right up down), ``shift`` for Shift pressed and released alone,
``ctrl+c``-style chords (``ctrl+Delete``).  ``handled`` lists, per key, whether the front
end must take it (True) or leave it to the application (False); None: not checked.
``settings`` are the typist's options in force, chosen the way the typist chooses them
(the pad's Options menu, the IBus panel's properties) before the keys and put back after.

The IBus engine learns (the pad's tests each start with a fresh user database, the
daemon's engine keeps one for the session), so a case that picks anything but the
first candidate uses a code that no other case types: first choices only reinforce
the order every other case expects.
"""
from __future__ import annotations

from dataclasses import dataclass

from wubitok.ime import ImeEngine, ImeState


@dataclass(frozen=True)
class Case:
    id: str
    keys: tuple[str, ...]
    text: str | None = None  # the document afterwards (None: whatever the engine alone gives)
    preedit: str | None = None
    handled: tuple[bool | None, ...] | None = None
    settings: tuple[tuple[str, object], ...] = ()


def _keys(*groups: str) -> tuple[str, ...]:
    """``_keys("wqiyvb", "space")``: a group with no named key is split into characters."""
    out: list[str] = []
    for g in groups:
        out.extend([g] if g in NAMED or "+" in g[1:] else list(g))
    return tuple(out)


NAMED = {"space", "enter", "backspace", "escape", "pageup", "pagedown", "left", "right", "up", "down", "shift"}
# Chords and navigation keys go to the editor as they are; the engine never sees them.
EDITOR_ONLY = {"left", "right", "up", "down"}

CASES = [
    Case("nihao", _keys("wqiyvb", "space"), "你好", ""),
    Case("fifth-key-commits", _keys("wqiyv"), "你", "v"),
    Case("unique-code-commits-itself", _keys("wqin"), "您", "", (True,) * 4),
    Case("one-key-code", _keys("g", "space", "g", "space"), "一一", ""),
    Case("comma-commits-then-punctuation", _keys("wqiy,"), "你，", ""),
    Case("shift-english-passes-through", _keys("shift", "ab", "shift", "g", "space"), "ab一", "",
         (True, False, False, True, True, True)),
    Case("shift-commits-the-letters", _keys("wq", "shift"), "wq", ""),
    Case("ctrl-c-not-composing", _keys("ctrl+c"), "", "", (False,)),
    Case("arrows-not-composing", _keys("left", "right", "up", "down"), "", "", (False,) * 4),
    Case("arrow-while-composing-stays", _keys("wqiy", "left", "space"), "你", "", (True,) * 6),
    Case("page-down", _keys("a", "pagedown")),
    Case("equals-pages-down-minus-up", _keys("a", "=", "=", "-")),
    Case("digit-picks-on-page-two", _keys("qq", "=", "2")),
    Case("digit-picks", _keys("khlg", "2")),
    Case("escape-drops-the-code", _keys("wqiy", "escape"), "", ""),
    Case("backspace-edits-the-code", _keys("wqiy", "backspace"), "", "wqi"),
    Case("backspace-not-composing", _keys("g", "space", "backspace"), "", "", (True, True, False)),
    Case("enter-commits-the-letters", _keys("wqiy", "enter"), "wqiy", ""),
    Case("enter-not-composing", _keys("enter"), "\n", "", (False,)),
    Case("digit-not-composing-types-itself", _keys("1"), "1", "", (False,)),
    Case("space-not-composing-types-itself", _keys("space"), " ", "", (False,)),
    Case("quotes-alternate", _keys("'", "wqiy", "'"), "‘你’", ""),
    Case("pinyin-lookup", _keys("zni", "space")),
    Case("period-commits", _keys("vb.")),
    Case("digit-dot-stays", _keys("3.14"), "3.14", ""),
    Case("ctrl-delete-while-composing-is-taken", _keys("wqiy", "ctrl+Delete"), None, "wqiy", (True,) * 5),
    # The typist's settings.
    Case("output-traditional", _keys("lgyi"), "國", "", settings=(("output", "traditional"),)),
    Case("output-hk", _keys("yu", "space"), "説", "", settings=(("output", "hk"),)),
    Case("output-tw", _keys("jfd", "space"), "裡", "", settings=(("output", "tw"),)),
    Case("top-commit-off-ignores-a-5th-key", _keys("wqiyv"), "", "wqiy", settings=(("top_commit", False),)),
    Case("auto-commit-off-waits", _keys("wqin"), "", "wqin", settings=(("auto_commit", False),)),
    # 4 keys + Space never types a stray space (issue #39, 3): the Space after a full code is its end.
    Case("full-code-then-space", _keys("thgc", "space", "wqin", "space"), "版您", "", (True,) * 10),
    Case("full-code-then-two-spaces", _keys("thgc", "space", "space"), "版 ", "", (True,) * 5 + (False,)),
    Case("full-code-then-space-auto-commit-off", _keys("thgc", "space"), "版", "",
         settings=(("auto_commit", False),)),
    # A capital letter starts an English run, as in Rime (issue #39, 7).
    Case("capital-starts-an-english-run", _keys("iPhone", "space", "wqvb", "space"), "iPhone你好", "",
         (True,) * 12),
    Case("english-run-then-punctuation", _keys("Wubi86,"), "Wubi86，", ""),
    Case("english-run-backspace-escape", _keys("Abc", "backspace", "escape", "g", "space"), "一", ""),
    Case("empty-code-cleared", _keys("wqiu", "space"), "", ""),
    Case("empty-code-kept", _keys("wqiu", "space"), "", "wqiu", settings=(("empty_code", "keep"),)),
    Case("charset-all-shows-ext-b", _keys("wqiy"), settings=(("charset", "all"),)),
    Case("charset-gb2312", _keys("kh"), settings=(("charset", "gb2312"),)),
    Case("page-size-3", _keys("a", "pagedown"), settings=(("page_size", 3),)),
    Case("page-size-9-digit-9", _keys("b", "9"), settings=(("page_size", 9),)),
]


def engine_result(keys: tuple[str, ...], settings: tuple[tuple[str, object], ...] = ()) -> tuple[str, ImeState]:
    """What an editor holds after ``keys`` typed through the engine alone (no learning)."""
    engine = ImeEngine(**{"learning": False, **dict(settings)})
    doc: list[str] = []
    for key in keys:
        if "+" in key[1:] or key in EDITOR_ONLY:
            continue  # chords and navigation change nothing in these cases
        result = engine.process(key)
        doc.extend(result.committed)
        if not result.handled:
            editor_default(doc, key)
    return "".join(doc), engine.state


def editor_default(doc: list[str], key: str) -> None:
    """What an editor does itself with a key its input method did not take."""
    if key == "enter":
        doc.append("\n")
    elif key == "backspace":
        if doc:
            doc.pop()
    elif key == "space":
        doc.append(" ")
    elif len(key) == 1:
        doc.append(key)


def shown(state: ImeState) -> list[str]:
    """The candidate page as the IBus lookup table shows it: text, then the hint."""
    return [f"{c.text} {c.hint}" if c.hint else c.text for c in state.candidates]
