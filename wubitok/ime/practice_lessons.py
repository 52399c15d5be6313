"""The practice lessons (跟打课程), made from the chart and the bundled dictionary.

Each lesson is a text to type: the roots of one area (its key names and the
roots that are characters, 成字字根), the 25 一级简码 characters, the most used
二级简码 characters, the most used characters and phrases; any other text the
typist opens or pastes is a lesson too (:data:`CUSTOM`).
"""
from __future__ import annotations

from ..errors import InputError
from ..wubi.dictionary import WubiDictionary, default_dictionary
from ..wubi.roots import CHART, KEY_NAMES
from ..wubi.splits import all_splits

CUSTOM = "custom"
LESSONS = ("roots-1", "roots-2", "roots-3", "roots-4", "roots-5", "short1", "short2", "chars", "phrases")
KEY_ORDER = "".join(c.key for c in CHART)  # g f d s a  h j k l m  t r e w q  y u i o p  n b v c x
LESSON_LENGTH = 100  # characters: a few minutes for a learner


def lesson_text(lesson: str, *, dictionary: WubiDictionary | None = None) -> str:
    """The text of a lesson of :data:`LESSONS`."""
    d = dictionary or default_dictionary()
    if lesson.startswith("roots-") and lesson[6:].isdigit() and 1 <= int(lesson[6:]) <= 5:
        return _area_roots(int(lesson[6:]), d)
    if lesson == "short1":
        return "".join(_firsts(d, 1)[k] for k in KEY_ORDER if k in _firsts(d, 1))
    if lesson == "short2":
        return "".join(t for _, t in d.first_choices("short2", common=True, limit=LESSON_LENGTH))
    if lesson == "chars":
        return "".join(d.most_used_han(LESSON_LENGTH))
    if lesson == "phrases":
        return "".join(t for _, t in d.first_choices("phrase", n_chars=2, common=True, limit=LESSON_LENGTH // 2))
    raise InputError(f"unknown lesson {lesson!r} (choose from {', '.join(LESSONS)}, or type a text)")


def _firsts(d: WubiDictionary, keys: int) -> dict[str, str]:
    return dict(d.first_choices(f"short{keys}"))


def _area_roots(area: int, d: WubiDictionary) -> str:
    """The key names of the area, then each key's roots that are characters with a verified
    split (a 成字字根's code is its own: key, then strokes), key by key, twice over."""
    splits = all_splits()
    keys = [c for c in CHART if c.area == area]
    chars = [c.key_name for c in keys]
    for chart in keys:
        chars += [r for r, _ in chart.roots if r not in KEY_NAMES and r in splits and splits[r].kind == "root"]
    return "".join(chars) * 2
