"""The IBus component that announces the engine, and where it is installed (no gi here).

ibus-daemon 1.5.27 reads component XML files from the folders listed in
``IBUS_COMPONENT_PATH`` (separated by ``:``) or, when that is unset, from
``/usr/share/ibus/component`` only: its code for a per-user folder is disabled
(``#if 0`` in bus/registry.c).  A system install is therefore one file; a user
install is a file in ``~/.local/share/ibus/component`` plus
``IBUS_COMPONENT_PATH`` naming both folders in the session's environment, which
``~/.config/environment.d`` gives to daemons that systemd's user manager or
GNOME starts (after the next login).

A user install also writes an XDG autostart entry (``~/.config/autostart``) that starts
the engine process at login (``wubitok ibus engine --at-login``): it takes the
component's bus name, and the daemon, which watches that name, has the engine's factory
before the typist first switches to it, so that the first keys after the switch are not
passed to the application while a process starts (``--no-autostart`` leaves it out).
"""
from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from ... import __version__
from ...errors import PlatformError, WubitokError
from ...fileio import atomic_write_text
from ...paths import resources_dir

ENGINE_NAME = "wubitok-wubi86"
LONG_NAME = "Wubi-86 (wubitok)"
BUS_NAME = "org.wubitok.IBus.Wubi86"  # the component's name: the engine process owns it on the IBus bus
COMPONENT_FILE = "wubitok.xml"
SYSTEM_DIR = Path("/usr/share/ibus/component")
ENVIRONMENT_FILE = "60-wubitok-ibus.conf"
AUTOSTART_FILE = "wubitok-ibus-engine.desktop"
AT_LOGIN = "--at-login"


def engine_command() -> list[str]:
    """The command that starts the engine process with this very installation."""
    if getattr(sys, "frozen", False):  # the PyInstaller app: its executable is the CLI
        return [sys.executable, "ibus", "engine"]
    return [sys.executable, "-m", "wubitok", "ibus", "engine"]


def icon_path() -> Path:
    return resources_dir() / "icons" / "wubitok.svg"


def component_xml() -> str:
    """The component file ibus-daemon reads to list the engine and start its process."""
    # Here, not at the top: xml.sax.saxutils imports urllib.request (http, email), 20-50 ms
    # of every engine process's start, which only needs this module's names.
    from xml.sax.saxutils import escape

    fields = {
        "exec": shlex.join(engine_command()),  # ibus-daemon splits it with g_shell_parse_argv
        "version": __version__,
        "icon": str(icon_path()),
    }
    e = {k: escape(v) for k, v in fields.items()}
    return f"""<?xml version="1.0" encoding="utf-8"?>
<component>
  <name>{BUS_NAME}</name>
  <description>Wubi-86 input method from wubitok</description>
  <exec>{e["exec"]}</exec>
  <version>{e["version"]}</version>
  <author>wubitok developers</author>
  <license>MIT</license>
  <textdomain>wubitok</textdomain>
  <engines>
    <engine>
      <name>{ENGINE_NAME}</name>
      <language>zh_CN</language>
      <license>MIT</license>
      <author>wubitok developers</author>
      <icon>{e["icon"]}</icon>
      <layout>us</layout>
      <longname>{escape(LONG_NAME)}</longname>
      <description>Wubi-86 with phrases, pinyin lookup (z) and learning shared with the wubitok app</description>
      <symbol>五</symbol>
      <rank>0</rank>
    </engine>
  </engines>
</component>
"""


def user_component_dir() -> Path:
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "ibus" / "component"


def environment_file() -> Path:
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "environment.d" / ENVIRONMENT_FILE


def autostart_file() -> Path:
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "autostart" / AUTOSTART_FILE


def _desktop_exec(argv: list[str]) -> str:
    """``argv`` as a desktop entry's Exec value (the Desktop Entry spec's quoting, not the shell's)."""
    def quoted(arg: str) -> str:
        if arg and not any(c in arg for c in " \t\n\"'\\><~|&;$*?#()`%="):
            return arg
        inner = "".join("\\" + c if c in '"`$\\' else c for c in arg).replace("%", "%%")
        return f'"{inner}"'
    # The value is a string too: its backslashes are escaped once more.
    return " ".join(quoted(a) for a in argv).replace("\\", "\\\\")


def autostart_entry() -> str:
    """The desktop entry that starts the engine process at login."""
    return f"""[Desktop Entry]
Type=Application
Name={LONG_NAME} engine
Comment=Starts the IBus engine at login so that the first keys after switching to it are typed
Exec={_desktop_exec(engine_command() + [AT_LOGIN])}
NoDisplay=true
Terminal=false
X-GNOME-Autostart-enabled=true
"""


def component_path_value() -> str:
    """``IBUS_COMPONENT_PATH`` for a user install: the user's folder, then the system's."""
    return f"{user_component_dir()}:{SYSTEM_DIR}"


@dataclass(frozen=True)
class Placement:
    """Where an install puts things (the environment file and the autostart entry only
    for a user install)."""

    component: Path
    environment: Path | None
    autostart: Path | None = None


def placement(system: bool) -> Placement:
    if system:
        return Placement(SYSTEM_DIR / COMPONENT_FILE, None)
    return Placement(user_component_dir() / COMPONENT_FILE, environment_file(), autostart_file())


def install(system: bool, autostart: bool = True) -> Placement:
    """Write the component (and, for the user, the environment file and, with ``autostart``,
    the autostart entry; without it an entry written before is removed); atomic, idempotent."""
    where = placement(system)
    if system and not SYSTEM_DIR.is_dir():
        raise PlatformError(f"{SYSTEM_DIR} does not exist: install IBus first (apt install ibus)")
    _write(where.component, component_xml(), system)
    if where.environment is not None:
        _write(where.environment, f"IBUS_COMPONENT_PATH={component_path_value()}\n", system)
    if where.autostart is not None:
        if autostart:
            _write(where.autostart, autostart_entry(), system)
        else:
            _remove(where.autostart, system)
            where = Placement(where.component, where.environment, None)
    return where


def uninstall(system: bool) -> list[Path]:
    """Remove what :func:`install` wrote; returns the files removed."""
    where = placement(system)
    return [path for path in (where.component, where.environment, where.autostart)
            if path is not None and _remove(path, system)]


def _remove(path: Path, system: bool) -> bool:
    try:
        path.unlink()
        return True
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise PlatformError(_not_writable(path, exc, system)) from None


def installed() -> list[Path]:
    """The component files of ours that exist, system first."""
    return [p for p in (placement(True).component, placement(False).component) if p.is_file()]


def _write(path: Path, text: str, system: bool) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
    except OSError as exc:
        raise PlatformError(_not_writable(path, exc, system)) from None
    except WubitokError as exc:  # atomic_write_text's FileError: one line already
        raise PlatformError(f"{exc}{' (run as root for --system)' if system else ''}") from None


def _not_writable(path: Path, exc: OSError, system: bool) -> str:
    hint = " (run as root for --system)" if system else ""
    return f"{path}: cannot write ({exc.strerror or exc}){hint}"
