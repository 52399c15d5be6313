"""The IBus engine's view of the settings store: read again when changed, one setting written at a time."""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from system import IBUS

from wubitok.ime import ImeOptions, load_options, save_options
from wubitok.ime.options import settings_path
from wubitok.platform.ibus.settings import SETTINGS, Choice, SavedOptions, Switch, parse_key


def test_every_setting_is_an_option_and_every_value_a_valid_one():
    names = {f.name for f in dataclasses.fields(ImeOptions)}
    for setting in SETTINGS:
        assert setting.name in names
        if isinstance(setting, Choice):
            for value, _ in setting.values:
                ImeOptions(**{setting.name: value})  # raises for a value the store would refuse
                assert parse_key(setting.key(value)) == (setting.name, value)
        else:
            assert isinstance(setting, Switch) and parse_key(setting.name) == (setting.name, None)
    assert {"charset", "output", "top_commit", "auto_commit", "learning"} <= {s.name for s in SETTINGS}
    assert parse_key("chinese") is None and parse_key("charset.big5") is None


def test_the_file_is_read_again_when_another_front_end_wrote_it(user_data_dir):
    saved = SavedOptions()
    assert saved.current() == ImeOptions()  # nothing saved yet: the defaults
    save_options(ImeOptions(output="hk"))  # the pad
    assert saved.current().output == "hk"
    settings_path().write_text("{not json", encoding="utf-8")
    assert saved.current().output == "hk"  # a broken file keeps what is in force


def test_a_change_writes_that_setting_over_the_saved_ones(user_data_dir):
    saved = SavedOptions()
    saved.current()
    save_options(ImeOptions(page_size=3))  # written meanwhile by the pad
    assert saved.change(charset="all") == ImeOptions(page_size=3, charset="all")
    assert load_options() == ImeOptions(page_size=3, charset="all")


@pytest.mark.system(*IBUS)  # the script starts a private ibus-daemon
def test_output_traditional_stored_without_opencc_types_as_the_table_has_it(tmp_path):
    """OpenCC absent from the engine process (a sitecustomize makes ``import opencc`` fail), the
    typist's stored output=traditional falls back to the default: every key typed, nothing
    left in the pre-edit, the choice greyed in the menu with what it needs, one log line."""
    script = Path(__file__).with_name("typist_without_opencc.py")
    done = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    first, second = json.loads(done.stdout).values()
    for typed in (first, second):
        assert typed["commits"] == ["你", "好", "国"] and typed["preedit"] == ""  # lgyi commits itself
        assert all(typed["handled"])
        assert typed["traditional"] == [False, "繁体 Traditional (OpenCC: pip install opencc)"]
        assert typed["output"][1] == "输出 Output: 原样 As typed"
    # Told once in the session, in the first application's candidate window.
    assert first["told"] == ["output traditional needs OpenCC: pip install opencc;"
                             " typing with output unchanged meanwhile"]
    assert second["told"] == []


def test_the_platform_notes_count_the_panel_menu_as_it_is():
    """docs/ime-platforms.md once said the panel switched only the three modes (issue #37, 11)."""
    notes = (Path(__file__).resolve().parents[2] / "docs" / "ime-platforms.md").read_text(encoding="utf-8")
    modes = 3  # engine.TOGGLES (Chinese/English, width, punctuation); engine.py needs gi to import
    assert f"The panel menu has {modes + len(SETTINGS)} entries" in notes
    assert "switch only the three modes" not in notes
