"""Typing practice (跟打): a lesson typed through the engine, scored from the keys and their times.

A :class:`PracticeRun` feeds each key to an :class:`~wubitok.ime.ImeEngine` (the
bundled dictionary, default options, no learning: practice must not reorder the
typist's candidates) and compares what the engine commits with the lesson text,
character by character, as it happens.  Everything a run knows comes from its
list of :class:`KeyEvent` (key and time), so :func:`replay` of the recorded events
gives the same :class:`Score`: the pane, the CLI (``wubitok practice``) and the
tests all score this way.

The figures (as 跟打器 such as typepad count them):

- speed: correct characters per minute, from the first key to the last;
- 击键: keys per second; 码长: keys per character typed (two decimals);
- accuracy: of every character committed (also those erased again), the share
  that was the lesson's character at that place;
- missed: the lesson characters typed wrong, or whose hint was asked for, most first.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import InputError
from ..wubi.dictionary import WubiDictionary, default_dictionary
from .engine import ImeEngine, KeyResult
from .keys import normalize_key

HINT = "hint"  # not a key of the engine: the typist asked for the next character's code


@dataclass(frozen=True)
class KeyEvent:
    t: float  # seconds since the run started
    key: str  # a key as the engine names it (``w``, ``space``, ``backspace``), or HINT


@dataclass(frozen=True)
class Score:
    chars: int  # characters in the typed text at the end
    correct: int  # of them, the lesson's character at that place
    keys: int  # keys pressed (hints not counted)
    seconds: float
    committed: int  # characters committed, erased ones included
    wrong: int  # of them, not the lesson's character at that place
    missed: tuple[tuple[str, int], ...]  # (lesson character, misses and hints), most first

    @property
    def speed(self) -> float:
        """Correct characters per minute."""
        return self.correct * 60 / self.seconds if self.seconds > 0 else 0.0

    @property
    def keys_per_second(self) -> float:
        """击键: keys per second."""
        return self.keys / self.seconds if self.seconds > 0 else 0.0

    @property
    def keys_per_char(self) -> float:
        """码长: keys per character typed, to two decimals."""
        return round(self.keys / self.chars, 2) if self.chars else 0.0

    @property
    def accuracy(self) -> float:
        return (self.committed - self.wrong) / self.committed if self.committed else 0.0

    def as_dict(self) -> dict[str, object]:
        return {"chars": self.chars, "correct": self.correct, "keys": self.keys, "seconds": round(self.seconds, 3),
                "speed": round(self.speed, 1), "keys_per_second": round(self.keys_per_second, 2),
                "keys_per_char": self.keys_per_char, "accuracy": round(self.accuracy, 4),
                "committed": self.committed, "wrong": self.wrong, "missed": [list(m) for m in self.missed]}


@dataclass
class PracticeRun:
    """One lesson being typed.  :meth:`press` each key with its time; :attr:`typed` is the text so
    far, :meth:`errors` the places typed wrong, :meth:`score` the figures."""

    text: str
    dictionary: WubiDictionary | None = None
    events: list[KeyEvent] = field(default_factory=list)
    typed: str = ""
    _committed: int = 0
    _wrong: int = 0
    _missed: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        if not self.text:
            raise InputError("a lesson needs some text to type")
        self.engine = ImeEngine(self.dictionary or default_dictionary(), learning=False)

    @property
    def done(self) -> bool:
        return len(self.typed) >= len(self.text)

    @property
    def next_char(self) -> str:
        """The lesson character to type next ("" at the end)."""
        return self.text[len(self.typed)] if not self.done else ""

    def errors(self) -> list[int]:
        """Places of the typed text that differ from the lesson."""
        return [i for i, ch in enumerate(self.typed) if i >= len(self.text) or ch != self.text[i]]

    def press(self, key: str, t: float) -> KeyResult:
        """Type ``key`` at time ``t`` (seconds since the start; never earlier than the last key)."""
        if self.events and t < self.events[-1].t:
            raise InputError(f"key at {t:.3f} s is earlier than the one before it ({self.events[-1].t:.3f} s)")
        if key == HINT:
            self.events.append(KeyEvent(t, HINT))
            if self.next_char:
                self._missed[self.next_char] += 1
            return KeyResult("", True)
        key = normalize_key(key)
        self.events.append(KeyEvent(t, key))
        result = self.engine.process(key)
        if not result.handled and key == "backspace":
            self.typed = self.typed[:-1]  # the editor's Backspace: the last character goes
        for ch in result.committed:
            at = len(self.typed)
            self.typed += ch
            self._committed += 1
            if at >= len(self.text) or self.text[at] != ch:
                self._wrong += 1
                if at < len(self.text):
                    self._missed[self.text[at]] += 1
        return result

    def score(self) -> Score:
        keys = [e for e in self.events if e.key != HINT]
        seconds = keys[-1].t - keys[0].t if len(keys) > 1 else 0.0
        correct = sum(1 for i, ch in enumerate(self.typed) if i < len(self.text) and ch == self.text[i])
        missed = tuple(sorted(self._missed.items(), key=lambda kv: (-kv[1], kv[0])))
        return Score(len(self.typed), correct, len(keys), seconds, self._committed, self._wrong, missed)


def replay(text: str, events: Iterable[KeyEvent | tuple[float, str]], *,
           dictionary: WubiDictionary | None = None) -> PracticeRun:
    """A run of ``text`` with the recorded ``events`` typed again: the same text, errors and score."""
    run = PracticeRun(text, dictionary)
    for e in events:
        t, key = (e.t, e.key) if isinstance(e, KeyEvent) else e
        run.press(key, float(t))
    return run


def keys_for(text: str, *, dictionary: WubiDictionary | None = None) -> list[str]:
    """Keys that type ``text`` one character at a time by its full code (a typist who knows every
    code: what a faultless run presses): the code's keys, then its selector or Space unless the
    engine committed it already (a unique 4-key code)."""
    from ..wubi.convert import spelled_code

    d = dictionary or default_dictionary()
    engine = ImeEngine(d, learning=False)
    keys: list[str] = []
    for ch in text:
        code = d.full_code(ch)
        if code is None:
            raise InputError(f"{ch!r} has no Wubi code")
        committed = ""
        for k in code:
            keys.append(k)
            committed = engine.press(k)
        if not committed:
            selector = spelled_code(code, ch, dictionary=d)[len(code):]
            keys.append(selector or "space")
            engine.press(keys[-1])
    return keys


def weak_chars(sessions: Sequence[Sequence[tuple[str, int]]], limit: int = 20) -> list[str]:
    """The characters to review, weakest first, from the missed lists of past sessions (oldest
    first): a miss counts half as much with each later session (spaced repetition: a
    character typed right again fades out; one missed again comes back at once)."""
    weight: Counter[str] = Counter()
    for age, missed in enumerate(reversed(sessions)):
        for ch, n in missed:
            weight[ch] += n / 2 ** age
    return [ch for ch, w in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0])) if w >= 0.25][:limit]


def with_review(lesson: str, weak: Sequence[str], every: int = 5) -> str:
    """``lesson`` with the ``weak`` characters woven in, one after every ``every`` characters,
    so that the characters missed before come back more often than the rest."""
    if not weak:
        return lesson
    out, w = [], 0
    for i, ch in enumerate(lesson, 1):
        out.append(ch)
        if i % every == 0:
            out.append(weak[w % len(weak)])
            w += 1
    return "".join(out)


def session_json(run: PracticeRun) -> dict[str, object]:
    """A run as a recording: its lesson text and its key events (``wubitok practice score``)."""
    return {"text": run.text, "events": [[round(e.t, 3), e.key] for e in run.events]}


def read_session(obj: object) -> tuple[str, list[tuple[float, str]]]:
    """The lesson text and events of a recording (:func:`session_json`); InputError if it is none."""
    if not isinstance(obj, dict) or not isinstance(obj.get("text"), str) or not isinstance(obj.get("events"), list):
        raise InputError('a practice recording is {"text": "...", "events": [[seconds, key], ...]}')
    events: list[tuple[float, str]] = []
    for i, e in enumerate(obj["events"]):
        if (not isinstance(e, list) or len(e) != 2 or isinstance(e[0], bool)
                or not isinstance(e[0], (int, float)) or not isinstance(e[1], str)):
            raise InputError(f"event {i + 1} is not [seconds, key]: {str(e)[:40]}")
        events.append((float(e[0]), e[1]))
    return obj["text"], events
