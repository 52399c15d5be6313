"""``wubitok practice``: the lessons, the score of a recorded session, the history (跟打)."""
from __future__ import annotations

import argparse

from ..fileio import parse_json, read_text
from ..ime import UserFrequencies
from ..ime.practice import Score, read_session, replay
from ..ime.practice_history import review_chars, sessions
from ..ime.practice_lessons import LESSONS, lesson_text
from .common import actions_of, help_formatter, print_json

EPILOG = """\
examples:
  wubitok practice lesson short1          the 25 一级简码 characters, to type
  wubitok practice score session.json     speed, 击键, 码长, accuracy of a recording
  wubitok practice score session.json --json
  wubitok practice history

A recording is {"text": "你好", "events": [[0.0, "w"], [0.2, "q"], ..., [1.1, "space"]]}:
seconds since the start and the keys as the engine names them (a letter, space,
backspace, a digit; "hint" for a hint asked for).  Scoring replays the keys through
the same engine as the app's Practice pane, so the figures are the pane's.
The history is the Practice pane's, in the user database of the data folder."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("practice", help="typing practice: lessons, scores, history",
                       formatter_class=help_formatter, epilog=EPILOG,
                       description="Lessons for typing practice, the score of a recorded session, "
                                   "and the history of your sessions.")
    action = actions_of(p, EPILOG)
    lesson = action("lesson", "print a lesson's text", run_lesson)
    lesson.add_argument("name", choices=LESSONS, metavar="NAME", help=", ".join(LESSONS))
    score = action("score", "score a recorded session (replayed through the engine)", run_score)
    score.add_argument("file", metavar="FILE.json")
    score.add_argument("--json", action="store_true", help="print JSON")
    history = action("history", "your practice sessions and the characters to review", run_history)
    history.add_argument("--json", action="store_true", help="print JSON")


def run_lesson(args: argparse.Namespace) -> int:
    print(lesson_text(args.name))
    return 0


def _line(s: Score) -> str:
    return (f"{s.speed:.1f} chars/min\t{s.keys_per_second:.2f} keys/s (击键)\t{s.keys_per_char:.2f} keys/char (码长)"
            f"\t{100 * s.accuracy:.1f}% accurate\t{s.correct}/{s.chars} correct in {s.seconds:.1f} s")


def run_score(args: argparse.Namespace) -> int:
    text, events = read_session(parse_json(read_text(args.file)))
    run = replay(text, events)
    s = run.score()
    if args.json:
        print_json({"typed": run.typed, "errors": run.errors(), **s.as_dict()})
        return 0
    print(_line(s))
    if s.missed:
        print("missed: " + " ".join(f"{ch}×{n}" for ch, n in s.missed))
    return 0


def run_history(args: argparse.Namespace) -> int:
    db = UserFrequencies()
    try:
        rows = sessions(db)
        review = review_chars(db)
    finally:
        db.close()
    if args.json:
        print_json({"sessions": [{"started": r.started, "lesson": r.lesson, **r.score.as_dict()} for r in rows],
                    "review": review})
        return 0
    if not rows:
        print("no practice sessions yet (the app's Practice pane keeps them)")
        return 0
    for r in rows:
        print(f"{r.started}\t{r.lesson}\t{_line(r.score)}")
    if review:
        print("to review: " + "".join(review))
    return 0
