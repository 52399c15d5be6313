"""The engine's start as a typist meets it: keys typed the moment the engine is selected."""
from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from system import require

# The distribution's gi, found by ibus_harness (the venv has none of its own), and IBus's typelib.
require("gi", "ibus-typelib")

from ibus_harness import ENGINE, START_TIMEOUT, Client, IBus, wait_for  # noqa: E402

from wubitok.platform.ibus import component  # noqa: E402
from wubitok.platform.ibus.engine import WubiEngine  # noqa: E402
from wubitok.platform.ibus.loading import Loading  # noqa: E402
from wubitok.platform.ibus.settings import SavedOptions  # noqa: E402


def _stop_engine_process(private_ibus) -> None:
    """The next selection starts the engine process afresh (it loads everything again)."""
    for pid in private_ibus.engine_pids():
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda pid=pid: pid not in private_ibus.engine_pids(), 30, "the engine process to go")


def _selected(client: Client) -> bool:
    desc = client.ic.get_engine()  # the daemon's answer: the engine it hands this context's keys to
    return desc is not None and desc.get_name() == ENGINE


def test_keys_typed_as_soon_as_the_engine_is_selected_are_typed_never_passed_through(ibus_bus, private_ibus):
    """ibus-daemon gives a context's keys to the application until the engine it selected
    exists; from then on none may reach the application untyped, even while the engine
    process is still loading."""
    _stop_engine_process(private_ibus)
    client = Client(ibus_bus, engine=None)
    client.ic.set_engine(ENGINE)  # as `ibus engine` or the panel does: it returns at once
    wait_for(lambda: _selected(client), START_TIMEOUT, "the daemon to have the engine")
    handled = [client.key(k) for k in ("w", "q", "i", "y", "v", "b", "space")]
    wait_for(lambda: len(client.commits) >= 2, START_TIMEOUT, "the engine to type the queued keys")
    assert handled == [True] * 7
    assert client.forwarded == [] and client.commits == ["你", "好"] and client.preedit == ""
    # The queue is gone: the next keys are typed at once.
    for k in ("g", "space"):
        client.key(k)
    assert client.commits == ["你", "好", "一"]
    client.destroy()


def test_a_first_start_without_an_index_types_from_the_dictionary_meanwhile(ibus_bus, private_ibus):
    """After an install or a cleared cache the index takes seconds to build: the first keys are
    typed from the dictionary meanwhile, not held until it is there (issue #39, 1)."""
    _stop_engine_process(private_ibus)
    cache = private_ibus.data_dir / "cache"
    for old in cache.glob("ime-index-*"):
        old.unlink()
    client = Client(ibus_bus, engine=None)
    client.ic.set_engine(ENGINE)
    wait_for(lambda: _selected(client), START_TIMEOUT, "the daemon to have the engine")
    for k in ("w", "q", "i", "y", "space", "g", "space"):
        client.key(k)
    wait_for(lambda: len(client.commits) >= 2, START_TIMEOUT, "the engine to type the first keys")
    assert client.commits == ["你", "一"] and client.forwarded == []
    assert not list(cache.glob("ime-index-*.sqlite"))  # typed before the index was there
    wait_for(lambda: list(cache.glob("ime-index-*.sqlite")), 600, "the index to be built aside")

    def from_the_index() -> bool:  # a pinyin lookup waits for the index: it answers once it is open
        for k in ("z", "n", "i"):
            client.key(k)
        shown = bool(client.candidates)
        client.key("escape")
        return shown
    wait_for(from_the_index, START_TIMEOUT, "the engine to open the index")
    assert not list(cache.glob(".ime-index-*.tmp"))
    client.destroy()


class Recorder(WubiEngine):
    """The engine as the process builds it, noting what it sends the application."""

    __gtype_name__ = "WubitokTestStartRecorder"

    def __init__(self, *args, **kwargs):
        self.sent: list[tuple[str, object]] = []
        super().__init__(*args, **kwargs)

    def commit_text(self, text):
        self.sent.append(("commit", text.get_text()))
        super().commit_text(text)

    def forward_key_event(self, keyval, keycode, state):
        self.sent.append(("forward", (keyval, state)))
        super().forward_key_event(keyval, keycode, state)


def test_keys_before_the_load_is_done_are_queued_then_typed_in_order(ibus_bus, user_data_dir, tmp_path):
    saved = SavedOptions(tmp_path / "settings.json")
    loading = Loading(saved, lambda callback: callback())
    engine = Recorder(loading, saved, engine_name=ENGINE, object_path="/org/freedesktop/IBus/Engine/wubitok/start",
                      connection=ibus_bus.get_connection())
    release = IBus.ModifierType.RELEASE_MASK
    keys = [IBus.KEY_w, IBus.KEY_q, IBus.KEY_i, IBus.KEY_y, IBus.KEY_space, IBus.KEY_1, IBus.KEY_v, IBus.KEY_b]
    for keyval in keys:
        assert engine.do_process_key_event(keyval, 0, 0) is True  # taken: never the application's yet
        assert engine.do_process_key_event(keyval, 0, release) is True
    engine.do_reset()  # the client's reset is queued in its place too
    assert engine.do_process_key_event(IBus.KEY_g, 0, 0) is True
    assert engine.sent == []
    loading.load()  # what the process's loading thread does; the queue is handled as it ends
    # 你, then "1" (not composing: it types itself, so it goes back to the application with its
    # release), vb dropped by the reset, g typed afresh.
    assert engine.sent == [("commit", "你"), ("forward", (IBus.KEY_1, 0)), ("forward", (IBus.KEY_1, release))]
    assert engine.do_process_key_event(IBus.KEY_space, 0, 0) is True
    assert engine.sent[-1] == ("commit", "一")
    engine.destroy()
    loading.close()


