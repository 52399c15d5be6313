"""The IBus engine's view of the settings store: read again when changed, one setting written at a time."""
from __future__ import annotations

import dataclasses

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
