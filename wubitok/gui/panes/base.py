"""What the main window expects of a pane.

A pane is a :class:`Pane` subclass listed in :data:`wubitok.services.earlyinit.PANES`.
Every method here has a harmless default; a pane overrides what it supports,
and the window asks :meth:`Pane.supports` before offering it (File > Open is
disabled for a pane without ``open_file``, and so on).

The constructor sets up the pane's state and hands the building of its widgets
to :meth:`Pane.build` as a generator that yields between parts (``_build_*``
calls): a constructor builds all of it at once, unless given ``in_steps=True``,
as the main window's background does, which then runs one part per turn of the
event loop (:meth:`Pane.build_step`; a whole constructor was 15-40 ms of one
turn at start-up).  Building must be cheap: slow work goes to a
:class:`~wubitok.gui.support.workers.Job` or a
:class:`~wubitok.gui.support.latest_job.LatestJob`.  The main window builds
every pane in the background after start-up, so work only a user of the pane
needs starts on its first show (``showEvent``), not in the constructor.  The parts
(a pane's ``_parts`` generator) read as a table of contents, as in qutebrowser's
main window: ``_build_*`` methods make
the widgets and layouts, ``_connect`` wires the signals, then the pane
restores its options from ``Settings("<key>")``.  The main input is named
with :meth:`Pane.set_main_input`, so showing the pane (``setFocus``) focuses
it.  Not a focus proxy: in Qt 6 a widget with a proxy is itself a Tab stop
that jumps to the proxy, so Tab from the pane list skipped every control
above the main input (Compare's choosers, Tokenize's model box).

User errors go through :mod:`wubitok.gui.support.errors`
(``errors.reported(self)``, ``errors.show_error(self, exc)``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget


class Pane(QWidget):
    """Base class of the panes; see the module doc."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._build_left: Iterator[None] | None = None
        self._main_input: QWidget | None = None

    # -- focus ------------------------------------------------------------------
    def set_main_input(self, widget: QWidget) -> None:
        """``widget`` takes the focus when the pane is given it (``setFocus``)."""
        self._main_input = widget

    def main_input(self) -> QWidget | None:
        return self._main_input

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt name)
        super().focusInEvent(event)
        if self._main_input is not None:
            self._main_input.setFocus(event.reason())

    # -- building ---------------------------------------------------------------
    def build(self, parts: Iterator[None], in_steps: bool) -> None:
        """Build the widgets with ``parts``: now, or (``in_steps``) one part per :meth:`build_step`."""
        self._build_left = parts
        if not in_steps:
            self.finish_building()

    def build_step(self) -> bool:
        """Build the next part; False once the pane is built."""
        if self._build_left is None:
            return False
        try:
            next(self._build_left)
        except StopIteration:
            self._build_left = None
            return False
        return True

    def finish_building(self) -> None:
        while self.build_step():
            pass

    def is_built(self) -> bool:
        return self._build_left is None

    def scrolling_layout(self) -> QVBoxLayout:
        """The pane's layout inside a frameless scroll area that fills the pane:
        for panes taller than a 600-pixel window leaves."""
        content = QWidget()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        return QVBoxLayout(content)

    @classmethod
    def supports(cls, method: str) -> bool:
        """Whether this pane overrides ``method`` of :class:`Pane` (for the optional ones)."""
        return getattr(cls, method) is not getattr(Pane, method)

    def set_sample_text(self, text: str) -> None:
        """Put ``text`` in the main input and show its result, as a user typing it would
        (``wubitok gui --screenshot --text``, tests).  Optional."""

    def is_ready(self) -> bool:
        """False while still working towards what the pane shows (a debounce timer
        pending, a model loading); ``--screenshot`` waits until True."""
        return True

    def is_busy(self) -> bool:
        """True while a long job runs (training, a corpus comparison): closing the
        window asks first, and a language switch does not rebuild the pane."""
        return False

    def retranslate_ui(self) -> None:
        """Re-read every visible text through ``tr()`` after a language switch.  Optional:
        a pane without it is rebuilt instead (``save_state()``, ``shutdown()``, a new
        instance) unless busy, and what was typed into it is lost."""

    def save_state(self) -> None:
        """Store options and layout in ``Settings("<key>")``; called on close and before a rebuild."""

    def shutdown(self) -> None:
        """Cancel and wait for running jobs; called when the window closes."""

    def open_file(self) -> None:
        """File > Open (Ctrl+O) in this pane.  Optional."""

    def save_file(self) -> None:
        """File > Save (Ctrl+S) in this pane.  Optional."""

    def drop_files(self, paths: list[Path]) -> None:
        """Files dropped anywhere on the pane (:mod:`..support.file_drops`).  Optional."""
