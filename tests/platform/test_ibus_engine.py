"""The IBus engine through the real ibus-daemon: an input context as an application has one."""
from __future__ import annotations

import os
import signal
import threading

import pytest
from system import require

require("gi", "ibus-typelib")

from ibus_harness import Client, IBus, wait_for  # noqa: E402
from typing_cases import CASES, editor_default, engine_result, shown  # noqa: E402

from wubitok.ime import ImeOptions, load_options, save_options  # noqa: E402
from wubitok.ime.options import SETTINGS_FILE  # noqa: E402
from wubitok.ime.userdb import FILENAME, UserFrequencies  # noqa: E402


def type_case(client: Client, keys) -> tuple[str, list[bool]]:
    """Type ``keys``; the document an application would hold, and which keys the engine took."""
    doc: list[str] = []
    handled = []
    for key in keys:
        seen = len(client.commits)
        took = client.key(key)
        handled.append(took)
        doc.extend("".join(client.commits[seen:]))
        if not took and "+" not in key[1:]:
            editor_default(doc, key)
    return "".join(doc), handled


@pytest.fixture
def settings_put_back(private_ibus):
    """The daemon's settings file is the session's: what a test chooses in the panel is undone
    (each test's context gets a new engine, which reads the file as it is then)."""
    path = private_ibus.data_dir / SETTINGS_FILE
    before = path.read_bytes() if path.exists() else None
    yield path
    if before is None:
        path.unlink(missing_ok=True)
    else:
        path.write_bytes(before)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_typing_case(client, settings_put_back, case):
    text, state = engine_result(case.keys, case.settings)
    for name, value in case.settings:
        client.set_option(name, value)
    doc, handled = type_case(client, case.keys)
    assert doc == (case.text if case.text is not None else text), (client.commits, handled, client.preedit)
    assert client.preedit == (case.preedit if case.preedit is not None else state.preedit)
    assert client.candidates == shown(state)
    if case.handled is not None:
        assert handled == list(case.handled)


def test_the_engine_alone_agrees_with_the_literal_cases():
    for case in CASES:
        text, state = engine_result(case.keys, case.settings)
        assert case.text in (None, text), case.id
        assert case.preedit in (None, state.preedit), case.id


def test_releases_and_modified_keys_pass_through(client):
    release = IBus.ModifierType.RELEASE_MASK
    assert client.ic.process_key_event(IBus.KEY_w, 0, release) is False
    for mod in (IBus.ModifierType.CONTROL_MASK, IBus.ModifierType.MOD1_MASK, IBus.ModifierType.SUPER_MASK):
        assert client.press(IBus.KEY_a, mod) is False
    assert client.press(IBus.KEY_F1) is False
    assert client.commits == [] and client.preedit == ""


def test_preedit_is_underlined_and_the_table_labelled(client):
    texts = []
    client.ic.connect("update-preedit-text", lambda _ic, text, _c, _v: texts.append(text))
    labels = []
    client.ic.connect("update-lookup-table",
                      lambda _ic, table, _v: labels.append([table.get_label(i).get_text()
                                                            for i in range(table.get_number_of_candidates())]))
    for k in "wq":
        client.key(k)
    attrs = texts[-1].get_attributes()
    underline = attrs.get(0)
    assert texts[-1].get_text() == "wq"
    assert underline.get_attr_type() == IBus.AttrType.UNDERLINE
    assert (underline.get_start_index(), underline.get_end_index()) == (0, 2)
    assert labels[-1] == ["1", "2", "3", "4", "5"]


def test_ctrl_delete_forgets_the_highlighted_choice(client):
    _, state = engine_result(("y", "y", "y", "y"))
    table_first, second = state.candidates[0].text, state.candidates[1].text
    for k in "yyyy2":  # a code no other test types
        client.key(k)
    for k in "yyyy":
        client.key(k)
    assert client.candidates[0] == second  # learned
    assert client.key("ctrl+Delete") is True
    assert client.candidates[0] == table_first  # forgotten: the table's order again
    assert client.commits == [second] and client.preedit == "yyyy"
    client.key("escape")
    assert client.key("ctrl+Delete") is False  # not composing: the application's key


def test_focus_out_drops_the_composition(client):
    for k in "wqiy":
        client.key(k)
    assert client.preedit == "wqiy"
    client.focus_out()
    assert client.preedit == "" and client.candidates == []
    client.ic.focus_in()
    for k in ("g", "space"):
        client.key(k)
    # A half-typed 你 would have arrived before 一: the daemon keeps the engine's order.
    assert client.commits == ["一"]


def test_reset_drops_the_composition(client):
    for k in "vb":
        client.key(k)
    client.ic.reset()
    client.ic.get_engine()  # synchronous: the engine's answer to reset is queued before its reply
    for k in ("g", "space"):
        client.key(k)
    assert client.commits == ["一"] and client.preedit == ""


