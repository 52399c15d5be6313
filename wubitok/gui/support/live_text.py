"""Texts built while the app runs (progress lines, results, captions), kept in the
UI language across a live language switch.

A pane's ``retranslate_ui`` re-reads its fixed texts through ``tr()``; a text
built from a result ("saved bpe-4112-poems.json · vocabulary 4,112 …") was set
once, in the language of that moment, and stayed English after a switch to
简体中文.  :func:`set_text` keeps the function that builds it with the widget,
and :func:`refresh` (called by ``retranslate_ui``) builds every such text again.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtWidgets import QLabel, QProgressBar, QWidget

_MAKE = "_wubitok_make_text"


def set_text(widget: QLabel | QProgressBar, make: Callable[[], str]) -> None:
    """Show ``make()`` on ``widget`` (a label's text, a progress bar's format), now and after each switch."""
    setattr(widget, _MAKE, make)
    _show(widget, make())


def clear(label: QLabel) -> None:
    set_text(label, str)


def refresh(root: QWidget) -> None:
    """Build every text set with :func:`set_text` in ``root`` again, in the current language."""
    for widget in [root, *root.findChildren(QWidget)]:
        make = getattr(widget, _MAKE, None)
        if make is not None:
            _show(widget, make())


def _show(widget: QWidget, text: str) -> None:
    if isinstance(widget, QProgressBar):
        widget.setFormat(text)
    elif isinstance(widget, QLabel):
        widget.setText(text)
