"""IBus's registry cache, which can hide a component installed for the user.

ibus-daemon (with its default ``--cache=auto``) starts from the registry cache,
``~/.cache/ibus/bus/registry`` (or the system's, ``/var/cache/ibus/bus/registry``),
and reads the component folders again only when one it *observed* while writing
that cache has changed.  A cache written while ``IBUS_COMPONENT_PATH`` did not name
the user's component folder never observed it, so a component installed there stays
hidden even after the variable is set and the daemon restarted.  ``ibus write-cache``
run with the variable set writes the user's cache again, from the folders the
variable names (ibus 1.5.27, bus/registry.c and src/ibusregistry.c).
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

from .component import BUS_NAME, component_path_value

SYSTEM_CACHE = Path("/var/cache/ibus/bus/registry")


def user_cache_file() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "ibus" / "bus" / "registry"


def cache_file() -> Path | None:
    """The cache the daemon starts from: the user's, else the system's; None when neither exists."""
    return next((p for p in (user_cache_file(), SYSTEM_CACHE) if p.is_file()), None)


def write_cache_command() -> str:
    """The one command that writes the user's cache with wubitok's component in it."""
    return f"IBUS_COMPONENT_PATH={shlex.quote(component_path_value())} ibus write-cache"


def refresh() -> str:
    """Write the user's registry cache from the folders a user install names; "" when done,
    else why not (the caller then gives :func:`write_cache_command`)."""
    tool = shutil.which("ibus")
    if tool is None:
        return "the 'ibus' command is not installed"
    env = os.environ | {"IBUS_COMPONENT_PATH": component_path_value()}
    try:
        # Its stderr carries GLib warnings about other engines' components: not ours to show.
        proc = subprocess.run([tool, "write-cache"], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"'ibus write-cache' did not run ({exc})"
    if proc.returncode != 0:
        return f"'ibus write-cache' failed (exit code {proc.returncode})"
    return ""


def cache_hides_component() -> Path | None:
    """The cache file when the daemon would start from it without wubitok's component, else None."""
    path = cache_file()
    if path is None:
        return None
    from .gi_loader import load_ibus

    IBus, _ = load_ibus()
    registry = IBus.Registry.new()
    if not registry.load_cache_file(str(path)):
        return None  # unreadable or of another version: the daemon rebuilds it
    names = [c.get_name() for c in registry.get_components()]
    return None if BUS_NAME in names else path
