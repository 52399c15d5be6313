"""Typing practice (跟打): runs through the real engine, scores replayed from keys and times,
the history in the user database, the lessons."""
from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.errors import InputError
from wubitok.ime.practice import HINT, KeyEvent, PracticeRun, keys_for, replay, weak_chars, with_review
from wubitok.ime.practice_history import review_chars, save_session, sessions
from wubitok.ime.practice_lessons import LESSONS, lesson_text
from wubitok.ime.userdb import UserFrequencies

LESSON = "你好键盘"


def _timed(keys, step=0.25):
    return [(i * step, k) for i, k in enumerate(keys)]


def test_a_faultless_run_types_the_lesson(wubi_dict):
    keys = keys_for(LESSON, dictionary=wubi_dict)
    run = replay(LESSON, _timed(keys), dictionary=wubi_dict)
    s = run.score()
    assert run.typed == LESSON and run.done and run.errors() == []
    assert (s.chars, s.correct, s.keys, s.wrong) == (4, 4, len(keys), 0)
    assert s.accuracy == 1.0 and s.missed == ()
    assert s.keys_per_char == round(len(keys) / 4, 2)
    assert s.seconds == pytest.approx((len(keys) - 1) * 0.25)
    assert s.speed == pytest.approx(4 * 60 / s.seconds)
    assert s.keys_per_second == pytest.approx(len(keys) / s.seconds)


def test_errors_are_marked_as_they_happen_and_count_after_backspace(wubi_dict):
    run = PracticeRun("你好", wubi_dict)
    for i, k in enumerate(["w", "q", "i", "y", "space"]):
        run.press(k, i * 0.2)
    assert run.errors() == []
    for i, k in enumerate(["k", "h", "k", "space"], 5):  # 中? no: khk types another character
        run.press(k, i * 0.2)
    assert run.typed[0] == "你" and len(run.typed) == 2 and run.errors() == [1]
    run.press("backspace", 2.0)
    assert run.typed == "你" and run.errors() == []
    for i, k in enumerate(["v", "b", "space"]):
        run.press(k, 2.2 + i * 0.2)
    s = run.score()
    assert run.typed == "你好" and s.correct == 2
    assert (s.committed, s.wrong) == (3, 1) and s.accuracy == pytest.approx(2 / 3)
    assert s.missed == (("好", 1),)


def test_a_hint_counts_the_character_as_missed_but_not_as_a_key(wubi_dict):
    run = PracticeRun("好", wubi_dict)
    run.press(HINT, 0.0)
    for i, k in enumerate(["v", "b", "space"], 1):
        run.press(k, float(i))
    s = run.score()
    assert s.keys == 3 and s.missed == (("好", 1),) and s.accuracy == 1.0


def test_bad_input_is_one_clear_error(wubi_dict):
    with pytest.raises(InputError):
        PracticeRun("", wubi_dict)
    run = PracticeRun("好", wubi_dict)
    run.press("v", 1.0)
    with pytest.raises(InputError, match="earlier"):
        run.press("b", 0.5)
    with pytest.raises(InputError):
        run.press("notakey", 2.0)


KEYS = st.sampled_from(list("wqiyvbgkhlm") + ["space", "backspace", "1", "2", HINT])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 2, allow_nan=False), KEYS), max_size=40))
def test_replaying_the_recorded_keys_gives_the_same_figures(wubi_dict, steps):
    run = PracticeRun(LESSON, wubi_dict)
    t = 0.0
    for dt, key in steps:
        t += dt
        run.press(key, t)
    again = replay(LESSON, list(run.events), dictionary=wubi_dict)
    assert again.typed == run.typed and again.errors() == run.errors()
    assert again.score() == run.score()
    assert again.score().as_dict() == run.score().as_dict()
    assert all(isinstance(e, KeyEvent) for e in run.events)


def test_weak_characters_fade_when_typed_right_and_come_back_when_missed():
    assert weak_chars([[("好", 1)], [], []]) == ["好"]  # two sessions ago: 1/4, still due
    assert weak_chars([[("好", 1)], [], [], []]) == []  # three sessions ago: faded
    assert weak_chars([[("好", 1)], [("键", 1)]]) == ["键", "好"]  # the latest miss first
    assert with_review("一二三四五六", ["键"], every=3) == "一二三键四五六键"


def test_history_is_kept_in_the_user_database(tmp_path, wubi_dict):
    db = UserFrequencies(tmp_path / "u.sqlite")
    run = replay("你好", _timed(["w", "q", "i", "y", "space", HINT, "v", "b", "space"]), dictionary=wubi_dict)
    save_session(db, "custom", run.score(), started="2026-12-04T10:00:00Z")
    save_session(db, "chars", run.score(), started="2026-12-04T10:05:00Z")
    db.close()
    again = UserFrequencies(tmp_path / "u.sqlite")
    got = sessions(again)
    assert [r.lesson for r in got] == ["custom", "chars"] and got[0].score == run.score()
    assert review_chars(again) == ["好"]


def test_an_older_user_database_gets_the_practice_table_on_opening(tmp_path):
    path = tmp_path / "old.sqlite"
    c = sqlite3.connect(path)
    c.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    c.execute("INSERT INTO meta VALUES ('schema_version', '2')")
    c.execute("CREATE TABLE user_freq (code TEXT NOT NULL, text TEXT NOT NULL, count INTEGER NOT NULL,"
              " PRIMARY KEY (code, text)) WITHOUT ROWID")
    c.execute("INSERT INTO user_freq VALUES ('wqiy', '你', 3)")
    c.commit()
    c.close()
    db = UserFrequencies(path)
    assert db.count("wqiy", "你") == 3 and sessions(db) == []


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_is_typeable(wubi_dict, lesson):
    text = lesson_text(lesson, dictionary=wubi_dict)
    assert len(text) >= 20
    assert all(wubi_dict.full_code(ch) for ch in text)
