"""The main window: a pane list on the left, the current pane on the right.

The panes are :data:`wubitok.services.earlyinit.PANES` (key and class), each a
:class:`~wubitok.gui.panes.base.Pane`.  Once the window is shown, the panes
not built yet are built in the background, one step per turn of the event
loop (a part of a pane, then its polish and layout while hidden), so that a first
click on a pane only shows and paints it: built then, a pane froze the
window 30-100 ms.  A pane with a ``ready`` signal (it showed a new result)
that emits it while hidden is painted once more the same way.
``pane(key)`` still builds a pane at once when asked
first.  One whose module fails to import or whose constructor raises shows
the error in its place (and in ``MainWindow.pane_errors``), so one broken
pane never takes the app down.
"""
from __future__ import annotations

import time
import traceback
from collections import deque
from typing import Callable, Iterable, Iterator, TypeVar

from PySide6.QtCore import QEvent, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QStackedWidget,
    QTextEdit,
    QWidget,
)

from .. import __version__
from ..registry import resolve
from ..services.earlyinit import LANGUAGES, PANE_KEYS, PANES, THEMES
from ..wubi.splits import all_splits
from .panes.base import Pane
from .support import file_drops, gc_pauses, i18n, keyboard, theme, worker_processes
from .support.settings import Settings
from .support.steps import start_after_this_pass
from .support.workers import Job, run_job
from .widgets.edit_menu import EditMenu, FindDialog, focused_text_box

T = TypeVar("T")
DEFAULT_SIZE = QSize(1200, 800)
# The pause between two steps of building panes in the background: the user's
# clicks and keys, and repaints, get turns in between.
BACKGROUND_STEP_MS = 10
# A widget painted in the background is painted in bands of this height (each in a step).
PAINT_BAND_PX = 96


class _BrokenPane(QLabel):
    """Stands in for a pane that could not be built: a bug, shown, not fatal."""

    def __init__(self, message: str, parent: QWidget | None = None):
        super().__init__(message, parent)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)


