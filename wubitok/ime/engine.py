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
- ``z`` as the first key starts a pinyin reverse lookup: syllables run together
  (``znihao``, ``v`` for ü); digits select from the page as in Rime (``zni3``: the
  third candidate), and ``;`` then a digit 1-5 filters by tone (``zni;3hao;3``;
  where nothing has that reading the digit is ignored); candidates are
  characters, then the table's phrases, with every Wubi code as the hint
  (``wq wqi wqiy``).  ``zz`` starts the table's symbol codes (``zzbd`` 「」『』,
  ``zzsx`` ±×÷...), listed before any pinyin reading of the same keys (no
  syllable starts with a symbol code's letters, so nothing clashes).  Choices
  made there are not learned.
- Space, punctuation and any other non-code key commit the first candidate of
  the *current page*; digits 1-9 pick from it; ``-``/``=`` and PageUp/PageDown
  turn pages.  A code with no candidates is dropped by them (``empty_code``:
  "clear"), or kept, the key ignored ("keep"; "beep" also sets ``state.alert``);
  Enter commits the typed letters as they are; Backspace removes one; Escape
  drops the code.
- A full 4-key code with exactly one candidate commits itself (``auto_commit``;
  wqin 您 does, wqiy waits: the table also has 仰泳 and an Ext-B character
  there); a 5th key commits the first candidate and starts a new code (顶字上屏,
  ``top_commit``; off: the 5th key is ignored).  A Space right after such a commit
  types nothing: a typist who ends every code with Space (the habit of Rime's wubi86
  and ibus-table, where a full code waits) gets 版 from thgc + Space, not "版 ", whatever
  the setting; a second Space types a space (docs/ime-platforms.md, "4 keys + Space").
- Order of exact matches: the standard two-key short code first (short_codes.py),
  then with ``simplified_first`` GB2312 text before the rest (not when the output is
  a traditional script: ``ImeOptions.orders_simplified_first``; nor while the typist's
  own choices are traditional characters: script_sense.py), then by the user's
  choices (learning), then the user's pins; ``charset`` hides what it excludes.
  The user's own phrases are exact matches of their codes (``user`` is set).
- A capital letter starts a temporary English run, as Rime's ``ascii_composer`` does:
  the letters of the code being typed and the capital become the pre-edit (``iPhone``),
  letters and digits add to it, Space or Enter commits it as typed, Backspace edits
  it, Escape drops it, any other key commits it and then does what it does.
- Shift commits the typed letters and toggles Chinese/English (English: keys
  pass through); ``fullwidth`` toggles full-width letters, digits and symbols;
  ``punctuation`` toggles Chinese punctuation (off: the keys type themselves).
  Chinese punctuation alternates opening and closing quotes; ``.`` after a digit
  stays ``.``; the user's punctuation map replaces single keys.
- ``output`` converts committed text through OpenCC (traditional, tw, hk, or
  simplified); ``auto_phrase`` N turns a 2-4 character string typed character by
  character N times into a user phrase.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, NamedTuple, Sequence, TypeVar

from ..errors import FileError, InputError, MissingExtraError, UnknownCodeError
from ..text.script import convert_script
from ..wubi.dictionary import WILDCARD, WubiDictionary, default_dictionary, in_charset
from .index import CODE, LEVEL, TEXT, CandidateIndex, Entry, in_level, level
from .keys import normalize_key
from .options import ImeOptions, in_force
from .phrases import phrase_entry
from .punctuation import Punctuator, full_width
from .script_sense import ScriptSense
from .userdb import READABLE_REASONS, UserFrequencies

T = TypeVar("T")

MAX_CODE = 4
MAX_LOOKUP = 24  # keys after z: several syllables with tones (zhuang1zhuang1)
PINYIN_KEY = "z"
TONE_KEY = ";"  # in a pinyin lookup: the digit after it is a tone, not a choice
SYMBOL_PREFIX = "zz"
AUTO_PHRASE_LENGTHS = (2, 3, 4)


@dataclass(frozen=True)
class ImeCandidate:
    text: str
    code: str  # the code that types it ("" for a pinyin hit without a Wubi code)
    hint: str  # what to show beside it: keys still to type, or the whole code (wildcard, pinyin)
    kind: str  # "exact", "completion", "pinyin" or "symbol"
    user: bool = False  # the user's own phrase


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
    alert: bool = False  # the last key met an empty code under empty_code="beep"
    chinese_punctuation: bool = True  # punctuation keys give Chinese punctuation (in Chinese mode)
    english_run: bool = False  # the preedit is English a capital letter started (committed as typed)

    @property
    def composing(self) -> bool:
        return bool(self.preedit)


class KeyResult(NamedTuple):
    committed: str  # text for the document ("" if none)
    handled: bool  # False: the key is the editor's (Backspace, Enter... when not composing)


class _SimplifiedFirst(Sequence[Entry]):
    """``entries`` with GB2312 text (level 2) first, each group in its own order, sorted
    only as far as it is read: the first page of a one-key code reads a few of its 2,000
    completions (sorting them all was 0.4 ms of every such key)."""

    def __init__(self, entries: Sequence[Entry]):
        self._entries = entries
        self._unread = iter(entries)
        self._first: list[Entry] = []
        self._rest: list[Entry] = []
        self._done = False

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
            if i < 0:
                raise IndexError("index out of range")
        while not self._done and len(self._first) <= i:
            entry = next(self._unread, None)
            if entry is None:
                self._done = True
            else:
                (self._first if entry[LEVEL] == 2 else self._rest).append(entry)
        if i < len(self._first):
            return self._first[i]
        return self._rest[i - len(self._first)]  # every entry read: IndexError past the end


# Notices already given in this process (a session: the app, one `wubitok type`, the IBus
# engine process): each is said once, however many engines meet it.
_SAID: set[str] = set()


def _pinyin_query(code: str) -> str:
    """The pinyin a ``z`` lookup's code stands for (``zni;3`` -> ``ni3``; a ``;`` still waiting
    for its tone stands for nothing)."""
    return code[1:].replace(TONE_KEY, "")


@lru_cache(maxsize=4)
def _shared_index(dictionary: WubiDictionary) -> CandidateIndex:
    # Several engines (pad, CLI, tests) share one index per dictionary: it holds the whole table.
    return CandidateIndex(dictionary)


class ImeEngine:
    """One typing session.  Feed keys with :meth:`process` / :meth:`press`; read :attr:`state`."""

    def __init__(self, dictionary: WubiDictionary | None = None, *,
                 user_frequencies: UserFrequencies | None = None, **options: Any):
        """``options`` are the :class:`ImeOptions` fields (``options.load_options()`` gives the
        typist's saved ones).  With learning on, choices go to ``user_frequencies`` (default:
        the database in the user's data folder); the user's phrases and pins are read from it."""
        self.dictionary = dictionary if dictionary is not None else default_dictionary()
        self._notices: list[str] = []
        self._options = self._usable(ImeOptions(**options))
        self._index = _shared_index(self.dictionary)
        self._user = user_frequencies
        self._learning_off = False  # the database cannot take writes (read-only, full): said once
        if self._options.learning and self._user is None:
            self._user = self._learning_db()
        self._punctuator = Punctuator(dict(self._options.punctuation))
        self._chinese = True
        self._full_width = False
        self._chinese_punctuation = True
        self._code = ""
        self._latin = ""  # an English run a capital letter started (its letters, as typed)
        self._page = 0
        # Candidates of the current code: exact matches (in learned order), then completions.
        self._exact: Sequence[Entry] = ()
        self._completions: Sequence[Entry] = ()
        self._user_texts: frozenset[str] = frozenset()  # exact matches that are the user's phrases
        self._n_symbols = 0  # in a zz... lookup, the first _n_symbols exact matches are symbols
        self._last: ImeCandidate | None = None
        self._after = ""  # the last character put into the document (a digit keeps "." as it is)
        self._run = ""  # single characters typed one by one since the last other output
        self._run_grew = ""  # what the current key added to _run
        self._alert = False
        self._auto_committed = False  # the last key's full code committed itself
        self._script = ScriptSense()  # whether the typist's choices are traditional characters

    # -- keys -------------------------------------------------------------
    def process(self, key: str) -> KeyResult:
        """Handle one key: a single character, or a named key (see ``keys.NAMED_KEYS``:
        space, enter, backspace, escape, shift, pageup, pagedown, fullwidth, punctuation; aliases bs,
        esc, pgup, pgdn).  Raises InputError for anything else."""
        key = normalize_key(key)
        after_auto_commit, self._auto_committed = self._auto_committed, False
        if key == "space" and after_auto_commit:
            return KeyResult("", True)  # the Space that would have ended the full code
        self._alert = False
        self._run_grew = ""
        if self._latin:
            result = self._latin_key(key)
        elif len(key) == 1 and "A" <= key <= "Z" and self._chinese:
            self._latin = self._code + key  # the letters typed so far were English too (iPhone)
            self._set_code("")
            result = KeyResult("", True)
        else:
            result = self._dispatch(key)
        if not result.handled:
            self._after, self._run = "", ""  # the editor's key: Backspace, Enter...
        elif result.committed:
            self._after = result.committed[-1]
            if result.committed != self._run_grew:
                self._run = ""  # something else went into the document after the characters
        return result

    def _dispatch(self, key: str) -> KeyResult:
        return KeyResult(self._character(key), True) if len(key) == 1 else getattr(self, f"_key_{key}")()

    def _latin_key(self, key: str) -> KeyResult:
        """A key during an English run (a capital letter started it)."""
        if len(key) == 1 and key.isascii() and key.isalnum():
            self._latin += key
            return KeyResult("", True)
        if key in ("backspace", "escape"):
            self._latin = self._latin[:-1] if key == "backspace" else ""
            return KeyResult("", True)
        if key in ("pageup", "pagedown"):
            return KeyResult("", True)
        if key in ("fullwidth", "punctuation"):
            return self._dispatch(key)
        run, self._latin = self._width(self._latin), ""
        if key in ("space", "enter"):
            return KeyResult(run, True)
        after = self._dispatch(key)  # Shift, punctuation: the run first, then the key
        self._after = run[-1]
        return KeyResult(run + after.committed, True)

    def press(self, key: str) -> str:
        """:meth:`process`, returning only the committed text."""
        return self.process(key).committed

    def select(self, i: int) -> str:
        """Commit candidate ``i`` (0-based) of the current page, as a mouse click does."""
        return self._commit(self._on_page(i))

    def _on_page(self, i: int) -> int:
        shown = self._page_range()
        if not 0 <= i < len(shown):
            raise InputError(f"no candidate {i} on this page (it has {len(shown)})")
        return shown[i]

    def _character(self, ch: str) -> str:
        if not self._chinese:
            return self._width(ch)
        if not self._code:
            if "a" <= ch <= "z":
                self._set_code(ch)
                return ""
            return self._plain(ch)
        lookup = self._code[0] == PINYIN_KEY
        if "a" <= ch <= "z":
            if len(self._code) < (1 + MAX_LOOKUP if lookup else MAX_CODE):
                self._set_code(self._code + ch)
                return self._auto_commit()
            if lookup or not self._options.top_commit:
                return ""
            committed = self._commit_first()  # 顶字上屏
            if committed is None:
                return ""
            self._set_code(ch)
            return committed
        if lookup and len(self._code) < 1 + MAX_LOOKUP:
            if ch == TONE_KEY and len(self._code) > 1 and self._code[-1].isalpha():
                self._set_code(self._code + ch)  # the next digit is a tone
                return ""
            if self._code[-1] == TONE_KEY:
                if "1" <= ch <= "5" and self._index.pinyin(_pinyin_query(self._code) + ch, self._options.charset):
                    self._set_code(self._code + ch)  # a tone
                return ""  # after ;, only a tone some reading has
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
        committed = self._commit_first()
        return "" if committed is None else committed + self._plain(ch, committed)

    def _plain(self, ch: str, before: str = "") -> str:
        """A key that is not part of a code, in Chinese mode (``before``: text this key committed)."""
        chinese = self._chinese_punctuation and self._punctuator.convert(ch, before or self._after)
        return chinese or self._width(ch)

    def _width(self, text: str) -> str:
        return full_width(text) if self._full_width else text

    def _key_space(self) -> KeyResult:
        if not self._code:
            return KeyResult(self._width(" "), True)
        return KeyResult(self._commit_first() or "", True)

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

    def _key_punctuation(self) -> KeyResult:
        self._chinese_punctuation = not self._chinese_punctuation
        return KeyResult("", True)

    # -- candidates -------------------------------------------------------
    def _set_code(self, code: str) -> None:
        self._code = code
        self._page = 0
        self._user_texts = frozenset()
        self._n_symbols = 0
        charset = self._options.charset
        if not code:
            self._exact, self._completions = (), ()
        elif code[0] == PINYIN_KEY:
            symbols = self._index.symbols(code) if code.startswith(SYMBOL_PREFIX) else None
            query = _pinyin_query(code)
            hits = self._index.pinyin(query, charset) if query and query[0].isalpha() else ()
            if symbols is None:
                self._exact, self._completions = self._simplified_first(hits), ()
            else:
                self._exact = (*symbols.exact, *symbols.completions, *hits)
                self._n_symbols = len(self._exact) - len(hits)
                self._completions = ()
        else:
            found = self._index.lookup(code, charset)
            exact: Sequence[Entry] = found.exact
            if self._user is not None and WILDCARD not in code:
                exact = self._with_user_phrases(code, exact)
            self._exact = self._pinned(code, self._learned_order(self._simplified_first(exact)))
            self._completions = self._simplified_first(found.completions)

    def _with_user_phrases(self, code: str, exact: Sequence[Entry]) -> Sequence[Entry]:
        assert self._user is not None
        listed = {e[TEXT] for e in exact}
        mine = [t for t in self._user.phrase_texts(code) if t not in listed]
        if not mine:
            return exact
        self._user_texts = frozenset(mine)
        # After the table's entries until chosen; pos -1: a user phrase is no completion of anything.
        extra = in_level(((-1, code, len(exact) + i, t, level(t, in_charset(t, "gb2312")))
                          for i, t in enumerate(sorted(mine))), self._options.charset)
        return (*exact, *extra)

    def _simplified_first(self, entries: Sequence[Entry]) -> Sequence[Entry]:
        if not self._options.orders_simplified_first or self._script.traditional:
            return entries
        return _SimplifiedFirst(entries)

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

    def _pinned(self, code: str, exact: Sequence[Entry]) -> Sequence[Entry]:
        pins = self._user.pins(code) if self._user is not None else []
        if not pins:
            return exact
        out = list(exact)
        for text, position in pins:  # by position, so that each lands where it was put
            at = next((i for i, e in enumerate(out) if e[TEXT] == text), None)
            if at is not None:
                out.insert(min(position, len(out) - 1), out.pop(at))
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
        code, text = item[CODE], item[TEXT]
        if self._code[0] == PINYIN_KEY:
            if i < self._n_symbols:
                return ImeCandidate(text, code, code[len(self._code):], "symbol")
            return ImeCandidate(text, code, " ".join(self._all_codes(text)), "pinyin")
        if WILDCARD in self._code:
            hint = code
        else:
            hint = "" if exact else code[len(self._code):]
        return ImeCandidate(text, code, hint, "exact" if exact else "completion", text in self._user_texts)

    def _all_codes(self, text: str) -> list[str]:
        """Every code that types ``text``, shortest first: a character's short and full
        codes, a phrase's codes in the table and its standard phrase code."""
        codes = {c.code for c in self.dictionary.codes(text)}
        if len(text) > 1:
            try:
                codes.add(self.dictionary.phrase_code(text))
            except UnknownCodeError:
                pass
        return sorted(codes, key=lambda c: (len(c), c))

    def _commit(self, i: int) -> str:
        candidate = self._candidate(i)
        if candidate.kind in ("exact", "completion"):
            if self._learns():
                assert self._user is not None
                self._learn(self._user.record, candidate.code, candidate.text)
            if len(candidate.text) == 1:
                self._grow_run(candidate.text)
        if candidate.kind != "symbol":
            self._script.note(candidate.text)  # before the next code is looked up (顶字)
        self._last = candidate
        self._set_code("")
        text = candidate.text
        if self._options.output != "unchanged":
            try:
                text = convert_script(text, self._options.output)
            except MissingExtraError as exc:  # found, yet it does not load: type what the table has
                self._notice(f"output {self._options.output}: {exc}; typing with output unchanged meanwhile")
                self._options = dataclasses.replace(self._options, output="unchanged")
        self._run_grew = text if self._run_grew else ""
        return text

    def _grow_run(self, char: str) -> None:
        """Count the strings of 2-4 characters that end with ``char``, typed one by one;
        one typed often enough becomes a user phrase (``auto_phrase``)."""
        self._run = (self._run + char)[-max(AUTO_PHRASE_LENGTHS):]
        self._run_grew = char
        n = self._options.auto_phrase
        if not n or not self._learns():
            return
        assert self._user is not None
        ends = [self._run[-k:] for k in AUTO_PHRASE_LENGTHS if len(self._run) >= k]
        for text, count in (self._learn(self._user.note_runs, ends) or {}).items():
            if count >= n:
                try:
                    code, _ = phrase_entry(self.dictionary, text)
                except (InputError, UnknownCodeError):
                    continue  # a character without a Wubi code, or not Han
                if text not in {c.text for c in self.dictionary.exact_candidates(code)}:
                    self._learn(self._user.add_phrase, code, text, "auto")

    def _learns(self) -> bool:
        return self._user is not None and self._options.learning and not self._learning_off

    def _learn(self, write: Callable[..., T], *args: Any) -> T | None:
        """A learning write; where the database cannot take it (the disk filled, the folder
        became read-only) learning stops for this session, said once, and the typing goes on."""
        try:
            return write(*args)
        except FileError as exc:
            self._learning_off = True
            self._notice(f"learning is off for this session: {exc}")
            return None

    def _learning_db(self) -> UserFrequencies:
        """The user database for learning; read-only (learning off, said once) where its folder
        is read-only or its disk full: the typist's phrases and learned order still count."""
        try:
            return UserFrequencies()
        except FileError as exc:
            if exc.params.get("reason") not in READABLE_REASONS:
                raise
            db = UserFrequencies(read_only=True)
            self._learning_off = True
            self._notice(f"learning is off: {db.path} cannot be written ({exc.params['reason']})")
            return db

    def _commit_first(self) -> str | None:
        """Commit the first candidate of the current page.  A code that has none is dropped
        (empty_code "clear": returns ""), or kept (None: the key is to be ignored)."""
        shown = self._page_range()
        if shown:
            return self._commit(shown[0])
        if self._options.empty_code == "clear":
            self._set_code("")
            return ""
        self._alert = self._options.empty_code == "beep"
        return None

    def _auto_commit(self) -> str:
        if (self._options.auto_commit and len(self._code) == MAX_CODE and self._code[0] != PINYIN_KEY
                and self._count() == 1):
            self._auto_committed = True
            return self._commit(0)
        return ""

    # -- the user's entries -------------------------------------------------
    def forget(self, i: int) -> bool:
        """Forget candidate ``i`` (0-based) of the current page: the learned choice, the
        user phrase, its pin (the table's entries stay).  False if nothing was learned."""
        candidate = self._candidate(self._on_page(i))
        db = self._user_db()
        try:
            forgotten = db.forget(candidate.code, candidate.text)
        finally:
            if db is not self._user:
                db.close()
        self._set_code(self._code)
        return forgotten

    def pin(self, i: int, position: int) -> None:
        """Keep candidate ``i`` of the current page at ``position`` (0-based) of its code."""
        candidate = self._candidate(self._on_page(i))
        if candidate.kind not in ("exact",) or candidate.code != self._code:
            raise InputError("only an exact match of the typed code can be pinned")
        db = self._user_db()
        try:
            db.pin(candidate.code, candidate.text, position)
        finally:
            if db is not self._user:
                db.close()
        self._set_code(self._code)

    def add_phrase(self, text: str, code: str | None = None) -> str:
        """Add ``text`` as the user's phrase (the standard phrase code unless ``code``);
        returns the code.  Nothing is written for a bad phrase or code."""
        code, text = phrase_entry(self.dictionary, text, code)
        db = self._user_db()
        try:
            db.add_phrase(code, text)
        finally:
            if db is not self._user:
                db.close()
        self._set_code(self._code)
        return code

    def _user_db(self) -> UserFrequencies:
        return self._user if self._user is not None else UserFrequencies()

    # -- state and settings -----------------------------------------------
    @property
    def state(self) -> ImeState:
        return ImeState(
            preedit=self._latin or self._code,
            candidates=tuple(self._candidate(i) for i in self._page_range()),
            page=self._page,
            page_count=self._page_count(),
            chinese=self._chinese,
            full_width=self._full_width,
            pinyin=self._code[:1] == PINYIN_KEY and not self._latin,
            last_commit=self._last,
            alert=self._alert,
            chinese_punctuation=self._chinese_punctuation,
            english_run=bool(self._latin),
        )

    @property
    def composing(self) -> bool:
        """True while a code or an English run is being typed: every key should then go to the engine."""
        return bool(self._code or self._latin)

    @property
    def user_db(self) -> UserFrequencies | None:
        """The user database choices go to (None until learning first needs one); its
        ``notice`` says if a damaged file was moved aside when it was opened."""
        return self._user

    @property
    def index(self) -> CandidateIndex:
        """The candidate index (shared by the engines of this dictionary in the process)."""
        return self._index

    @property
    def options(self) -> ImeOptions:
        return self._options

    def configure(self, **changes: Any) -> None:
        """Change options (ImeOptions fields); the candidates are looked up again."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(ImeOptions)}
        if unknown:
            raise InputError(f"unknown IME option(s): {', '.join(sorted(unknown))}")
        options = self._usable(dataclasses.replace(self._options, **changes))
        if options.learning and self._user is None:
            self._user = self._learning_db()  # first, so that a FileError changes nothing
        self._options = options
        if "punctuation" in changes:
            self._punctuator = Punctuator(dict(self._options.punctuation))
        self._set_code(self._code)

    def _usable(self, options: ImeOptions) -> ImeOptions:
        """``options`` with each setting whose part is not installed at its default (a
        setting stored before, or made elsewhere, must not stop the typing)."""
        usable, notices = in_force(options)
        self._notice(*notices)
        return usable

    def _notice(self, *notices: str) -> None:
        for notice in notices:
            if notice not in _SAID:
                _SAID.add(notice)
                self._notices.append(notice)

    def take_notices(self) -> list[str]:
        """What the front end should tell the typist (once per process): a setting that
        cannot be in force here and what it needs, learning that is off, an index kept in
        memory.  Each is returned once."""
        if self._index.notice:
            self._notice(self._index.notice)
        notices, self._notices = self._notices, []
        return notices

    def reset_learning(self) -> None:
        """Forget everything learned: choices, own phrases, pins (in the user database, for good)."""
        db = self._user_db()
        db.reset()
        if db is not self._user:
            db.close()
        self._set_code(self._code)

    def reset(self) -> None:
        """Start afresh, as for a new document: no code, no open quotes, no last commit.
        The Chinese/English and full-width modes are the user's and stay."""
        self._set_code("")
        self._latin = ""
        self._punctuator.reset()
        self._last = None
        self._after, self._run = "", ""

    def preload(self) -> None:
        """Load the whole candidate index now (a few seconds with the pinyin readings;
        thread-safe, may run in a worker), so that no keystroke pays for loading."""
        self._index.preload()

    def close(self) -> None:
        if self._user is not None:
            self._user.close()
            self._user = None
