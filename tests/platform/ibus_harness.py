"""A private IBus for tests and the bench: its own session bus and ibus-daemon, our engine only.

Nothing of the machine's own IBus set-up is touched: HOME, the XDG folders,
``IBUS_ADDRESS_FILE`` and ``WUBITOK_DATA_DIR`` point into a temporary folder, and
``IBUS_COMPONENT_PATH`` holds only the XML printed by ``wubitok ibus component``.
Both daemons run in process groups of their own (the engine process that
ibus-daemon spawns joins its group), and :meth:`PrivateIbus.stop` kills them by
those ids.  The client side (:class:`Client`) talks to the daemon through
``IBus.Bus`` like any application's input module does.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from wubitok.platform.ibus.gi_loader import import_gi

gi = import_gi()  # the distribution's gi, as the engine itself loads it
gi.require_version("IBus", "1.0")
from gi.repository import Gio, GLib, IBus  # noqa: E402

ENGINE = "wubitok-wubi86"
# Seconds.  Starting the engine (Python, the whole dictionary index) takes 1-5 s, and far more
# on a loaded 2-core machine running the suite: the daemon waits as long (its own default, 15 s,
# is not enough there).
START_TIMEOUT = 120.0


class PrivateIbus:
    def __init__(self, root: Path, extra_env: dict[str, str] | None = None):
        """``extra_env``: set for the daemons, so for the engine process too."""
        self.root = root
        self.extra_env = extra_env or {}
        self.data_dir = root / "wubitok-data"
        self.component_dir = root / "component"
        self.address = ""
        self._procs: list[subprocess.Popen] = []

    def env(self) -> dict[str, str]:
        home = self.root / "home"
        runtime = self.root / "runtime"
        for d in (home, runtime, self.data_dir, self.component_dir):
            d.mkdir(parents=True, exist_ok=True)
        runtime.chmod(0o700)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("IBUS_", "DBUS_", "XDG_", "GTK_IM", "QT_IM"))}
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        env.update(
            HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"),
            XDG_DATA_HOME=str(home / ".local/share"), XDG_RUNTIME_DIR=str(runtime),
            IBUS_ADDRESS_FILE=str(self.root / "ibus-address"), IBUS_COMPONENT_PATH=str(self.component_dir),
            WUBITOK_DATA_DIR=str(self.data_dir), LANG="C.UTF-8",
        )
        env.update(self.extra_env)
        return env

    def start(self, component_path: str | None = None, cache: str = "none") -> PrivateIbus:
        """Start the daemons; ``component_path``: IBUS_COMPONENT_PATH (default: a folder holding
        only what ``wubitok ibus component`` prints); ``cache``: the daemon's registry cache mode
        ("auto", a desktop's default, reads and writes the cache in this HOME)."""
        env = self.env()
        # An address file left by an earlier start in this folder would be taken for the new one.
        Path(env["IBUS_ADDRESS_FILE"]).unlink(missing_ok=True)
        if component_path is None:
            self.write_component()
            component_path = str(self.component_dir)
        env["IBUS_COMPONENT_PATH"] = component_path
        dbus = self._spawn(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"], env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert dbus.stdout is not None
        env["DBUS_SESSION_BUS_ADDRESS"] = dbus.stdout.readline().decode().strip()
        # The daemon's and the engine's messages go to a log beside the rest (tracebacks from
        # the engine's handlers would otherwise be lost).
        with open(self.root / "ibus-daemon.log", "ab") as log:
            self._spawn(["ibus-daemon", "--panel=disable", "--config=disable", "--emoji-extension=disable",
                         f"--cache={cache}", f"--timeout={int(START_TIMEOUT * 1000)}"], env, stdout=log, stderr=log)
        address_file = Path(env["IBUS_ADDRESS_FILE"])
        self.address = wait_for(lambda: _address(address_file), START_TIMEOUT, "ibus-daemon's address file")
        return self

    def write_component(self) -> None:
        xml = subprocess.run([sys.executable, "-m", "wubitok", "ibus", "component"], env=self.env(), check=True,
                             capture_output=True, text=True).stdout
        (self.component_dir / "wubitok.xml").write_text(xml, encoding="utf-8")

    def _spawn(self, argv: list[str], env: dict[str, str], **kwargs) -> subprocess.Popen:
        proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, start_new_session=True, **kwargs)
        self._procs.append(proc)
        return proc

    @property
    def daemon(self) -> subprocess.Popen:
        return self._procs[1]

    def engine_pids(self) -> list[int]:
        """Processes the daemon started (the engine)."""
        pid = self.daemon.pid
        return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _ppid(p) == pid]

    def stop(self) -> None:
        for proc in reversed(self._procs):
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)  # the group holds the engine process too
                except ProcessLookupError:
                    break
                try:
                    proc.wait(5)
                    # the group may outlive its leader (the engine): one more round kills the rest
                except subprocess.TimeoutExpired:
                    continue
            if proc.stdout is not None:
                proc.stdout.close()
        self._procs.clear()


