"""`wubitok type`: key scripts through the input engine, JSON state, one-line errors."""
from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import run

from wubitok.ime import ImeOptions, UserFrequencies, save_options

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("keys, text", [
    ("wqiyvb{space}", "你好"),
    ("khlg{space}", "中国"),
    ("wqiy vb ", "你好"),
    ("khlg{space}g{space},wqiy2", "中国一，仰泳"),
    ('"wqiy{shift}hello{shift}"', "“wqiyhello”"),
    ("wqiyvb{space}{enter}vb{bs}{bs}", "你好\n"),  # Backspace edits the code, then the text
    ("vb{esc}{pgdn}{pgup}", ""),
])
def test_typed_text_is_printed(capsys, keys, text):
    code, out, err = run(capsys, "type", keys)
    assert (code, out, err) == (0, text + "\n", "")


def test_enter_and_backspace_edit_the_output_when_not_composing(capsys):
    assert run(capsys, "type", "vb{space}{enter}{bs}{bs}wqiy{enter}")[1] == "wqiy\n"


def test_json_has_committed_preedit_and_the_candidate_page(capsys, wubi_dict):
    code, out, _ = run(capsys, "type", "wqiyvb", "--json")
    assert code == 0
    state = json.loads(out)
    assert state["committed"] == "你" and state["preedit"] == "vb"
    first = state["candidates"][0]
    assert (first["text"], first["code"], first["hint"]) == ("好", "vb", "")
    assert all(c["hint"] == c["code"][2:] for c in state["candidates"][1:])
    assert state["page"] == 0 and state["page_count"] > 1
    assert state["last_commit"]["text"] == "你" and state["chinese"] and not state["pinyin"]


def test_json_pinyin_lookup_and_options(capsys, wubi_dict):
    state = json.loads(run(capsys, "type", "zyi", "--json", "--page-size", "9", "--charset", "gb2312")[1])
    assert state["pinyin"] and len(state["candidates"]) == 9
    assert [c["text"] for c in state["candidates"]] == [h.char for h in wubi_dict.by_pinyin("yi", charset="gb2312")][:9]
    assert all(c["hint"].split()[-1] == wubi_dict.full_code(c["text"]) for c in state["candidates"])


def test_no_auto_commit(capsys):
    assert run(capsys, "type", "wqin")[1] == "您\n"
    state = json.loads(run(capsys, "type", "wqin", "--no-auto-commit", "--json")[1])
    assert state["committed"] == "" and state["candidates"][0]["text"] == "您"


def test_nothing_is_learned_unless_asked(capsys, user_data_dir):
    for _ in range(2):
        assert run(capsys, "type", "khlg3")[1] == "跑车\n"
    assert run(capsys, "type", "khlg{space}")[1] == "中国\n"
    assert not (user_data_dir / "ime_user.sqlite").exists()
    run(capsys, "type", "khlg3", "--learn")
    assert run(capsys, "type", "khlg{space}", "--learn")[1] == "跑车\n"
    assert run(capsys, "type", "khlg{space}", "--no-learn")[1] == "中国\n"
    db = UserFrequencies()
    assert db.count("khlg", "跑车") == 2  # the --learn space commit counted too
    db.close()


def test_a_damaged_user_database_is_moved_aside_with_one_line(capsys, user_data_dir):
    user_data_dir.mkdir(parents=True)
    junk = b"not a database at all\x00" * 100
    (user_data_dir / "ime_user.sqlite").write_bytes(junk)
    code, out, err = run(capsys, "type", "khlg{space}", "--learn")
    (aside,) = [p for p in user_data_dir.iterdir() if ".corrupt-" in p.name]
    assert (code, out) == (0, "中国\n")
    assert err.count("\n") == 1 and str(aside) in err and "damaged" in err
    assert aside.read_bytes() == junk
    assert run(capsys, "type", "khlg{space}", "--learn") == (0, "中国\n", "")  # said once


