"""The engine process that ibus-daemon starts, and questions to a running daemon."""
from __future__ import annotations

import itertools
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from ...errors import PlatformError
from .component import BUS_NAME, ENGINE_NAME
from .gi_loader import load_ibus
from .loading import Loading
from .settings import SavedOptions

OBJECT_PATH = "/org/freedesktop/IBus/Engine/wubitok/{}"
DAEMON_WAIT = 60.0  # seconds an engine started at login waits for ibus-daemon to come up


def connect() -> Any:
    """An ``IBus.Bus`` connected to this session's daemon, or a one-line PlatformError."""
    IBus, _ = load_ibus()
    IBus.init()
    address = IBus.get_address()
    if not address:
        if not _session_bus():
            raise PlatformError("no D-Bus session bus: run this inside a desktop session "
                                "(or under dbus-run-session) with IBus started")
        raise PlatformError("IBus is not running in this session: start it with 'ibus-daemon -drx' "
                            "(or choose IBus in im-config / your desktop's input settings)")
    bus = IBus.Bus.new()
    if not bus.is_connected():
        raise PlatformError(f"cannot reach ibus-daemon at {address}: it is not running "
                            "(start it with 'ibus-daemon -drx')")
    return bus


def _session_bus() -> bool:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return bool(os.environ.get("DBUS_SESSION_BUS_ADDRESS")) or bool(runtime and Path(runtime, "bus").exists())


def daemon_engines() -> list[str]:
    """Names of the engines the running daemon knows."""
    return [desc.get_name() for desc in connect().list_engines()]


def daemon_environment() -> dict[str, str] | None:
    """The environment the running ibus-daemon was started with (from the pid its address file
    names), or None when that cannot be read (another user's daemon, no /proc)."""
    IBus, _ = load_ibus()
    try:
        lines = Path(IBus.get_socket_path()).read_text(encoding="utf-8", errors="replace").splitlines()
        pid = next(int(line.split("=", 1)[1]) for line in lines if line.startswith("IBUS_DAEMON_PID="))
        if Path(f"/proc/{pid}/comm").read_text().strip() != "ibus-daemon":
            return None  # the file outlived its daemon and the pid is someone else's now
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except (OSError, StopIteration, ValueError):
        return None
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in pairs}


def _connect_at_login(wait: float = DAEMON_WAIT) -> Any:
    """:func:`connect`, waiting for the daemon: autostart entries run while the desktop starts it."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return connect()
        except PlatformError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.25)


def run_engine(at_login: bool = False) -> int:
    """Serve ``wubitok-wubi86`` engines until the daemon goes away (ibus-daemon runs this).

    ``at_login`` (the autostart entry): wait for the daemon, then take the component's bus
    name before anyone selects the engine; the daemon watches the name and uses this
    process's factory when the engine is selected (no process to start then).  Nothing to
    do where the engine runs already or the daemon does not list it (not installed for it)."""
    bus = _connect_at_login() if at_login else connect()
    IBus, GLib = load_ibus()
    if at_login:
        if bus.name_has_owner(BUS_NAME):
            return 0  # the daemon started it first (the typist switched early)
        if ENGINE_NAME not in [desc.get_name() for desc in bus.list_engines()]:
            print(f"wubitok ibus engine: ibus-daemon does not list {ENGINE_NAME}; not started "
                  "(see 'wubitok ibus status')", file=sys.stderr)
            return 0
    from .engine import WubiEngine  # subclasses IBus.Engine: only importable once gi is

    # The typist's settings (one store with the pad and `wubitok type`), read at start and
    # again on focus-in when the file changed.
    saved = SavedOptions()
    # The bus name first, then the loading: the daemon passes a context's keys to the
    # application until its engine exists, and the engines queue keys until the load is done.
    loading = Loading(saved, GLib.idle_add)
    serial = itertools.count(1)

    def create_engine(_factory: Any, name: str) -> Any:
        if name != ENGINE_NAME:
            return None
        return WubiEngine(loading, saved, engine_name=name, object_path=OBJECT_PATH.format(next(serial)),
                          connection=bus.get_connection())

    factory = IBus.Factory.new(bus.get_connection())
    factory.connect("create-engine", create_engine)
    loop = GLib.MainLoop()
    bus.connect("disconnected", lambda _bus: loop.quit())
    # SIGTERM (the session ending, for a process started at login) ends the loop: a Python
    # handler would wait for the loop to return and leave the process to SIGKILL.
    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, lambda: loop.quit() or False)
    if bus.request_name(BUS_NAME, 0) == 0:
        raise PlatformError(f"cannot own {BUS_NAME} on the IBus bus (is another wubitok engine running?)")
    loading.start()
    try:
        loop.run()
    finally:
        loading.close()
    return 0