def test_properties_show_and_switch_the_modes(client):
    wait_for(lambda: "chinese" in client.properties, 10, "the engine's properties")
    modes = {k: client.properties[k] for k in ("chinese", "full_width", "chinese_punctuation")}
    assert modes == {"chinese": (True, "中文"), "full_width": (False, "半角"),
                     "chinese_punctuation": (True, "中文标点")}
    client.key("shift")
    assert client.properties["chinese"] == (False, "English")
    client.key("shift")
    client.ic.property_activate("full_width", IBus.PropState.CHECKED)
    wait_for(lambda: client.properties["full_width"][0], 10, "full width on")
    assert client.key("1") is True and client.commits == ["１"]
    client.ic.property_activate("chinese_punctuation", IBus.PropState.UNCHECKED)
    wait_for(lambda: not client.properties["chinese_punctuation"][0], 10, "English punctuation")
    client.ic.property_activate("full_width", IBus.PropState.UNCHECKED)
    wait_for(lambda: not client.properties["full_width"][0], 10, "half width")
    assert client.key(",") is False  # the application types its own comma


def test_learning_goes_to_the_apps_user_database_without_losing_counts(client, private_ibus):
    """The engine process and the app (this process) count choices in one database at once."""
    path = private_ibus.data_dir / FILENAME
    _, state = engine_result(("f", "f", "f", "f"))
    code, text = state.candidates[1].code, state.candidates[1].text  # a choice no other test makes
    app_choices = 300

    def app_types():
        app = UserFrequencies(path)
        for _ in range(app_choices):
            app.record(code, text)
        app.close()

    writer = threading.Thread(target=app_types)
    writer.start()
    ibus_choices = 0
    while writer.is_alive() or ibus_choices < 20:
        seen = len(client.commits)
        for k in "ffff":
            client.key(k)
        # Learning moves the choice forward: pick it where it is now.
        client.key(str([c.split(" ")[0] for c in client.candidates].index(text) + 1))
        assert client.commits[seen:] == [text]
        ibus_choices += 1
    writer.join()
    fresh = UserFrequencies(path)
    assert fresh.count(code, text) == app_choices + ibus_choices
    fresh.close()


def test_a_killed_engine_leaves_the_daemon_up_and_a_new_context_gets_a_fresh_one(ibus_bus, private_ibus):
    first = Client(ibus_bus)
    for k in "wqiy":
        first.key(k)
    (pid,) = private_ibus.engine_pids()
    os.kill(pid, signal.SIGKILL)
    wait_for(lambda: pid not in private_ibus.engine_pids(), 30, "the engine process to go")
    assert private_ibus.daemon.poll() is None
    second = Client(ibus_bus)
    (new_pid,) = private_ibus.engine_pids()
    assert new_pid != pid
    for k in ("wqiyvb", "space"):
        for key in ([k] if k == "space" else k):
            second.key(key)
    assert second.commits == ["你", "好"] and second.preedit == ""
    first.destroy()
    second.destroy()


def test_the_settings_are_in_the_panel_menu_as_saved(client):
    wait_for(lambda: "charset" in client.properties, 10, "the settings' properties")
    p = client.properties
    assert p["charset"][1] == "字符集 Charset: GBK 简繁"
    assert [k for k in ("charset.all", "charset.gbk", "charset.gb2312") if p[k][0]] == ["charset.gbk"]
    assert p["output"][1] == "输出 Output: 原样 As typed" and p["output.unchanged"][0]
    assert p["page_size"][1].endswith(": 5") and p["page_size.5"][0]
    for switch in ("simplified_first", "top_commit", "auto_commit", "learning"):
        assert p[switch][0], switch
    assert p["empty_code.clear"][0] and not p["empty_code.beep"][0]


def test_a_setting_chosen_in_the_panel_is_saved_for_the_pad(client, settings_put_back):
    path = settings_put_back
    client.set_option("output", "traditional")
    client.set_option("top_commit", False)
    assert client.properties["output"][1] == "输出 Output: 繁体 Traditional"
    saved = load_options(path)
    assert (saved.output, saved.top_commit) == ("traditional", False)
    for k in "lgyi":
        client.key(k)
    assert client.commits == ["國"]
    other = Client(client.bus)  # another application's context: the same settings
    for k in "khlgv":
        other.key(k)
    assert other.commits == [] and other.preedit == "khlg"
    other.destroy()


def test_a_setting_saved_by_the_pad_is_in_force_at_the_next_focus_in(client, settings_put_back):
    save_options(ImeOptions(output="traditional"), settings_put_back)  # as the pad's Options menu does
    client.focus_out()
    client.ic.focus_in()
    wait_for(lambda: client.properties["output.traditional"][0], 30, "the engine to read the saved settings")
    for k in "lgyi":
        client.key(k)
    assert client.commits == ["國"]