@pytest.mark.parametrize("argv, message", [
    (["type", "wq{tab}"], "unknown key {tab}"),
    (["type", ""], "no keys given"),
    (["type", "wq{space"], "unclosed '{'"),
    (["type", "wq", "--page-size", "12"], "page size must be 1-9"),
    (["type", "wq", "--charset", "rare"], "invalid choice"),
])
def test_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_help_has_examples(capsys):
    code, out, _ = run(capsys, "type", "--help")
    assert code == 0 and "wubitok type 'wqiyvb{space}'" in out and "{pgdn}" in out


def test_subprocess_run(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "wubitok", "type", "wqiyvb{space}"],
        capture_output=True, text=True, encoding="utf-8", cwd=REPO,
        env={"PATH": "", "WUBITOK_DATA_DIR": str(tmp_path), "PYTHONIOENCODING": "utf-8"},
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "你好\n", "")


@pytest.fixture
def without_opencc(monkeypatch):
    """This process as one without OpenCC (``import opencc`` fails; nothing is uninstalled), each
    notice not yet given."""
    import wubitok.ime.engine

    monkeypatch.setitem(sys.modules, "opencc", None)
    monkeypatch.setattr(wubitok.ime.engine, "_SAID", set())


def test_a_setting_whose_part_is_missing_is_refused_naming_what_to_install(capsys, user_data_dir, without_opencc):
    code, out, err = run(capsys, "settings", "set", "output", "traditional")
    assert (code, out) == (2, "")
    assert err == "wubitok settings: error: output traditional needs OpenCC: pip install opencc\n"
    assert not list(user_data_dir.glob("*.json"))  # nothing stored
    code, out, err = run(capsys, "type", "wqiy ", "--output", "hk")
    assert (code, out) == (2, "") and err.count("\n") == 1 and "--output hk needs OpenCC" in err


def test_a_stored_setting_whose_part_is_missing_falls_back_with_one_notice(capsys, user_data_dir, without_opencc):
    save_options(ImeOptions(output="traditional"))  # chosen where OpenCC was installed
    code, out, err = run(capsys, "type", "wqiyvb{space}lgyi")
    assert (code, out) == (0, "你好国\n")
    assert err == ("wubitok type: output traditional needs OpenCC: pip install opencc;"
                   " typing with output unchanged meanwhile\n")


def _read_until(fd, wanted: str, seen: list[str], limit: float = 120.0) -> str:
    """What the terminal showed until ``wanted`` appears (the index may be built on the first key)."""
    end = time.monotonic() + limit
    while wanted not in "".join(seen):
        if time.monotonic() > end:
            raise AssertionError(f"{wanted!r} never shown; the terminal showed {''.join(seen)!r}")
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            try:
                seen.append(os.read(fd, 4096).decode("utf-8", "replace"))
            except OSError:  # the child closed the terminal
                break
    return "".join(seen)


def test_an_interactive_session_in_a_terminal(tmp_path):
    """``wubitok type`` with no keys on a terminal (a pty here): the pre-edit and the page of
    candidates after each key, the committed text, Enter for a new line, Ctrl+D to quit (#39, 9)."""
    main, child = pty.openpty()
    src = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["wubitok"].__file__)))
    proc = subprocess.Popen([sys.executable, "-m", "wubitok", "type"], stdin=child, stdout=child, stderr=child,
                            env={**os.environ, "PYTHONPATH": src}, close_fds=True)
    os.close(child)
    seen: list[str] = []
    try:
        _read_until(main, "Ctrl+D quits", seen)
        os.write(main, b"wqiy")
        shown = _read_until(main, "[wqiy]", seen)
        assert "1.你" in shown and "仰泳" in shown  # the page, as the pad shows it
        os.write(main, b"2")
        _read_until(main, "仰泳", seen)
        os.write(main, b"\x1b[6~")  # Page Down while not composing: the editor's, nothing happens
        os.write(main, b"vb \r")
        shown = _read_until(main, "仰泳好\r\n", seen)
        os.write(main, b"iPhone")
        _read_until(main, "[iPhone]", seen)
        os.write(main, b" \x04")
        assert proc.wait(timeout=60) == 0
        _read_until(main, "iPhone\r\n", seen)
    finally:
        proc.kill()
        proc.wait()
        os.close(main)
