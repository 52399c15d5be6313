#!/usr/bin/env python3
"""The wubitok engine process with timestamps, for ``bench_ibus.py --trace`` (never installed).

    python bench/ibus_trace_engine.py TRACE_FILE

ibus-daemon starts this instead of ``wubitok ibus engine`` (the bench writes a component
whose exec line names it).  It runs the real engine process (``service.run_engine``) with
``WubiEngine`` subclassed to note, on CLOCK_MONOTONIC (the clock of the bench's client, in
another process): each key's entry to and exit from ``do_process_key_event`` (with the CPU time of the
thread), each signal
the adapter sends to the daemon, each user-database transaction and each garbage
collection.  SIGUSR1 writes what was noted to TRACE_FILE as JSON lines
``[t_ns, what, detail]`` (nothing is written on the key path).
"""
from __future__ import annotations

import gc
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable

from wubitok.ime import userdb
from wubitok.platform.ibus import engine, service

IBus, GLib = engine.IBus, engine.GLib
EVENTS: list[tuple[int, str, Any]] = []
now = time.monotonic_ns


def note(what: str, detail: Any = None) -> None:
    EVENTS.append((now(), what, detail))


def traced(name: str, method: Callable) -> Callable:
    def wrapper(self, *args):
        note(name)
        return method(self, *args)
    return wrapper


class TracedEngine(engine.WubiEngine):
    __gtype_name__ = "WubitokTracedEngine"

    def do_process_key_event(self, keyval: int, keycode: int, state: int) -> bool:
        note("key-in", time.thread_time_ns())
        handled = super().do_process_key_event(keyval, keycode, state)
        note("key-out", time.thread_time_ns())
        return handled


# The adapter's outgoing signals: each one is a D-Bus message to the daemon, which sends it on.
for _name in ("commit_text", "update_preedit_text", "update_preedit_text_with_mode", "hide_preedit_text",
              "update_lookup_table", "hide_lookup_table", "update_auxiliary_text", "hide_auxiliary_text",
              "update_property", "register_properties"):
    setattr(TracedEngine, _name, traced(_name, getattr(engine.WubiEngine, _name)))


def _write(self, what: str, change: Callable) -> Any:
    note("db-in", what)
    try:
        return _original_write(self, what, change)
    finally:
        note("db-out", what)


_original_write = userdb.UserFrequencies._write
userdb.UserFrequencies._write = _write  # type: ignore[method-assign]
gc.callbacks.append(lambda phase, info: note(f"gc-{phase}", info["generation"]))


def main() -> int:
    out = Path(sys.argv[1])

    def dump() -> bool:
        tmp = out.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(e) + "\n" for e in EVENTS), encoding="utf-8")
        tmp.replace(out)
        return True  # keep the handler

    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGUSR1, dump)
    engine.WubiEngine = TracedEngine  # type: ignore[misc]  # what run_engine builds per context
    return service.run_engine()


if __name__ == "__main__":
    sys.exit(main())
