"""What the desktop app needs before Qt loads: its options, its panes, the display checks.

Both entry points use this module: ``wubitok gui`` (:mod:`wubitok.cli.gui`)
and the ``wubitok-gui`` launcher (:mod:`wubitok.gui.launch`).  Nothing here
imports Qt, so the checks run first: without a display, or without the X11
libraries Qt's xcb plugin loads, Qt would abort the process with a message
about plugins instead of the one clear line these checks give.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys

from ..errors import InputError, MissingExtraError, WubitokError

# The app's panes in the order of its pane list: the key (``--pane KEY``,
# Ctrl+1...) and the class, imported when the pane is first shown.
PANES: dict[str, str] = {
    "lookup": "wubitok.gui.panes.lookup:LookupPane",
    "convert": "wubitok.gui.panes.convert:ConvertPane",
    "tokenize": "wubitok.gui.panes.tokenize:TokenizePane",
    "compare": "wubitok.gui.panes.compare.pane:ComparePane",
    "train": "wubitok.gui.panes.train:TrainPane",
    "ime": "wubitok.gui.panes.ime_pad.pane:ImePadPane",
    "roots": "wubitok.gui.panes.root_chart:RootChartPane",
    "practice": "wubitok.gui.panes.practice:PracticePane",
}
PANE_KEYS = tuple(PANES)
# UI languages and colour themes; "system" follows the desktop.
LANGUAGES = ("system", "en", "zh_CN")
THEMES = ("system", "light", "dark")

# The app is an extra: `pip install wubitok` is the library and the CLI without Qt.
GUI_EXTRA = "pip install 'wubitok[gui]'"

NO_DISPLAY = ("no display: the desktop app needs a graphical session. "
              "Try `wubitok lookup 你好`, `wubitok --help`, or `wubitok gui --screenshot out.png`")

# Libraries Qt's X11 plugin loads that minimal systems lack; without them Qt
# aborts the process, so they are checked first.  (library, Debian package)
XCB_LIBRARIES = (("xcb-cursor", "libxcb-cursor0"), ("xcb-icccm", "libxcb-icccm4"), ("xcb-keysyms", "libxcb-keysyms1"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The app's options, the same for ``wubitok gui`` and ``wubitok-gui``."""
    parser.add_argument("--pane", choices=PANE_KEYS, help="the pane to show first")
    parser.add_argument("--text", metavar="TEXT", help="sample text to put into that pane")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render offscreen, save a PNG and exit")
    parser.add_argument("--size", default="1200x800", metavar="WxH",
                        help="window size for --screenshot (default 1200x800)")
    parser.add_argument("--lang", choices=LANGUAGES, help="UI language (default: the remembered choice)")
    parser.add_argument("--theme", choices=THEMES, help="colours (default: the remembered choice)")


def parse_size(text: str) -> tuple[int, int]:
    """'1200x800' -> (1200, 800)."""
    m = re.fullmatch(r"(\d{2,5})[xX](\d{2,5})", text.strip())
    if not m:
        raise InputError(f"--size wants WIDTHxHEIGHT in pixels, like 1200x800, not {text!r}")
    return int(m.group(1)), int(m.group(2))


def use_offscreen() -> None:
    """Render without a display (screenshots): the same picture with or without one, no window flashes up."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"


def has_display() -> bool:
    """False on Linux/BSD when no platform is forced and no X11 or Wayland display is set."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform == "win32" or sys.platform == "darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def missing_x11_packages() -> list[str]:
    """Debian packages Qt's xcb platform needs but this Linux system lacks."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM") or not os.environ.get("DISPLAY"):
        return []
    if os.environ.get("WAYLAND_DISPLAY"):
        return []  # Qt prefers its Wayland plugin there
    return [pkg for lib, pkg in XCB_LIBRARIES if lib in missing_xcb_libraries()]


def missing_xcb_libraries() -> list[str]:
    """Which of :data:`XCB_LIBRARIES` the dynamic linker cannot find (whatever the display)."""
    import ctypes.util

    return [lib for lib, _ in XCB_LIBRARIES if ctypes.util.find_library(lib) is None]


def require_qt(what: str = "the desktop app") -> None:
    """Raise a one-line MissingExtraError naming the extra when PySide6 is not installed."""
    if importlib.util.find_spec("PySide6") is None:
        raise MissingExtraError(f"{what} needs PySide6 (Qt), which is not installed: {GUI_EXTRA}")


def check_window_possible() -> None:
    """Raise a one-line WubitokError if a window cannot open here (no display, missing X11 libraries)."""
    if not has_display():
        raise WubitokError(NO_DISPLAY)
    missing = missing_x11_packages()
    if missing:
        raise WubitokError(f"the window needs the X11 libraries of {', '.join(missing)} "
                           f"(Debian/Ubuntu: apt-get install {' '.join(missing)}); "
                           "`wubitok gui --screenshot out.png` works without them")
