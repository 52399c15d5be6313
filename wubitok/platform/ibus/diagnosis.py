"""Why a running ibus-daemon does not list the engine (one answer for ``wubitok ibus status``
and ``wubitok doctor``), and the rest of what typing in every application needs.

The causes, in the order a typist meets them: nothing installed; a system install the daemon
has not reread; a user install while the daemon was started without ``IBUS_COMPONENT_PATH``
naming the user's folder; a registry cache written before the install (see
:mod:`.registry_cache`); or a daemon started before the install.
"""
from __future__ import annotations

import shutil
import sys

from ...errors import WubitokError
from ...services.doctor import Check, system_han_font
from .component import ENGINE_NAME, component_path_value, installed, placement, user_component_dir
from .gi_loader import import_gi, load_ibus
from .registry_cache import cache_hides_component, write_cache_command
from .service import daemon_engines, daemon_environment

RESTART = "restart IBus: ibus restart"
# The distribution's gi, by distribution (gi_loader names the same packages in its error).
DEBIAN_GI, FEDORA_GI, ARCH_GI = "python3-gi", "python3-gobject", "python-gobject"


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


def doctor_checks() -> list[Check]:
    """What typing in every application needs, for ``wubitok doctor``: the daemon, the
    distribution's gi and IBus typelib, a Han font, the install, and the running daemon's list."""
    if not sys.platform.startswith("linux"):
        return [Check("ibus", "IBus", "Linux only; other systems: the Rime and fcitx5 tables")]
    checks = [Check("ibus", "ibus-daemon", "" if shutil.which("ibus-daemon") else "not found",
                    packages=("ibus", "ibus", "ibus")),
              system_han_font()]
    try:
        import_gi()
    except WubitokError:
        checks.append(Check("ibus", "the distribution's PyGObject (gi)",
                            f"not installed for Python {sys.version_info.major}.{sys.version_info.minor}",
                            packages=(DEBIAN_GI, FEDORA_GI, ARCH_GI)))
        return checks
    try:
        load_ibus()
    except WubitokError:
        checks.append(Check("ibus", "IBus's introspection data", "not installed",
                            packages=("gir1.2-ibus-1.0", "ibus-libs", "ibus")))
        return checks
    try:
        reason = not_listed_reason()  # names a missing install too
    except WubitokError as exc:
        checks.append(Check("ibus", "wubitok's component", "" if installed() else "not installed",
                            command="wubitok ibus install"))
        checks.append(Check("ibus", "a running ibus-daemon", str(exc)))
    else:
        checks.append(Check("ibus", f"{ENGINE_NAME} in the running daemon", reason))
    return checks