def _wubitok(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wubitok", *args], env=env, capture_output=True, text=True,
                          timeout=300)


def test_install_starts_the_engine_at_login_unless_told_not_to(private_ibus, tmp_path):
    """The autostart entry (issue #39, 2): written by a user install, shown by status, left out
    with --no-autostart, removed by uninstall; its command is this installation's engine."""
    env = {**private_ibus.env(), "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data")}  # the index: the private daemon's, built already
    entry = tmp_path / "config" / "autostart" / component.AUTOSTART_FILE
    proc = _wubitok(env, "ibus", "install")
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {entry} " in proc.stdout
    fields = dict(line.split("=", 1) for line in entry.read_text(encoding="utf-8").splitlines()[1:])
    assert shlex.split(fields["Exec"]) == component.engine_command() + ["--at-login"]
    assert fields["Type"] == "Application" and fields["NoDisplay"] == "true"
    assert not list(entry.parent.glob(".*"))  # written through a temporary file, renamed: none left
    assert f"autostart: {entry} (the engine process starts at login)\n" in _wubitok(env, "ibus", "status").stdout

    proc = _wubitok(env, "ibus", "install", "--no-autostart")
    assert proc.returncode == 0 and not entry.exists(), proc.stderr
    assert "autostart: no" in _wubitok(env, "ibus", "status").stdout
    assert _wubitok(env, "ibus", "install").returncode == 0 and entry.is_file()
    proc = _wubitok(env, "ibus", "uninstall")
    assert f"removed {entry}\n" in proc.stdout and not entry.exists()
    for wrong in (("ibus", "status", "--no-autostart"), ("ibus", "install", "--at-login")):
        proc = _wubitok(env, *wrong)
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_an_engine_started_at_login_is_the_one_the_daemon_uses(ibus_bus, private_ibus, tmp_path):
    """``wubitok ibus engine --at-login`` takes the component's bus name before the engine is
    selected: the daemon hands the context to that process (it starts none) and the keys are
    typed.  A second one ends at once."""
    _stop_engine_process(private_ibus)
    env = {**private_ibus.env(), "IBUS_ADDRESS": private_ibus.address}
    with open(tmp_path / "engine.log", "wb") as log:
        engine = subprocess.Popen([sys.executable, "-m", "wubitok", "ibus", "engine", "--at-login"], env=env,
                                  stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        wait_for(lambda: ibus_bus.name_has_owner(component.BUS_NAME), START_TIMEOUT, "the engine to take its name")
        again = subprocess.run([sys.executable, "-m", "wubitok", "ibus", "engine", "--at-login"], env=env,
                               capture_output=True, timeout=120)
        assert again.returncode == 0 and engine.poll() is None, again.stderr
        client = Client(ibus_bus, engine=None)
        client.ic.set_engine(ENGINE)
        wait_for(lambda: _selected(client), START_TIMEOUT, "the daemon to have the engine")
        for k in ("w", "q", "i", "y", "space"):
            client.key(k)
        wait_for(lambda: client.commits, START_TIMEOUT, "the engine to type")
        assert client.commits == ["你"] and client.forwarded == []
        assert private_ibus.engine_pids() == []  # the daemon started no process: it used ours
        client.destroy()
    finally:
        engine.terminate()
        engine.wait(30)
    assert "Traceback" not in Path(tmp_path / "engine.log").read_text(errors="replace")
    wait_for(lambda: not ibus_bus.name_has_owner(component.BUS_NAME), 30, "the name to be free again")


def test_the_autostart_command_is_quoted_as_desktop_entries_are():
    """The Desktop Entry spec's quoting (double quotes; inside, \\ before " ` $ \\; the value's
    own backslashes escaped again), not the shell's single quotes."""
    assert component._desktop_exec(["/usr/bin/python3", "-m", "wubitok"]) == "/usr/bin/python3 -m wubitok"
    assert component._desktop_exec(["/opt/my env/python", "--at-login"]) == '"/opt/my env/python" --at-login'
    assert component._desktop_exec(["/a$b/100%"]) == '"/a\\\\$b/100%%"'


def test_an_engine_started_at_login_waits_for_the_daemon(monkeypatch):
    from wubitok.errors import PlatformError
    from wubitok.platform.ibus import service

    answers = iter([PlatformError("IBus is not running"), PlatformError("IBus is not running"), "bus"])

    def connect():
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer
    monkeypatch.setattr(service, "connect", connect)
    monkeypatch.setattr(service.time, "sleep", lambda _s: None)
    assert service._connect_at_login() == "bus"
    monkeypatch.setattr(service, "connect", lambda: (_ for _ in ()).throw(PlatformError("IBus is not running")))
    try:
        service._connect_at_login(wait=0)
    except PlatformError as exc:
        assert "not running" in str(exc)
    else:
        raise AssertionError("no PlatformError once the wait is over")
