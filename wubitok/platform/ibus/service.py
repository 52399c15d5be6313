"""The engine process that ibus-daemon starts, and questions to a running daemon."""
from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

from ...errors import PlatformError
from .component import BUS_NAME, ENGINE_NAME
from .gi_loader import load_ibus
from .loading import Loading
from .settings import SavedOptions

OBJECT_PATH = "/org/freedesktop/IBus/Engine/wubitok/{}"


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


def run_engine() -> int:
    """Serve ``wubitok-wubi86`` engines until the daemon goes away (ibus-daemon runs this)."""
    bus = connect()
    IBus, GLib = load_ibus()
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
    if bus.request_name(BUS_NAME, 0) == 0:
        raise PlatformError(f"cannot own {BUS_NAME} on the IBus bus (is another wubitok engine running?)")
    loading.start()
    try:
        loop.run()
    finally:
        loading.close()
    return 0
