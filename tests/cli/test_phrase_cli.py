"""`wubitok phrase` and `wubitok settings`: the user database and settings store the engine reads."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cli_run import run

from wubitok.ime import ImeEngine, UserFrequencies, load_options


def _typed(keys: str) -> str:
    engine = ImeEngine()  # learning on: reads the user database of WUBITOK_DATA_DIR
    try:
        return "".join(engine.press(k) for k in keys)
    finally:
        engine.close()


def test_an_added_phrase_types_with_its_standard_code(capsys, user_data_dir, wubi_dict):
    code, out, err = run(capsys, "phrase", "add", "五笔输入法")
    assert (code, err) == (0, "")
    assert wubi_dict.phrase_code("五笔输入法") == "gtli"
    assert out == "added 五笔输入法 under gtli (standard phrase code)\n"
    assert _typed("gtli") == "五笔输入法"  # the only candidate of its code: commits itself
    assert run(capsys, "phrase", "add", "五笔输入法")[1] == "五笔输入法 is your phrase under gtli already\n"


def test_an_explicit_code_and_a_phrase_the_table_has(capsys, user_data_dir):
    assert run(capsys, "phrase", "add", "小明", "--code", "ijjj")[0] == 0
    engine = ImeEngine(auto_commit=False)
    for k in "ijjj":
        engine.process(k)
    assert [(c.text, c.user) for c in engine.state.candidates] == [("小明", True)]
    engine.close()
    assert run(capsys, "phrase", "add", "你好")[1] == "你好 is in the table under wqvb already\n"
    assert UserFrequencies().phrases() == [("ijjj", "小明", "manual")]


@pytest.mark.parametrize("argv, message", [
    (("add", "ab"), "a phrase is Chinese characters only, not 'a' (U+0061)"),
    (("add", "你好!"), "a phrase is Chinese characters only, not '!' (U+0021)"),
    (("add", ""), "empty phrase"),
    (("add", "你"), "'你' is one character: give its code (--code)"),
    (("add", "小明", "--code", "ijz1"), "not a Wubi code: 'ijz1' (1-4 keys a-y)"),
    (("add", "小明", "--code", "ijjjj"), "not a Wubi code: 'ijjjj' (1-4 keys a-y)"),
    (("forget", "WQIY", "仰泳"), "not a Wubi code: 'WQIY' (1-4 keys a-y)"),
    (("forget", "wqiy", "仰泳"), "nothing learned or added for 仰泳 under wqiy"),
    (("pin", "wqiy", "好"), "wqiy does not type 好 (add it first: wubitok phrase add)"),
    (("pin", "wqiy", "仰泳", "--position", "0"), "--position must be 1-100, not 0"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(capsys, user_data_dir, argv, message):
    assert run(capsys, "phrase", *argv) == (2, "", f"wubitok phrase: error: {message}\n")
    db = UserFrequencies()
    assert db.export_data() == {"frequencies": [], "phrases": [], "pins": []}
    db.close()


def test_pin_then_forget(capsys, user_data_dir):
    assert _typed("wqiy ") == "你"
    assert run(capsys, "phrase", "pin", "wqiy", "仰泳")[1] == "pinned 仰泳 at 1 on wqiy\n"
    assert _typed("wqiy ") == "仰泳"
    assert run(capsys, "phrase", "forget", "wqiy", "仰泳")[1] == "forgot 仰泳 under wqiy\n"
    assert _typed("wqiy ") == "你"


def test_forget_a_learned_choice_and_a_pin_on_a_later_position(capsys, user_data_dir):
    assert _typed("wqiy2") == "仰泳"
    assert _typed("wqiy ") == "仰泳"  # learned
    run(capsys, "phrase", "forget", "wqiy", "仰泳")
    assert _typed("wqiy ") == "你"
    run(capsys, "phrase", "pin", "wqiy", "你", "--position", "2")
    engine = ImeEngine()
    for k in "wqiy":
        engine.process(k)
    assert [c.text for c in engine.state.candidates][:2] == ["仰泳", "你"]
    engine.close()


def test_list(capsys, user_data_dir):
    run(capsys, "phrase", "add", "五笔输入法")
    run(capsys, "phrase", "add", "小明", "--code", "ijjj")
    run(capsys, "phrase", "pin", "wqiy", "仰泳")
    assert run(capsys, "phrase", "list")[1] == (
        "gtli\t五笔输入法\tmanual\nijjj\t小明\tmanual\nwqiy\t仰泳\tpinned at 1\n")
    listing = json.loads(run(capsys, "phrase", "list", "--json")[1])
    assert listing["pins"] == [{"code": "wqiy", "text": "仰泳", "position": 1}]
    assert [p["text"] for p in listing["phrases"]] == ["五笔输入法", "小明"]


def test_settings_set_show_reset(capsys, user_data_dir):
    assert json.loads(run(capsys, "settings", "show", "--json")[1])["charset"] == "gbk"
    assert run(capsys, "settings", "set", "charset", "gb2312") == (0, "charset\tgb2312\n", "")
    assert run(capsys, "settings", "set", "page_size", "9")[0] == 0
    assert run(capsys, "settings", "set", "auto_commit", "off")[0] == 0
    assert run(capsys, "settings", "set", "punctuation", '{"[": "「"}')[0] == 0
    options = load_options()
    assert (options.charset, options.page_size, options.auto_commit, options.punctuation) == (
        "gb2312", 9, False, (("[", "「"),))
    out = run(capsys, "settings", "show")[1]
    assert "charset\tgb2312\n" in out and "auto_commit\tfalse\n" in out and 'punctuation\t{"[": "「"}\n' in out
    # `wubitok type` reads the store: gb2312 hides 驪 on cg, page size 9
    state = json.loads(run(capsys, "type", "cg", "--json")[1])
    assert state["candidates"][0]["text"] == "骊" and "驪" not in {c["text"] for c in state["candidates"]}
    assert run(capsys, "settings", "reset")[0] == 0
    assert load_options().charset == "gbk"


@pytest.mark.parametrize("argv, message", [
    (("set", "page_size", "12"), "page size must be 1-9, not 12"),
    (("set", "page_size", "many"), "page_size must be a whole number, not 'many'"),
    (("set", "learning", "maybe"), "learning must be true or false, not 'maybe'"),
    (("set", "charset", "big5"), "unknown charset 'big5' (choose from all, gbk, gb2312)"),
    (("set", "output", "cn"), "unknown output 'cn' (choose from unchanged, simplified, traditional, tw, hk)"),
    (("set", "punctuation", "[1]"), 'punctuation must be a JSON object such as {"[": "「"}, not \'[1]\''),
    (("set", "punctuation", '{"a": "x"}'), "punctuation key must be one ASCII symbol, not 'a'"),
])
def test_bad_settings_are_one_line_and_change_nothing(capsys, user_data_dir, argv, message):
    run(capsys, "settings", "set", "charset", "all")
    before = (user_data_dir / "ime_settings.json").read_bytes()
    code, out, err = run(capsys, "settings", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("wubitok settings: error: ") and message in err and err.count("\n") == 1
    assert (user_data_dir / "ime_settings.json").read_bytes() == before


def test_unknown_setting(capsys, user_data_dir):
    code, _, err = run(capsys, "settings", "set", "colour", "red")
    assert code == 2 and err.startswith("wubitok settings: error: unknown setting 'colour' (one of page_size,")


def test_convert_to_a_script(capsys):
    assert run(capsys, "convert", "--to", "traditional", "头发和面条") == (0, "頭髮和麪條\n", "")
    assert run(capsys, "convert", "--to", "simplified", "頭髮") == (0, "头发\n", "")
    assert run(capsys, "convert", "--to", "traditional", "里面的线")[1] == "裏面的線\n"
    assert run(capsys, "convert", "--to", "tw", "里面的线")[1] == "裡面的線\n"  # Taiwan's variant
    code, _, err = run(capsys, "convert", "--to", "cn", "头发")
    assert code == 2 and "invalid choice: 'cn'" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ("phrase",), ("phrase", "add"), ("phrase", "forget"), ("phrase", "pin"), ("phrase", "list"),
    ("settings",), ("settings", "set"), ("userdata",), ("userdata", "import"),
    ("table",), ("table", "export"), ("table", "import"), ("convert",),
])
def test_help_has_examples(capsys, argv):
    code, out, _ = run(capsys, *argv, "--help")
    assert code == 0 and "examples:\n  wubitok " in out


def test_a_real_process_exits_2_with_one_line_and_writes_nothing(tmp_path):
    env = {**os.environ, "WUBITOK_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-m", "wubitok", "phrase", "add", "你好abc"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "wubitok phrase: error: a phrase is Chinese characters only, not 'a' (U+0061)\n"
    done = subprocess.run([sys.executable, "-m", "wubitok", "phrase", "add", "小明", "--code", "ijjj"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert UserFrequencies(tmp_path / "data" / "ime_user.sqlite").phrases() == [("ijjj", "小明", "manual")]
