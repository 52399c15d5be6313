"""The parts of the system some tests need, beyond the pip install: the one place that says
which parts there are, how to tell whether one is here and which package brings it.

A test says what it needs with ``@pytest.mark.system("ibus-daemon", ...)`` (an autouse fixture
of tests/conftest.py checks the mark before the test runs); the fixture that starts a part, or a
module whose imports need one, calls :func:`require` itself.  A missing part skips the test with
the reason in pytest's ``-ra`` summary ("needs ibus-daemon (Debian: apt install ibus)"), so
``make test`` on a machine with only Python passes and says what it left out.  CI sets
``WUBITOK_REQUIRE_SYSTEM_TESTS=1``: then a missing part fails the test with the same reason, and
every one of these tests runs.
"""
from __future__ import annotations

import ctypes.util
import os
import shutil
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable, NamedTuple

import pytest

REQUIRE_VARIABLE = "WUBITOK_REQUIRE_SYSTEM_TESTS"
RIME_DATA = Path("/usr/share/rime-data")


class Part(NamedTuple):
    what: str  # "needs <what>"
    debian: str  # the Debian/Ubuntu package(s) that bring it
    present: Callable[[], bool]


def _program(name: str) -> Callable[[], bool]:
    return lambda: shutil.which(name) is not None


def _library(name: str) -> Callable[[], bool]:
    return lambda: ctypes.util.find_library(name) is not None


def _glibc() -> bool:
    from wubitok.gui.support.large_allocations import on_glibc

    return on_glibc()


@lru_cache(maxsize=None)
def _gi() -> bool:
    from wubitok.errors import WubitokError
    from wubitok.platform.ibus.gi_loader import import_gi

    try:
        import_gi()
    except WubitokError:
        return False
    return True


@lru_cache(maxsize=None)
def _ibus_typelib() -> bool:
    from wubitok.errors import WubitokError
    from wubitok.platform.ibus.gi_loader import load_ibus

    try:
        load_ibus()
    except WubitokError:
        return False
    return True


@lru_cache(maxsize=None)
def _can_mount() -> bool:
    """Whether a tmpfs can be mounted here (root, and a kernel and sandbox that allow it)."""
    import subprocess
    import tempfile

    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", folder], capture_output=True)
        if done.returncode != 0:
            return False
        subprocess.run(["umount", "-l", folder], check=False)
    return True


def _xcb_libraries() -> bool:
    from wubitok.services.earlyinit import XCB_LIBRARIES

    return all(ctypes.util.find_library(lib) is not None for lib, _ in XCB_LIBRARIES)


def _xcb_packages() -> str:
    from wubitok.services.earlyinit import XCB_LIBRARIES

    return " ".join(package for _, package in XCB_LIBRARIES)


PY = f"{sys.version_info.major}.{sys.version_info.minor}"
PARTS: dict[str, Part] = {
    "gi": Part(f"the distribution's PyGObject (gi) for Python {PY}", "python3-gi", _gi),
    "ibus-typelib": Part("IBus's introspection data (typelib)", "gir1.2-ibus-1.0", lambda: _gi() and _ibus_typelib()),
    "dbus-daemon": Part("dbus-daemon", "dbus", _program("dbus-daemon")),
    "ibus-daemon": Part("ibus-daemon", "ibus", _program("ibus-daemon")),
    "Xvfb": Part("Xvfb", "xvfb", _program("Xvfb")),
    "xdotool": Part("xdotool", "xdotool", _program("xdotool")),
    "qt-xcb": Part("the xcb libraries of Qt's X11 platform", _xcb_packages(), _xcb_libraries),
    "rime_deployer": Part("Rime's rime_deployer", "librime-bin", _program("rime_deployer")),
    "librime": Part("librime", "librime1", _library("rime")),
    "rime-data-wubi": Part("Rime's wubi86 data", "rime-data-wubi", lambda: (RIME_DATA / "wubi86.dict.yaml").is_file()),
    "libime_tabledict": Part("fcitx5's libime_tabledict", "libime-bin", _program("libime_tabledict")),
    "root": Part("root (mknod, mount, running a command as another user)", "", lambda: os.geteuid() == 0),
    "mount": Part("mount(8) and umount(8) allowed (a small tmpfs)", "mount", _can_mount),
    "setpriv": Part("setpriv(1) to run a command as another user", "util-linux", _program("setpriv")),
    "linux": Part("Linux (the desktop app built here is the Linux one)", "", lambda: sys.platform.startswith("linux")),
    "glibc": Part("the GNU C library (its malloc)", "libc6", _glibc),
}
# What a private ibus-daemon with our engine needs.
IBUS = ("gi", "ibus-typelib", "dbus-daemon", "ibus-daemon")


def reason(name: str) -> str:
    part = PARTS[name]
    return f"needs {part.what}" + (f" (Debian: apt install {part.debian})" if part.debian else "")


def missing(*names: str) -> list[str]:
    """The reasons for each of ``names`` that this machine lacks, in order."""
    unknown = [n for n in names if n not in PARTS]
    if unknown:
        raise KeyError(f"unknown system parts {unknown}; known: {sorted(PARTS)}")
    return [reason(n) for n in names if not PARTS[n].present()]


def require(*names: str) -> None:
    """Skip the current test (or module, when called at its top) unless every part is here;
    under WUBITOK_REQUIRE_SYSTEM_TESTS=1 fail instead, with the same reason."""
    reasons = missing(*names)
    if not reasons:
        return
    text = "; ".join(reasons)
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(f"{text} ({REQUIRE_VARIABLE}=1)", pytrace=False)
    pytest.skip(text, allow_module_level=True)
