"""``wubitok ibus``: register wubitok as an IBus input method and run its engine process."""
from __future__ import annotations

import argparse
import sys
from types import ModuleType

from ..errors import PlatformError
from .common import help_formatter

DESCRIPTION = """\
Type Wubi-86 in every application on a Linux desktop through IBus.

  component   print the IBus component XML (engine wubitok-wubi86, its exec line
              starts this very installation)
  install     write it where ibus-daemon finds it: for this user (and refresh IBus's
              registry cache, and start the engine process at login: an autostart
              entry; --no-autostart leaves it out), or with --system (as root) in
              /usr/share/ibus/component; then says what to restart
  uninstall   remove what install wrote
  status      what is installed, and whether the running daemon lists the engine
              (if not, why: the variable, IBus's registry cache, or a restart)
  engine      the engine process itself (ibus-daemon starts it, or the autostart
              entry with --at-login; not for typing in)

Needs the system's IBus, its introspection data and the distribution's PyGObject
(Debian/Ubuntu: apt install ibus gir1.2-ibus-1.0 python3-gi; Fedora: dnf install
ibus ibus-libs python3-gobject); nothing is built with pip."""

EPILOG = """\
examples:
  wubitok ibus install             (then log out and in, add "Wubi-86 (wubitok)")
  wubitok ibus install --no-autostart   (the engine starts when first selected)
  sudo wubitok ibus install --system && ibus restart
  wubitok ibus status
  wubitok ibus component > wubitok.xml
  wubitok ibus uninstall"""

ADD_ENGINE = ('add "Wubi-86 (wubitok)" in your input settings (GNOME: Settings > Keyboard > '
              "Input Sources > + > Chinese), or switch to it now with: ibus engine wubitok-wubi86")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ibus", help="Wubi-86 in every application: the IBus input method",
                       formatter_class=help_formatter, description=DESCRIPTION, epilog=EPILOG)
    p.add_argument("action", choices=("component", "install", "uninstall", "status", "engine"), metavar="ACTION",
                   help="component, install, uninstall, status or engine")
    p.add_argument("--system", action="store_true",
                   help="install / uninstall for every user in /usr/share/ibus/component (as root)")
    p.add_argument("--no-autostart", dest="autostart", action="store_false",
                   help="install: do not start the engine process at login (it then starts when first "
                        "selected, and the keys typed while it starts reach the application as they are)")
    p.add_argument("--at-login", action="store_true",
                   help="engine: started at login (the autostart entry): wait for ibus-daemon, and end at once "
                        "if the engine is running already or the daemon does not list it")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Nothing here needs gi before the action does: the messages for a missing
    # PyGObject come from the one place that loads it.
    from ..platform.ibus import component

    if args.system and args.action not in ("install", "uninstall"):
        raise PlatformError("--system goes with install or uninstall")
    if not args.autostart and args.action != "install":
        raise PlatformError("--no-autostart goes with install")
    if args.at_login and args.action != "engine":
        raise PlatformError("--at-login goes with engine")
    if args.action == "component":
        sys.stdout.write(component.component_xml())
        return 0
    if args.action == "install":
        from ..platform.ibus.gi_loader import load_ibus

        load_ibus()  # the engine could not start without it: say so now, not at the first key
        where = component.install(args.system, autostart=args.autostart)
        print(f"wrote {where.component}")
        if where.autostart is not None:
            print(f"wrote {where.autostart} (the engine process starts at login, about 30 MB, so that the "
                  "first keys after switching to it are typed)")
        elif args.system:
            print("the engine process starts when a user first selects it ('wubitok ibus install' as that "
                  "user adds an autostart entry that starts it at login)")
        _prepare_index(args.system)
        if where.environment is None:
            print("next: restart IBus as your user ('ibus restart', or 'ibus-daemon -drx'), then")
            print(f"      {ADD_ENGINE}")
            return 0
        value = component.component_path_value()
        print(f"wrote {where.environment} (IBUS_COMPONENT_PATH={value}: ibus-daemon 1.5 reads no "
              "per-user component folder by itself)")
        from ..platform.ibus import registry_cache

        # A cache IBus wrote before the install would hide the component even once the variable is set.
        why_not = registry_cache.refresh()
        if why_not:
            print(f"IBus's registry cache was not refreshed ({why_not}); run: {registry_cache.write_cache_command()}")
        else:
            print(f"refreshed IBus's registry cache {registry_cache.user_cache_file()}")
        print("next: log out and back in so that IBus starts with IBUS_COMPONENT_PATH (a desktop that "
              "does not read ~/.config/environment.d needs it in ~/.xprofile, or use --system);")
        print(f"      for this session only: IBUS_COMPONENT_PATH={value} ibus-daemon -drx")
        print(f"      then {ADD_ENGINE}")
        return 0
    if args.action == "uninstall":
        removed = component.uninstall(args.system)
        for path in removed:
            print(f"removed {path}")
        if not removed:
            print("nothing to remove: wubitok's IBus component is not installed" + (" system-wide" if args.system
                                                                                   else " for this user"))
        else:
            print("restart IBus ('ibus restart') so that it forgets the engine")
        return 0
    if args.action == "status":
        return _status(component)
    from ..platform.ibus.service import run_engine

    return run_engine(at_login=args.at_login)


def _prepare_index(system: bool) -> None:
    """Build the typing index now (seconds), so that the engine's first start opens it at once
    instead of building it while the first keys wait.  It lives in each user's cache: a system
    install, run as root, cannot build it for the users."""
    if system:
        print("each user's first use builds the typing index in their cache (a few seconds, once)")
        return
    from ..ime.index import CandidateIndex
    from ..wubi.dictionary import default_dictionary

    index = CandidateIndex(default_dictionary())
    ready = index.built()
    print(f"typing index {index.path}" + (" (already built)" if ready else " built, for the engine's first start"))


def _status(component: ModuleType) -> int:
    expected = component.component_xml()
    found = component.installed()
    for path in found:
        current = path.read_text(encoding="utf-8", errors="replace") == expected
        print(f"installed: {path}" + ("" if current else " (from another installation or version: "
                                                          "run 'wubitok ibus install' again)"))
    if not found:
        print("installed: no (run 'wubitok ibus install')")
    env = component.environment_file()
    if env.is_file():
        print(f"environment: {env}")
    autostart = component.autostart_file()
    if autostart.is_file():
        current = autostart.read_text(encoding="utf-8", errors="replace") == component.autostart_entry()
        print(f"autostart: {autostart} (the engine process starts at login)" + (
            "" if current else " (from another installation or version: run 'wubitok ibus install' again)"))
    elif found:
        print("autostart: no (the engine process starts when first selected)")
    from ..platform.ibus.diagnosis import not_listed_reason

    reason = not_listed_reason()
    print(f"daemon: running; {component.ENGINE_NAME} " + (f"not listed: {reason}" if reason else "listed"))
    return 0