def _address(path: Path) -> str | None:
    try:
        for line in path.read_text().splitlines():
            if line.startswith("IBUS_ADDRESS="):
                return line.split("=", 1)[1]
    except FileNotFoundError:
        pass
    return None


def _ppid(proc_dir: Path) -> int:
    try:
        stat = (proc_dir / "stat").read_text()
    except OSError:
        return -1
    return int(stat[stat.rindex(")") + 2:].split()[1])


def wait_for(predicate: Callable, timeout: float, what: str):
    """Run the GLib main context until ``predicate()`` is truthy; its value, or AssertionError."""
    context = GLib.MainContext.default()
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        if not context.iteration(False):
            time.sleep(0.005)


def drain() -> None:
    """Dispatch every signal already received.  Call after a synchronous D-Bus call: the daemon
    sends a context's signals before its reply on the same connection, so they are queued by then."""
    context = GLib.MainContext.default()
    while context.pending():
        context.iteration(False)


KEYVALS = {
    "space": IBus.KEY_space, "enter": IBus.KEY_Return, "backspace": IBus.KEY_BackSpace,
    "escape": IBus.KEY_Escape, "pageup": IBus.KEY_Page_Up, "pagedown": IBus.KEY_Page_Down,
    "left": IBus.KEY_Left, "right": IBus.KEY_Right, "up": IBus.KEY_Up, "down": IBus.KEY_Down,
    "Delete": IBus.KEY_Delete,
}
MODIFIERS = {"ctrl": IBus.ModifierType.CONTROL_MASK, "alt": IBus.ModifierType.MOD1_MASK,
             "super": IBus.ModifierType.SUPER_MASK}


