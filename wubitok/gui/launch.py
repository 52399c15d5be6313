"""Starting the app from a command line, before Qt loads.

``wubitok gui`` (:mod:`wubitok.cli.gui`) and the ``wubitok-gui`` launcher
(:func:`main`) both end in :func:`launch`: the options and the display checks
come from :mod:`wubitok.services.earlyinit`, and Qt is imported only after them, so a
machine without a display gets one clear line instead of a Qt abort.
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from ..errors import InputError, WubitokError
from ..services import earlyinit

EXIT_USER_ERROR = 2
# Qt cannot render a window much larger than this (a 99999x99999 grab crashed
# the process); 8192 is beyond any screen a screenshot is made for.
MAX_SCREENSHOT_SIDE = 8192


def screenshot_size(text: str) -> tuple[int, int]:
    """``--size`` for a screenshot, each side at most MAX_SCREENSHOT_SIDE pixels."""
    width, height = earlyinit.parse_size(text)
    if max(width, height) > MAX_SCREENSHOT_SIDE:
        raise InputError(f"--size {width}x{height} is too large: a screenshot is at most "
                         f"{MAX_SCREENSHOT_SIDE}x{MAX_SCREENSHOT_SIDE} pixels")
    return width, height


def launch(args: argparse.Namespace) -> int:
    """Render a screenshot (``--screenshot``) or open the window, as the options of
    :func:`wubitok.services.earlyinit.add_arguments` say."""
    earlyinit.require_qt()
    if args.screenshot is not None:
        if not args.screenshot.strip():
            raise InputError("--screenshot wants the name of the PNG file to write, not an empty name")
        size = screenshot_size(args.size)
        earlyinit.use_offscreen()
        from PySide6.QtCore import qInstallMessageHandler

        from . import app
        from .support.settings import scratch_settings

        # Qt's own warnings (the offscreen plugin's "does not support
        # propagateSizeHints()") would follow our one line on stderr.
        qInstallMessageHandler(lambda *_: None)
        with scratch_settings():
            app.screenshot(args.screenshot, pane=args.pane, text=args.text, size=size,
                           language=args.lang, theme_name=args.theme)
        print(args.screenshot)
        return 0
    earlyinit.check_window_possible()
    from . import app

    return app.run(args.pane, args.text, language=args.lang, theme_name=args.theme)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``wubitok-gui`` launcher: the options of ``wubitok gui``."""
    parser = argparse.ArgumentParser(prog="wubitok-gui", description="Open the wubitok window.")
    earlyinit.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return launch(args)
    except WubitokError as exc:
        print(f"wubitok-gui: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
