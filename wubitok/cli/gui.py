"""``wubitok gui``: open the desktop app, or render one pane to a PNG.

The options and the display checks are :mod:`wubitok.services.earlyinit`'s, shared
with the ``wubitok-gui`` launcher; Qt is imported only when the command runs,
so the rest of the CLI works without a display and without loading PySide6.
"""
from __future__ import annotations

import argparse

from ..services.earlyinit import add_arguments
from .common import help_formatter


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
    add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # The GUI package only now: the other commands never load it.
    from ..gui.launch import launch

    return launch(args)