class MainWindow(QMainWindow):
    def __init__(self, *, restore: bool = True, build_in_background: bool = True, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self._settings = Settings("window")
        self._asking_before_quit = True  # about running jobs; not on a signal (quit_without_asking)
        self.pane_errors: dict[str, str] = {}
        self._classes: dict[str, type[Pane] | None] = {}
        self._panes: dict[str, QWidget] = {}  # a Pane, or a _BrokenPane in its place
        self._keys = list(PANE_KEYS)
        self._untranslated: list[str] = []  # panes still in the previous language
        # A timer, not a posted call, so each pane is its own pass of the event loop.
        self._retranslate_timer = QTimer(self, singleShot=True, interval=1)
        self._retranslate_timer.timeout.connect(self._retranslate_next)
        # Work done a step per turn of the event loop, in order: the building of the panes
        # (from the first show), then painting again any hidden pane that showed a new result.
        self._steps: deque[Iterator[None]] = deque()
        self._background_left = build_in_background  # not for a screenshot of one pane
        self._repaint_queued: set[str] = set()
        self._building = False  # the building has been queued (from the first show)
        self._background_timer = QTimer(self, singleShot=True, interval=BACKGROUND_STEP_MS)
        self._background_timer.timeout.connect(self._background_step)

        self.pane_list = QListWidget(objectName="paneList")
        theme.use_style_sheet(self.pane_list)
        self.pane_list.setFixedWidth(168)
        self.pane_list.setIconSize(QSize(0, 0))
        self.stack = QStackedWidget()
        central = QWidget()
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.pane_list)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        for key, target in PANES.items():
            try:
                self._classes[key] = resolve(target)
            except Exception:
                self.pane_errors[key] = traceback.format_exc()
                self._classes[key] = None
            self.stack.addWidget(QWidget())  # replaced by the pane when first shown
            self.pane_list.addItem(QListWidgetItem())
        self.pane_list.currentRowChanged.connect(self._on_row_changed)

        self._build_menus()
        self._retranslate()
        self.statusBar()
        self.resize(DEFAULT_SIZE)
        if restore:
            geometry = self._settings.get_bytes("geometry")
            if geometry is not None:
                self.restoreGeometry(geometry)
        start = self._settings.get_str("pane", "lookup") if restore else "lookup"
        if not self.show_pane(start):
            self.show_pane(self._keys[0])
        gc_pauses.settle(collect=True)  # start-up objects live for good: no collection walks them again
        self._workers_starting = worker_processes.start_in_background()  # Compare and Tokenize encode there
        self._splits_reading: Job | None = None  # from the first background step on

    def start_up_finished(self) -> bool:
        """Whether the work start-up leaves to the background is done: every pane
        built and laid out, the worker processes started, the splits read (bench, tests)."""
        splits_reading = self._splits_reading is not None and self._splits_reading.is_running()
        return not (self._background_left or self._workers_starting.is_running() or splits_reading)

    # -- building panes in the background ----------------------------------
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        if self._background_left and not self._building:
            self._building = True
            self._queue_steps(self._background_steps())

    def _background_steps(self) -> Iterator[None]:
        # Practice's first lesson reads every split (18,000 rows, 43 ms of Python): read in a pool thread
        # meanwhile, the pane's step finds them read (in that step they froze start-up 53-63 ms).  Not
        # before the first paint, which waited for the GIL beside it (57-69 ms).  A file that cannot be
        # read is the pane's error to show, when it reads it again.
        self._splits_reading = run_job(all_splits, pass_progress=False, pass_cancel=False, name="read the splits")
        for key in self._keys:
            if key not in self._panes:
                self._create_pane(key, in_steps=True)
                yield
            while self._build_step(key):  # a part of the pane per turn (a whole one was 15-40 ms)
                yield
            yield from self._lay_out_hidden(self._panes[key])
        self._background_left = False

    def _queue_steps(self, steps: Iterator[None]) -> None:
        self._steps.append(steps)
        if not self._background_timer.isActive():
            self._background_timer.start()

    def _background_step(self) -> None:
        while self._steps:
            try:
                next(self._steps[0])
                break
            except StopIteration:
                self._steps.popleft()
        if self._steps:
            self._background_timer.start()

    def _result_shown(self, key: str) -> None:
        """A pane showed a new result: if it is hidden, paint it once more in the background.
        Its first show then paints what it has already laid out once: the first show
        of Tokenize after its first result took 40-55 ms of the GUI thread, 19-25 after."""
        pane = self._panes.get(key)
        if pane is None or pane.isVisible() or key in self._repaint_queued:
            return
        self._repaint_queued.add(key)
        self._queue_steps(self._repaint_hidden(key, pane))

    def _repaint_hidden(self, key: str, pane: QWidget) -> Iterator[None]:
        self._repaint_queued.discard(key)  # a result after this point queues another pass
        yield from self._paint_hidden(pane)

    def _lay_out_hidden(self, pane: QWidget) -> Iterator[None]:
        """Polish, lay out and paint a hidden pane once, at the size it will have, into
        pixmaps thrown away: what a first show does beyond painting (layouts are
        activated by the resize events that rendering sends; the style's and the
        fonts' caches fill on a first paint).  In steps of about BACKGROUND_STEP_MS:
        one grab of a whole pane took up to 50 ms.  Stops when the pane is shown,
        which does all of it."""
        if pane.isVisible():
            return
        # Polished a few widgets at a time, deepest first (a widget's polish
        # polishes its children): the grab below polishing all of Convert at
        # once took 54-80 ms.
        yield from self._each_in_steps(pane, reversed(pane.findChildren(QWidget)), lambda w: w.ensurePolished())
        if pane.isVisible():
            return
        pane.setGeometry(self.stack.rect())
        pane.grab(QRect(0, 0, 1, 1))  # the whole tree laid out, one pixel painted
        yield
        yield from self._paint_hidden(pane)

    def _paint_hidden(self, pane: QWidget) -> Iterator[None]:
        """Paint each widget of a hidden pane that has no visible child, into pixmaps thrown
        away, in bands of PAINT_BAND_PX: one paint of Tokenize's token table took 14 ms."""
        leaves = [w for w in pane.findChildren(QWidget) if w.isVisibleTo(pane)
                  and not any(isinstance(c, QWidget) and c.isVisibleTo(pane) for c in w.children())]
        bands = [(w, QRect(0, y, w.width(), PAINT_BAND_PX)) for w in leaves
                 for y in range(0, max(w.height(), 1), PAINT_BAND_PX)]
        yield from self._each_in_steps(pane, bands, lambda band: band[0].grab(band[1]))

    @staticmethod
    def _each_in_steps(pane: QWidget, items: Iterable[T], action: Callable[[T], object]) -> Iterator[None]:
        """``action`` on each item of ``pane``, a step ending every ~BACKGROUND_STEP_MS; stops once it is shown."""
        budget_end = time.perf_counter() + BACKGROUND_STEP_MS / 1000
        for item in items:
            if pane.isVisible():
                return
            action(item)
            if time.perf_counter() > budget_end:
                yield
                budget_end = time.perf_counter() + BACKGROUND_STEP_MS / 1000

    # -- panes -------------------------------------------------------------
    def pane_keys(self) -> list[str]:
        """Keys of the panes in the pane list."""
        return list(self._keys)

    def pane(self, key: str) -> QWidget | None:
        """The pane for ``key`` (a ``_BrokenPane`` if it failed), created now if it was not yet; None if no such key."""
        if key not in self._keys:
            return None
        if key not in self._panes:
            self._create_pane(key)
        while self._build_step(key):  # being built in the background: the rest now
            pass
        return self._panes[key]

    def _create_pane(self, key: str, *, in_steps: bool = False) -> None:
        """Build the pane for ``key`` and put it in the stack; ``in_steps``: only start
        building it, for :meth:`_build_step` to go on with."""
        pane_class = self._classes[key]
        widget: QWidget
        if pane_class is None:
            widget = _BrokenPane(self._broken_message(key))
        else:
            try:
                widget = pane_class(self.stack, in_steps=True) if in_steps else pane_class(self.stack)
            except Exception:
                self.pane_errors[key] = traceback.format_exc()
                widget = _BrokenPane(self._broken_message(key))
        self._put_in_stack(key, widget)
        if not in_steps:
            self._pane_built(key)

    def _put_in_stack(self, key: str, widget: QWidget) -> None:
        placeholder = self.stack.widget(self._keys.index(key))
        self.stack.insertWidget(self._keys.index(key), widget)
        self.stack.removeWidget(placeholder)
        placeholder.deleteLater()
        self._panes[key] = widget

    def _build_step(self, key: str) -> bool:
        """Build the next part of ``key``'s pane; False once it is built (or broken)."""
        pane = self._panes.get(key)
        if not isinstance(pane, Pane) or pane.is_built():
            return False
        try:
            if pane.build_step():
                return True
        except Exception:
            self.pane_errors[key] = traceback.format_exc()
            self._put_in_stack(key, _BrokenPane(self._broken_message(key)))
            pane.deleteLater()
        self._pane_built(key)
        return False

    def _pane_built(self, key: str) -> None:
        widget = self._panes[key]
        keyboard.tab_moves_focus(widget)
        if isinstance(widget, Pane) and widget.supports("drop_files"):
            file_drops.accept_file_drops(widget)
        ready = getattr(widget, "ready", None)  # a pane that shows results says when it showed one
        if ready is not None:
            ready.connect(lambda k=key: self._result_shown(k))
        gc_pauses.settle()

    def _broken_message(self, key: str) -> str:
        last = self.pane_errors.get(key, "").strip().splitlines()[-1:] or [""]
        return self.tr("This pane could not be loaded; this is a bug in wubitok.") + "\n\n" + last[0]

    def current_pane_key(self) -> str | None:
        row = self.pane_list.currentRow()
        return self._keys[row] if 0 <= row < len(self._keys) else None

    def current_pane(self) -> QWidget | None:
        key = self.current_pane_key()
        return self.pane(key) if key else None

    def show_pane(self, key: str) -> bool:
        if key not in self._keys:
            return False
        self.pane_list.setCurrentRow(self._keys.index(key))
        return True

    def _on_row_changed(self, row: int) -> None:
        if not 0 <= row < len(self._keys):
            return
        key = self._keys[row]
        if key in self._untranslated:
            self._retranslate_pane(key)
        pane = self.pane(key)
        self.stack.setCurrentWidget(pane)
        pane.setFocus()
        for action in self._pane_actions.actions():
            action.setChecked(action.data() == key)
        self._update_file_actions()

    def pane_title(self, key: str) -> str:
        titles = {
            "lookup": self.tr("Lookup"),
            "convert": self.tr("Convert"),
            "tokenize": self.tr("Tokenize"),
            "compare": self.tr("Compare"),
            "train": self.tr("Train"),
            "ime": self.tr("Type Wubi"),
            "roots": self.tr("Root chart"),
            "practice": self.tr("Practice"),
        }
        return titles.get(key, key)

    # -- menus -------------------------------------------------------------
    def _action(self, menu, slot: Callable, shortcut: QKeySequence | str | None = None,
                checkable: bool = False) -> QAction:
        action = QAction(self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _one_of(self, menu, names, setting: str, choose: Callable[[str], None]) -> QActionGroup:
        """A checkable item in ``menu`` for each of ``names``, the app setting's value checked."""
        group = QActionGroup(self)
        current = Settings("app").get_str(setting, "system")
        for name in names:
            action = self._action(menu, lambda _=False, n=name: choose(n), checkable=True)
            action.setData(name)
            action.setChecked(name == current)
            group.addAction(action)
        return group

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        self.open_action = self._action(
            self.file_menu, lambda: self._call_pane("open_file"), QKeySequence.StandardKey.Open
        )
        self.save_action = self._action(
            self.file_menu, lambda: self._call_pane("save_file"), QKeySequence.StandardKey.Save
        )
        self.file_menu.addSeparator()
        self.quit_action = self._action(self.file_menu, self.close, QKeySequence.StandardKey.Quit)
        self.quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        self.edit_menu = EditMenu(bar.addMenu(""), self.find, self.preferences)

        self.view_menu = bar.addMenu("")
        self._pane_actions = QActionGroup(self)
        for i, key in enumerate(self._keys):
            action = self._action(self.view_menu, lambda _=False, k=key: self.show_pane(k),
                                  f"Ctrl+{i + 1}" if i < 9 else None, checkable=True)
            action.setData(key)
            self._pane_actions.addAction(action)
        self.view_menu.addSeparator()
        self.focus_action = self._action(self.view_menu, self._focus_pane, "Ctrl+L")
        self.theme_menu = self.view_menu.addMenu("")
        self._theme_actions = self._one_of(self.theme_menu, THEMES, "theme", self.set_theme)
        self.language_menu = bar.addMenu("")
        self._language_actions = self._one_of(self.language_menu, LANGUAGES, "language", self.set_language)

        self.help_menu = bar.addMenu("")
        self.doctor_action = self._action(self.help_menu, self.check_computer)
        self.about_action = self._action(self.help_menu, self._about)

    def _retranslate(self) -> None:
        self.setWindowTitle(self.tr("wubitok — Wubi dictionary, typing and tokenizers"))
        self.file_menu.setTitle(self.tr("&File"))
        self.open_action.setText(self.tr("&Open…"))
        self.save_action.setText(self.tr("&Save…"))
        self.quit_action.setText(self.tr("&Quit"))
        self.edit_menu.retranslate()
        self.view_menu.setTitle(self.tr("&View"))
        self.focus_action.setText(self.tr("Go to the &input box"))
        self.theme_menu.setTitle(self.tr("&Theme"))
        theme_names = {"system": self.tr("Follow the system"), "light": self.tr("Light"), "dark": self.tr("Dark")}
        for action in self._theme_actions.actions():
            action.setText(theme_names[action.data()])
        self.language_menu.setTitle(self.tr("&Language"))
        for action in self._language_actions.actions():
            name = action.data()
            action.setText(i18n.LANGUAGE_NAMES.get(name) or self.tr("Follow the system"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.doctor_action.setText(self.tr("&Check this computer…"))
        self.about_action.setText(self.tr("&About wubitok"))
        self.pane_list.setAccessibleName(self.tr("Panes"))
        for i, key in enumerate(self._keys):
            title = self.pane_title(key)
            item = self.pane_list.item(i)
            item.setText(title)
            item.setToolTip(f"{title} (Ctrl+{i + 1})")
        for action in self._pane_actions.actions():
            action.setText(self.pane_title(action.data()))

    def current_real_pane(self) -> Pane | None:
        """The current pane, None when it is broken."""
        pane = self.current_pane()
        return pane if isinstance(pane, Pane) else None

    def _call_pane(self, method: str) -> None:
        pane = self.current_real_pane()
        if pane is not None and pane.supports(method):
            getattr(pane, method)()

    def _focus_pane(self) -> None:
        pane = self.current_pane()
        if pane is not None:
            pane.setFocus()  # a pane's focus proxy is its main input

    def _update_file_actions(self) -> None:
        pane = self.current_real_pane()
        self.open_action.setEnabled(pane is not None and pane.supports("open_file"))
        self.save_action.setEnabled(pane is not None and pane.supports("save_file"))

    def find(self) -> QDialog | None:
        """Edit > Find: in the text box with the focus, else in the pane's main input (Lookup's
        search box is its find: it gets the focus, its text selected)."""
        box = focused_text_box()
        pane = self.current_real_pane()
        if box is None and pane is not None:
            main = pane.main_input()
            box = main if isinstance(main, (QLineEdit, QPlainTextEdit, QTextEdit)) else None
        if isinstance(box, QLineEdit):
            box.setFocus()
            box.selectAll()
            return None
        if box is None:
            return None
        dialog = FindDialog(box, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def preferences(self) -> QDialog:
        """Edit > Preferences: theme, language and the typing settings in one dialog."""
        from .widgets.preferences_dialog import PreferencesDialog

        app = Settings("app")
        dialog = PreferencesDialog(app.get_str("theme", "system"), app.get_str("language", "system"),
                                   self.set_theme, self.set_language, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def check_computer(self) -> QDialog:
        """Help > Check this computer: ``wubitok doctor``'s report."""
        from .widgets.doctor_dialog import DoctorDialog

        dialog = DoctorDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def about_text(self) -> str:
        """The About box: what wubitok is, where its dictionary comes from, every bundled font
        and data file with its licence (resources/fonts/SOURCES.md, resources/frequency/SOURCES.md)."""
        return (self.tr("<h3>wubitok {version}</h3><p>Wubi-86 dictionary, typing pad and Wubi-BPE "
                        "tokenizers, with BPE, WordPiece and Unigram to compare — offline.</p>"
                        "<p>Dictionary from ibus-table-wubi (Debian). Bundled fonts: Droid Sans Fallback "
                        "(Google, Apache-2.0) for Han characters; a subset of HanaMinB (GlyphWiki Project, "
                        "Hanazono Font License) for CJK Extension B. Character frequencies for telling "
                        "GB18030 from Big5 files: Rime's essay (rime-essay, Debian; LGPL-3).</p>")
                .replace("{version}", __version__))

    def _about(self) -> None:
        QMessageBox.about(self, self.tr("About wubitok"), self.about_text())

    # -- language and theme -----------------------------------------------
    def set_language(self, language: str) -> None:
        Settings("app").set("language", language)
        for action in self._language_actions.actions():
            action.setChecked(action.data() == language)
        i18n.set_language(language)

    def set_theme(self, name: str) -> None:
        Settings("app").set("theme", name)
        for action in self._theme_actions.actions():
            action.setChecked(action.data() == name)
        theme.apply_theme(name)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
            self._retranslate_panes()
        super().changeEvent(event)

    def _retranslate_panes(self) -> None:
        # The pane on screen now; each other pane on a later turn of the event
        # loop (or when it is shown first): all of them in the switch's own turn
        # froze the window 50-120 ms with four panes open (bench_gui_stalls.py).
        current = self.current_pane_key()
        # A pane still being built is left out: its last part translates it.
        self._untranslated = [k for k, p in self._panes.items()
                              if k != current and not (isinstance(p, Pane) and not p.is_built())]
        if current in self._panes:
            self._retranslate_pane(current)
        if self._untranslated:
            start_after_this_pass(self._retranslate_timer)

    def _retranslate_next(self) -> None:
        if self._untranslated:
            self._retranslate_pane(self._untranslated[0])
        if self._untranslated:
            start_after_this_pass(self._retranslate_timer)

    def retranslation_pending(self) -> bool:
        """Some pane still shows the previous language (it changes within a few turns)."""
        return bool(self._untranslated)

    def _retranslate_pane(self, key: str) -> None:
        if key in self._untranslated:
            self._untranslated.remove(key)
        pane = self._panes.get(key)
        if isinstance(pane, _BrokenPane):
            pane.setText(self._broken_message(key))
        elif isinstance(pane, Pane) and pane.supports("retranslate_ui"):
            pane.retranslate_ui()
        elif isinstance(pane, Pane) and not pane.is_busy():
            self._rebuild_pane(key)

    def _rebuild_pane(self, key: str) -> None:
        old = self._panes.pop(key)
        assert isinstance(old, Pane)
        old.save_state()
        old.shutdown()
        was_current = self.stack.currentWidget() is old
        index = self._keys.index(key)
        self.stack.insertWidget(index, QWidget())
        self.stack.removeWidget(old)
        old.deleteLater()
        self._create_pane(key)
        if was_current:
            self.stack.setCurrentWidget(self._panes[key])

    # -- closing -----------------------------------------------------------
    def _real_panes(self) -> list[tuple[str, Pane]]:
        """The panes built so far, without the broken ones (nor one half built: it has no state yet)."""
        return [(k, p) for k, p in self._panes.items() if isinstance(p, Pane) and p.is_built()]

    def quit_without_asking(self) -> None:
        """Close as File > Quit does (everything remembered), cancelling running jobs
        without the question: Ctrl+C in the terminal, or SIGTERM (app.run)."""
        self._asking_before_quit = False
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        busy = [k for k, p in self._real_panes() if p.is_busy()]
        if busy and self._asking_before_quit:
            names = ", ".join(self.pane_title(k) for k in busy)
            answer = QMessageBox.question(
                self, self.tr("Quit wubitok?"),
                self.tr("A job is still running in: {panes}. Quit and cancel it?").replace("{panes}", names))
            if answer != QMessageBox.StandardButton.Yes:
                event.ignore()
                return
        self.save_state()
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Let every pane stop its jobs (closing, or after a screenshot)."""
        self._background_timer.stop()
        self._steps.clear()
        if self._splits_reading is not None:  # 43 ms at most, and a job that outlives the app is a traceback
            self._splits_reading.wait()
        for _, pane in self._real_panes():
            pane.shutdown()

    def save_state(self) -> None:
        """Remember geometry, the current pane and every pane's own state."""
        self._settings.set("geometry", self.saveGeometry())
        key = self.current_pane_key()
        if key:
            self._settings.set("pane", key)
        for _, pane in self._real_panes():
            pane.save_state()
        self._settings.sync()
