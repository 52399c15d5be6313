"""``wubitok gui``: open the desktop app, or render one pane to a PNG.

Qt is imported only when the command runs, so the rest of the CLI works
without a display and without loading PySide6.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

from ..errors import InputError, WubitokError
from .common import help_formatter

PANE_CHOICES = ("lookup", "convert", "tokenize", "compare", "train", "ime")
NO_DISPLAY = ("no display: the desktop app needs a graphical session. "
              "Try `wubitok lookup 你好`, `wubitok --help`, or `wubitok gui --screenshot out.png`")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "gui", help="open the desktop app (or render a pane to a PNG)",
        formatter_class=help_formatter,
        description="Open the wubitok window: Lookup, Convert, Tokenize, Compare, Train and the Wubi "
                    "typing pad.\nWith --screenshot, render the window offscreen (no display needed), "
                    "save it as PNG and exit.",
        epilog="examples:\n  wubitok gui\n  wubitok gui --pane lookup --text 你好\n"
               "  wubitok gui --screenshot lookup.png --pane lookup --text 你好\n"
               "  wubitok gui --screenshot convert.png --pane convert --text 'wqiy vbg' --lang en",
    )
    p.add_argument("--pane", choices=PANE_CHOICES, help="the pane to show first")
    p.add_argument("--text", metavar="TEXT", help="sample text to put into that pane")
    p.add_argument("--screenshot", metavar="OUT.png", help="render offscreen, save a PNG and exit")
    p.add_argument("--size", default="1200x800", metavar="WxH", help="window size for --screenshot (default 1200x800)")
    p.add_argument("--lang", choices=("system", "en", "zh_CN"), help="UI language (default: the remembered choice)")
    p.add_argument("--theme", choices=("system", "light", "dark"), help="colours (default: the remembered choice)")
    p.set_defaults(func=run)


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d{2,5})[xX](\d{2,5})", text.strip())
    if not m:
        raise InputError(f"--size wants WIDTHxHEIGHT in pixels, like 1200x800, not {text!r}")
    return int(m.group(1)), int(m.group(2))


def has_display() -> bool:
    """False on Linux/BSD when no platform is forced and no X11 or Wayland display is set."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform == "win32" or sys.platform == "darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


# Libraries Qt's X11 plugin loads that minimal systems lack; without them Qt
# aborts the process, so they are checked first.  (library, Debian package)
XCB_LIBRARIES = (("xcb-cursor", "libxcb-cursor0"), ("xcb-icccm", "libxcb-icccm4"), ("xcb-keysyms", "libxcb-keysyms1"))


def missing_x11_packages() -> list[str]:
    """Debian packages Qt's xcb platform needs but this Linux system lacks."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM") or not os.environ.get("DISPLAY"):
        return []
    if os.environ.get("WAYLAND_DISPLAY"):
        return []  # Qt prefers its Wayland plugin there
    import ctypes.util

    return [pkg for lib, pkg in XCB_LIBRARIES if ctypes.util.find_library(lib) is None]


def run(args: argparse.Namespace) -> int:
    if args.screenshot:
        size = _size(args.size)
        # Offscreen always: same picture with or without a display, and no window flashes up.
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from ..gui import app

        app.screenshot(args.screenshot, pane=args.pane, text=args.text, size=size,
                       language=args.lang, theme_name=args.theme)
        print(args.screenshot)
        return 0
    if not has_display():
        raise WubitokError(NO_DISPLAY)
    missing = missing_x11_packages()
    if missing:
        raise WubitokError(f"the window needs the X11 libraries of {', '.join(missing)} "
                           f"(Debian/Ubuntu: apt-get install {' '.join(missing)}); "
                           "`wubitok gui --screenshot out.png` works without them")
    from ..gui import app

    return app.run(args.pane, args.text, language=args.lang, theme_name=args.theme)
