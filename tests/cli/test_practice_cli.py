"""`wubitok practice`: lessons, the score of a recorded session (replayed), the history."""
from __future__ import annotations

import json

from cli_run import run

from wubitok.ime import UserFrequencies
from wubitok.ime.practice import keys_for, replay, session_json
from wubitok.ime.practice_history import save_session


def _recording(tmp_path, text="你好"):
    keys = keys_for(text)
    rec = replay(text, [(i * 0.5, k) for i, k in enumerate(keys)])
    path = tmp_path / "session.json"
    path.write_text(json.dumps(session_json(rec), ensure_ascii=False), encoding="utf-8")
    return path, rec


def test_score_replays_the_recording(capsys, tmp_path):
    path, rec = _recording(tmp_path)
    code, out, err = run(capsys, "practice", "score", str(path), "--json")
    assert (code, err) == (0, "")
    got = json.loads(out)
    assert got["typed"] == "你好" and got["errors"] == []
    assert got == {"typed": "你好", "errors": [], **rec.score().as_dict()}
    code, out, _ = run(capsys, "practice", "score", str(path))
    assert code == 0 and "keys/char (码长)" in out and "100.0% accurate" in out


def test_a_file_that_is_no_recording_is_one_clear_error(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"text": "你", "events": [[0, 5]]}', encoding="utf-8")
    code, out, err = run(capsys, "practice", "score", str(bad))
    assert code == 2 and out == "" and "event 1 is not [seconds, key]" in err and len(err.splitlines()) == 1


def test_lesson_prints_its_text(capsys):
    code, out, _ = run(capsys, "practice", "lesson", "short1")
    assert code == 0 and len(out.strip()) == 25


def test_history_shows_the_panes_sessions(capsys, user_data_dir, tmp_path):
    _, rec = _recording(tmp_path)
    db = UserFrequencies()
    save_session(db, "chars", rec.score(), started="2026-12-04T10:00:00Z")
    db.close()
    code, out, _ = run(capsys, "practice", "history", "--json")
    got = json.loads(out)
    assert code == 0 and [s["lesson"] for s in got["sessions"]] == ["chars"] and got["review"] == []
