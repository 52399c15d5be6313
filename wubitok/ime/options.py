"""The typist's settings: one store for the engine's options, shared by the pad,
``wubitok type`` and the IBus engine.

They live in ``ime_settings.json`` in the user's data folder, written atomically;
a value a typist cannot have set (a page size of 12, an unknown charset) is an
InputError naming the setting.  Keys the file does not have take their defaults,
so a settings file from an older version still loads.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from ..errors import FileError, InputError
from ..fileio import atomic_write_text, file_lock, parse_json, read_text
from ..paths import user_data_dir
from ..text.script import NEEDS_OPENCC, SCRIPTS, opencc_missing
from ..wubi.dictionary import CHARSETS
from .punctuation import check_user_map

SETTINGS_FILE = "ime_settings.json"
EMPTY_CODE_RULES = ("clear", "keep", "beep")
# "unchanged" commits what the table has; the others convert through OpenCC.
OUTPUTS = ("unchanged", *SCRIPTS)
TRADITIONAL_OUTPUTS = ("traditional", "tw", "hk")


@dataclass(frozen=True)
class ImeOptions:
    page_size: int = 5  # candidates per page, 1-9 (the digit keys pick them)
    auto_commit: bool = True  # a 4-key code with a single candidate commits it
    top_commit: bool = True  # 顶字: a 5th key commits the first candidate and starts a new code
    empty_code: str = "clear"  # a code without candidates on Space / a 5th key: clear, keep, or keep and beep
    learning: bool = True  # order exact matches by the user's choices, and record choices
    fixed_char_order: bool = False  # learning moves phrases only; single characters keep their place
    charset: str = "gbk"  # all, gbk or gb2312 (docs/benchmarks.md: keystrokes per character)
    simplified_first: bool = True  # GB2312 text before other candidates of a code
    output: str = "unchanged"  # or simplified / traditional / tw / hk through OpenCC
    auto_phrase: int = 0  # 0: off; N: a 2-4 character string typed char by char N times becomes a phrase
    punctuation: tuple[tuple[str, str], ...] = ()  # the user's (key, text) pairs over the defaults

    def __post_init__(self) -> None:
        def bad(name: str, allowed: str) -> InputError:
            return InputError(f"{name} must be {allowed}, not {getattr(self, name)!r}")
        for name in ("auto_commit", "top_commit", "learning", "fixed_char_order", "simplified_first"):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, "true or false")
        if not _is_int(self.page_size) or not 1 <= self.page_size <= 9:
            raise InputError(f"page size must be 1-9, not {self.page_size!r}")
        if not _is_int(self.auto_phrase) or not 0 <= self.auto_phrase <= 99:
            raise bad("auto_phrase", "0 (off) or a count 1-99")
        choices = {"empty_code": EMPTY_CODE_RULES, "charset": CHARSETS, "output": OUTPUTS}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise InputError(f"unknown {name.replace('_', ' ')} {getattr(self, name)!r}"
                                 f" (choose from {', '.join(allowed)})")
        object.__setattr__(self, "punctuation", check_user_map(self.punctuation))

    @property
    def orders_simplified_first(self) -> bool:
        """Whether GB2312 text comes first: ``simplified_first``, unless the output is a
        traditional script: then the typist is after traditional text, and putting the
        simplified characters of a code first only costs keys (5.9% more on Tang poems,
        bench/bench_typing.py)."""
        return self.simplified_first and self.output not in TRADITIONAL_OUTPUTS

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["punctuation"] = dict(self.punctuation)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ImeOptions:
        """Options from a mapping (a settings file): unknown keys are ignored."""
        if not isinstance(data, Mapping):
            raise InputError("settings must be a JSON object")
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


def missing_part(name: str, value: object) -> str | None:
    """What setting ``name`` to ``value`` needs that is not installed here ("OpenCC: pip install
    ..."), or None.  Front ends disable such a choice and show this; a stored one falls back
    (:func:`in_force`)."""
    if name == "output" and value != "unchanged" and opencc_missing():
        return NEEDS_OPENCC
    return None


def in_force(options: ImeOptions) -> tuple[ImeOptions, list[str]]:
    """``options`` as they can be in force here: each setting whose part is missing at its
    default instead, and one notice for each (what was set, what it needs, what is used)."""
    defaults = ImeOptions()
    changes, notices = {}, []
    for f in dataclasses.fields(ImeOptions):
        value = getattr(options, f.name)
        needs = missing_part(f.name, value)
        if needs is not None:
            fallback = getattr(defaults, f.name)
            changes[f.name] = fallback
            notices.append(f"{f.name} {value} needs {needs}; typing with {f.name} {fallback} meanwhile")
    return (dataclasses.replace(options, **changes) if changes else options), notices


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def settings_path() -> Path:
    return user_data_dir() / SETTINGS_FILE


def load_options(path: str | Path | None = None) -> ImeOptions:
    """The saved options, or the defaults when nothing was saved yet."""
    p = Path(path) if path is not None else settings_path()
    if not p.exists() and not p.is_symlink():
        return ImeOptions()
    if p.exists() and not p.is_file():  # a FIFO would block the open for good, a device never end
        raise FileError(f"{p}: cannot read the typing settings (not a regular file)")
    try:
        text = read_text(p, "utf-8", max_bytes=1 << 20)  # a settings file is a few hundred bytes
    except FileError as exc:
        raise FileError(f"{p}: cannot read the typing settings ({exc})") from None
    try:
        return ImeOptions.from_dict(parse_json(text))
    except (ValueError, InputError) as exc:  # JsonError is a ValueError: too deep, not JSON
        raise FileError(f"{p}: not valid typing settings ({exc})") from None


def save_options(options: ImeOptions, path: str | Path | None = None) -> None:
    """Replace the saved settings with ``options`` (all of them: see :func:`update_options` for a change)."""
    p = Path(path) if path is not None else settings_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(p):
        _write(p, options)


def update_options(change: Callable[[ImeOptions], ImeOptions], path: str | Path | None = None, *,
                   if_broken: ImeOptions | None = None) -> ImeOptions:
    """Read the saved settings, ``change`` them and save the result, under a lock, so that two
    programs changing different keys at once both keep their change; the new options.
    ``if_broken`` given: an unreadable settings file is replaced by ``change(if_broken)``."""
    p = Path(path) if path is not None else settings_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(p):
        try:
            saved = load_options(p)
        except FileError:
            if if_broken is None:
                raise
            saved = if_broken
        new = change(saved)
        _write(p, new)
    return new


def _write(p: Path, options: ImeOptions) -> None:
    atomic_write_text(p, json.dumps(options.to_dict(), ensure_ascii=False, indent=2) + "\n")
