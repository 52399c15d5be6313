"""Why a running ibus-daemon does not list the engine: one answer for ``wubitok ibus status``
and ``wubitok doctor``.

The causes, in the order a typist meets them: nothing installed; a system install the daemon
has not reread; a user install while the daemon was started without ``IBUS_COMPONENT_PATH``
naming the user's folder; a registry cache written before the install (see
:mod:`.registry_cache`); or a daemon started before the install.
"""
from __future__ import annotations

from .component import ENGINE_NAME, component_path_value, installed, placement, user_component_dir
from .registry_cache import cache_hides_component, write_cache_command
from .service import daemon_engines, daemon_environment

RESTART = "restart IBus: ibus restart"


def not_listed_reason() -> str:
    """"" when the running daemon lists the engine, else why not and what to do, in one line.
    Raises PlatformError (one line) when no daemon can be reached."""
    if ENGINE_NAME in daemon_engines():
        return ""
    found = installed()
    if not found:
        return "not installed: run 'wubitok ibus install'"
    if placement(True).component in found:
        return f"installed in {found[0].parent} after the daemon started: {RESTART}"
    user_dir = str(user_component_dir())
    env = daemon_environment()
    if env is not None and user_dir not in env.get("IBUS_COMPONENT_PATH", "").split(":"):
        return (f"the running ibus-daemon was started without IBUS_COMPONENT_PATH naming {user_dir}: log out "
                f"and back in, or for this session: IBUS_COMPONENT_PATH={component_path_value()} ibus-daemon -drx")
    stale = cache_hides_component()
    if stale is not None:
        return (f"IBus's registry cache {stale} was written before the install and hides it: "
                f"{write_cache_command()} && ibus restart")
    return f"the daemon started before the install: {RESTART}"
