"""The Wubi-86 composition state machine: keys in, committed text and a state out.

No Qt here.  A client (the GUI pad, ``wubitok type``) drives it like this::

    engine = ImeEngine()
    for key in keys:                  # "w", "1", ",", "space", "backspace", ...
        result = engine.process(key)  # KeyResult(committed, handled)
        editor.insert(result.committed)
        if not result.handled:        # only when not composing: Backspace, Enter,
            editor.default_action(key)   # Escape, PageUp/PageDown belong to the editor
        show(engine.state)            # preedit, candidate page, page count, modes

Behaviour, where IMEs differ, follows ibus-table and Rime:

- Keys a-y build a code of at most 4 keys; ``z`` after the first key is a
  wildcard for one key.  Candidates: exact matches (by the user's choices when
  learning is on, else by dictionary rank), then completions (heaviest first).
- ``z`` as the first key starts a pinyin reverse lookup: up to 6 letters a-z
  (``v`` for ü, no tone digits, since digits select); candidates are characters
  with their Wubi code as the hint.  Choices made there are not learned.
- Space, punctuation and any other non-code key commit the first candidate of
  the *current page*; digits 1-9 pick from it; ``-``/``=`` and PageUp/PageDown
  turn pages.  A code with no candidates is dropped by them; Enter commits the
  typed letters as they are; Backspace removes one; Escape drops the code.
- A full 4-key code with exactly one candidate commits itself (``auto_commit``;
  wqin 您 does, wqiy waits: the table also has 仰泳 and an Ext-B character
  there); a 5th key commits the first candidate and starts a new code (顶字上屏).
- Shift commits the typed letters and toggles Chinese/English (English: keys
  pass through); ``fullwidth`` toggles full-width letters, digits and symbols.
  Chinese punctuation alternates opening and closing quotes.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Sequence

from ..dictionary import CHARSETS, WILDCARD, WubiDictionary, default_dictionary
from ..errors import InputError
from .index import CODE, TEXT, CandidateIndex, Entry
from .keys import normalize_key
from .punctuation import Punctuator, full_width
from .userdb import UserFrequencies

MAX_CODE = 4
MAX_PINYIN = 6  # zhuang, shuang
PINYIN_KEY = "z"


@dataclass(frozen=True)
class ImeOptions:
    page_size: int = 5  # candidates per page, 1-9 (the digit keys pick them)
    auto_commit: bool = True  # a 4-key code with a single candidate commits it
    learning: bool = True  # order exact matches by the user's choices, and record choices
    fixed_char_order: bool = False  # learning moves phrases only; single characters keep their place
    charset: str = "all"  # "common": GB2312 characters only

    def __post_init__(self) -> None:
        if isinstance(self.page_size, bool) or not isinstance(self.page_size, int) or not 1 <= self.page_size <= 9:
            raise InputError(f"page size must be 1-9, not {self.page_size!r}")
        if self.charset not in CHARSETS:
            raise InputError(f"unknown charset {self.charset!r} (choose from {', '.join(CHARSETS)})")


@dataclass(frozen=True)
class ImeCandidate:
    text: str
    code: str  # the code that types it ("" for a pinyin hit without a Wubi code)
    hint: str  # what to show beside it: keys still to type, or the whole code (wildcard, pinyin)
    kind: str  # "exact", "completion" or "pinyin"


@dataclass(frozen=True)
class ImeState:
    preedit: str  # the keys typed so far ("z..." in pinyin lookup)
    candidates: tuple[ImeCandidate, ...]  # the current page; label i+1 selects candidates[i]
    page: int  # 0-based
    page_count: int  # 0 when there are no candidates
    chinese: bool
    full_width: bool
    pinyin: bool  # the preedit is a pinyin reverse lookup
    last_commit: ImeCandidate | None  # the last candidate committed (a learning aid: its code)

    @property
    def composing(self) -> bool:
        return bool(self.preedit)


class KeyResult(NamedTuple):
    committed: str  # text for the document ("" if none)
    handled: bool  # False: the key is the editor's (Backspace, Enter... when not composing)


@lru_cache(maxsize=4)
def _shared_index(dictionary: WubiDictionary) -> CandidateIndex:
    # Several engines (pad, CLI, tests) share one index per dictionary: it holds the whole table.
    return CandidateIndex(dictionary)


class ImeEngine:
    """One typing session.  Feed keys with :meth:`process` / :meth:`press`; read :attr:`state`."""

    def __init__(self, dictionary: WubiDictionary | None = None, *,
                 user_frequencies: UserFrequencies | None = None, **options):
        """``options`` are the :class:`ImeOptions` fields.  With learning on, choices go to
        ``user_frequencies`` (default: the database in the user's data folder)."""
        self.dictionary = dictionary if dictionary is not None else default_dictionary()
        self._options = ImeOptions(**options)
        self._index = _shared_index(self.dictionary)
        self._user = user_frequencies
        if self._options.learning and self._user is None:
            self._user = UserFrequencies()
        self._punctuator = Punctuator()
        self._chinese = True
        self._full_width = False
        self._code = ""
        self._page = 0
        # Candidates of the current code: exact matches (in learned order), then completions.
        self._exact: Sequence[Entry] = ()
        self._completions: Sequence[Entry] = ()
        self._last: ImeCandidate | None = None

    # -- keys -------------------------------------------------------------
    def process(self, key: str) -> KeyResult:
        """Handle one key: a single character, or a named key (see ``keys.NAMED_KEYS``:
        space, enter, backspace, escape, shift, pageup, pagedown, fullwidth; aliases bs,
        esc, pgup, pgdn).  Raises InputError for anything else."""
        key = normalize_key(key)
        if len(key) == 1:
            return KeyResult(self._character(key), True)
        return getattr(self, f"_key_{key}")()

    def press(self, key: str) -> str:
        """:meth:`process`, returning only the committed text."""
        return self.process(key).committed

    def select(self, i: int) -> str:
        """Commit candidate ``i`` (0-based) of the current page, as a mouse click does."""
        shown = self._page_range()
        if not 0 <= i < len(shown):
            raise InputError(f"no candidate {i} on this page (it has {len(shown)})")
        return self._commit(shown[i])

    def _character(self, ch: str) -> str:
        if not self._chinese:
            return self._width(ch)
        if not self._code:
            if "a" <= ch <= "z":
                self._set_code(ch)
                return ""
            return self._plain(ch)
        pinyin = self._code[0] == PINYIN_KEY
        if "a" <= ch <= "z":
            if len(self._code) < (1 + MAX_PINYIN if pinyin else MAX_CODE):
                self._set_code(self._code + ch)
                return self._auto_commit()
            if pinyin:
                return ""
            committed = self._commit_first()  # 顶字上屏
            self._set_code(ch)
            return committed
        if "1" <= ch <= "9":
            n = int(ch)
            shown = self._page_range()
            return self._commit(shown[n - 1]) if n <= len(shown) else ""
        if ch == "0":
            return ""
        if ch == "-":
            return self._key_pageup().committed
        if ch == "=":
            return self._key_pagedown().committed
        return self._commit_first() + self._plain(ch)

    def _plain(self, ch: str) -> str:
        """A key that is not part of a code, in Chinese mode."""
        return self._punctuator.convert(ch) or self._width(ch)

    def _width(self, text: str) -> str:
        return full_width(text) if self._full_width else text

    def _key_space(self) -> KeyResult:
        return KeyResult(self._commit_first() if self._code else self._width(" "), True)

    def _key_enter(self) -> KeyResult:
        raw = self._code
        self._set_code("")
        return KeyResult(raw, bool(raw))

    def _key_backspace(self) -> KeyResult:
        if not self._code:
            return KeyResult("", False)
        self._set_code(self._code[:-1])
        return KeyResult("", True)

    def _key_escape(self) -> KeyResult:
        composing = bool(self._code)
        self._set_code("")
        return KeyResult("", composing)

    def _key_pageup(self) -> KeyResult:
        if self._page > 0:
            self._page -= 1
        return KeyResult("", bool(self._code))

    def _key_pagedown(self) -> KeyResult:
        if self._page + 1 < self._page_count():
            self._page += 1
        return KeyResult("", bool(self._code))

    def _key_shift(self) -> KeyResult:
        raw = self._code
        self._set_code("")
        self._chinese = not self._chinese
        return KeyResult(raw, True)

    def _key_fullwidth(self) -> KeyResult:
        self._full_width = not self._full_width
        return KeyResult("", True)

    # -- candidates -------------------------------------------------------
    def _set_code(self, code: str) -> None:
        self._code = code
        self._page = 0
        if not code:
            self._exact, self._completions = (), ()
        elif code[0] == PINYIN_KEY:
            self._exact = self._index.pinyin(code[1:], self._options.charset) if len(code) > 1 else ()
            self._completions = ()
        else:
            found = self._index.lookup(code, self._options.charset)
            self._exact, self._completions = self._learned_order(found.exact), found.completions

    def _learned_order(self, exact: Sequence[Entry]) -> Sequence[Entry]:
        if self._user is None or not self._options.learning or len(exact) < 2:
            return exact
        counts = [self._user.count(e[CODE], e[TEXT]) for e in exact]
        if not any(counts):
            return exact
        if not self._options.fixed_char_order:
            return [exact[i] for i in sorted(range(len(exact)), key=lambda i: -counts[i])]
        # Phrases are reordered among the places phrases hold; characters stay put.
        slots = [i for i, e in enumerate(exact) if len(e[TEXT]) > 1]
        out = list(exact)
        for slot, i in zip(slots, sorted(slots, key=lambda i: -counts[i])):
            out[slot] = exact[i]
        return out

    def _page_count(self) -> int:
        size = self._options.page_size
        return (self._count() + size - 1) // size

    def _page_range(self) -> range:
        size = self._options.page_size
        start = self._page * size
        return range(start, min(start + size, self._count()))

    def _count(self) -> int:
        return len(self._exact) + len(self._completions)

    def _candidate(self, i: int) -> ImeCandidate:
        exact = i < len(self._exact)
        item = self._exact[i] if exact else self._completions[i - len(self._exact)]
        code = item[CODE]
        if self._code[0] == PINYIN_KEY:
            return ImeCandidate(item[TEXT], code, code, "pinyin")
        if WILDCARD in self._code:
            hint = code
        else:
            hint = "" if exact else code[len(self._code):]
        return ImeCandidate(item[TEXT], code, hint, "exact" if exact else "completion")

    def _commit(self, i: int) -> str:
        candidate = self._candidate(i)
        if candidate.kind != "pinyin" and self._user is not None and self._options.learning:
            self._user.record(candidate.code, candidate.text)
        self._last = candidate
        self._set_code("")
        return candidate.text

    def _commit_first(self) -> str:
        """Commit the first candidate of the current page, or drop a code that has none."""
        shown = self._page_range()
        if shown:
            return self._commit(shown[0])
        self._set_code("")
        return ""

    def _auto_commit(self) -> str:
        if (self._options.auto_commit and len(self._code) == MAX_CODE and self._code[0] != PINYIN_KEY
                and self._count() == 1):
            return self._commit(0)
        return ""

    # -- state and settings -----------------------------------------------
    @property
    def state(self) -> ImeState:
        return ImeState(
            preedit=self._code,
            candidates=tuple(self._candidate(i) for i in self._page_range()),
            page=self._page,
            page_count=self._page_count(),
            chinese=self._chinese,
            full_width=self._full_width,
            pinyin=self._code[:1] == PINYIN_KEY,
            last_commit=self._last,
        )

    @property
    def composing(self) -> bool:
        """True while a code is being typed: every key should then go to the engine."""
        return bool(self._code)

    @property
    def options(self) -> ImeOptions:
        return self._options

    def configure(self, **changes) -> None:
        """Change options (ImeOptions fields); the candidates are looked up again."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(ImeOptions)}
        if unknown:
            raise InputError(f"unknown IME option(s): {', '.join(sorted(unknown))}")
        self._options = dataclasses.replace(self._options, **changes)
        if self._options.learning and self._user is None:
            self._user = UserFrequencies()
        self._set_code(self._code)

    def reset_learning(self) -> None:
        """Forget every learned choice (in the user database, for good)."""
        db = self._user or UserFrequencies()
        db.reset()
        if db is not self._user:
            db.close()
        self._set_code(self._code)

    def reset(self) -> None:
        """Start afresh, as for a new document: no code, no open quotes, no last commit.
        The Chinese/English and full-width modes are the user's and stay."""
        self._set_code("")
        self._punctuator.reset()
        self._last = None

    def preload(self) -> None:
        """Load the whole candidate index now (about 1 s; thread-safe, may run in a worker),
        so that no keystroke pays for loading a first key's entries (10-40 ms each)."""
        self._index.preload()

    def close(self) -> None:
        if self._user is not None:
            self._user.close()
            self._user = None