class Client:
    """An application's input context: keys in, what the engine sends back recorded."""

    def __init__(self, bus: IBus.Bus, engine: str | None = ENGINE, *, loaded: bool = True):
        """A focused context with ``engine`` selected (None: none yet, see :meth:`select`), and
        with ``loaded``, its process done loading (:meth:`wait_loaded`)."""
        self.bus = bus
        self.ic = bus.create_input_context("wubitok-test")
        caps = (IBus.Capabilite.PREEDIT_TEXT | IBus.Capabilite.LOOKUP_TABLE | IBus.Capabilite.FOCUS
                | IBus.Capabilite.AUXILIARY_TEXT | IBus.Capabilite.PROPERTY)
        self.ic.set_capabilities(caps)
        self.commits: list[str] = []
        self.auxiliary: list[str] = []  # the auxiliary texts shown (the engine's notices)
        self.forwarded: list[int] = []  # keyvals the engine handed back to the application later
        self.preedit = ""
        self.candidates: list[str] = []
        self.properties: dict[str, tuple[bool, str]] = {}
        self.ic.connect("commit-text", lambda _ic, text: self.commits.append(text.get_text()))
        self.ic.connect("update-auxiliary-text",
                        lambda _ic, text, visible: visible and self.auxiliary.append(text.get_text()))
        self.ic.connect("forward-key-event", lambda _ic, keyval, _code, _state: self.forwarded.append(keyval))
        self.ic.connect("update-preedit-text", self._on_preedit)
        self.ic.connect("hide-preedit-text", lambda _ic: setattr(self, "preedit", ""))
        self.ic.connect("update-lookup-table", self._on_table)
        self.ic.connect("hide-lookup-table", lambda _ic: setattr(self, "candidates", []))
        self.ic.connect("update-property", lambda _ic, prop: self._on_property(prop))
        self.ic.connect("register-properties", self._on_properties)
        self.ic.focus_in()
        if engine is not None:
            self.select(engine)
            if loaded:
                self.wait_loaded()

    def select(self, engine: str = ENGINE) -> None:
        """Select ``engine`` and wait until it is in place."""
        # IBus.InputContext.set_engine does not wait, and a focused context may first get the
        # daemon's current (global) engine: the D-Bus call returns once the new engine is in place.
        self.ic.call_sync("SetEngine", GLib.Variant("(s)", (engine,)), Gio.DBusCallFlags.NONE,
                          int(START_TIMEOUT * 1000), None)
        drain()

    def wait_loaded(self) -> None:
        """Wait until the engine handles keys itself.  A key no engine uses (F35) is a probe:
        passed back at once by a loaded engine, queued by one still loading and forwarded to
        the application once that engine has handled what came before it."""
        if self.press(IBus.KEY_F35):
            # (its release is forwarded too, or passed back at once if it came after the load)
            wait_for(lambda: IBus.KEY_F35 in self.forwarded, START_TIMEOUT, "the engine to finish loading")
        self.forwarded.clear()

    def _on_preedit(self, _ic, text, _cursor, visible) -> None:
        self.preedit = text.get_text() if visible else ""

    def _on_table(self, _ic, table, visible) -> None:
        n = table.get_number_of_candidates()
        self.candidates = [table.get_candidate(i).get_text() for i in range(n)] if visible else []

    def _on_property(self, prop) -> None:
        self.properties[prop.get_key()] = (prop.get_state() == IBus.PropState.CHECKED, prop.get_label().get_text())
        if prop.get_prop_type() == IBus.PropType.MENU:
            self._on_properties(None, prop.get_sub_props())

    def _on_properties(self, _ic, props) -> None:
        i = 0
        while (prop := props.get(i)) is not None:
            self._on_property(prop)
            i += 1

    def set_option(self, name: str, value: object) -> None:
        """Choose a setting in the panel menu, as the typist clicks it, and wait until it is shown."""
        if isinstance(value, bool):
            key, state = name, IBus.PropState.CHECKED if value else IBus.PropState.UNCHECKED
        else:
            key, state = f"{name}.{value}", IBus.PropState.CHECKED
        self.ic.property_activate(key, state)
        wait_for(lambda: self.properties.get(key, (None,))[0] == (state == IBus.PropState.CHECKED), 30,
                 f"the property {key} to show {value}")

    def press(self, keyval: int, state: int = 0) -> bool:
        """Press and release one key; True if the engine took the press."""
        handled = self.ic.process_key_event(keyval, 0, state)
        self.ic.process_key_event(keyval, 0, state | IBus.ModifierType.RELEASE_MASK)
        drain()
        return handled

    def key(self, token: str) -> bool:
        """A key of the shared typing cases: a character, a named key, ``shift`` (Shift alone)
        or ``ctrl+c``-style chords."""
        if token == "shift":
            handled = self.ic.process_key_event(IBus.KEY_Shift_L, 0, 0)
            handled |= self.ic.process_key_event(IBus.KEY_Shift_L, 0,
                                                 IBus.ModifierType.SHIFT_MASK | IBus.ModifierType.RELEASE_MASK)
            drain()
            return handled
        state = 0
        if "+" in token and len(token) > 1:
            mod, token = token.split("+", 1)
            state = MODIFIERS[mod]
        keyval = KEYVALS.get(token) or IBus.unicode_to_keyval(token)
        if len(token) == 1 and "A" <= token <= "Z":
            state |= IBus.ModifierType.SHIFT_MASK  # typed with Shift held, as on a keyboard
        return self.press(keyval, state)

    def focus_out(self) -> None:
        self.ic.focus_out()
        self.ic.get_engine()  # a synchronous call: the engine's answer to focus-out is queued before its reply
        drain()

    def destroy(self) -> None:
        self.ic.destroy()


def connect(address: str) -> IBus.Bus:
    """The process's IBus bus, on ``address``.  libibus keeps one bus per process (IBus.Bus.new
    returns the same object every time): talk to any other daemon from a process of its own."""
    os.environ["IBUS_ADDRESS"] = address
    bus = IBus.Bus.new()
    assert bus.is_connected(), f"cannot connect to the private ibus-daemon at {address}"
    return bus
