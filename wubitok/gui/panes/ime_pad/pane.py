"""The Type Wubi pane: the pad's editor, its mode switches, Options menu and learning aid.

The Options menu holds the typist's settings (:class:`~wubitok.ime.ImeOptions`),
read from and written to the one settings store that ``wubitok type`` and the IBus
engine use; a change is saved at once, that setting only.  The user's own entries:
"Add phrase" (the editor's context menu on a selection, or the Options menu), and
on a candidate, a context menu to forget or pin it; Ctrl+Delete forgets the first
candidate of the page (the one Space commits), as in the IBus engine.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
)

from ....fileio import atomic_write_text
from ....ime import ImeState, parse_keys
from ...support import errors
from ...support.fonts import han_font
from ...support.settings import Settings
from ...support.typing_settings import shared_typing_settings
from ...support.workers import Job, run_job
from ...widgets.phrase_dialog import PhraseDialog
from ..base import Pane
from .editor import ImeEditor, key_event
from .engine_start import open_engine
from .learning_aid import LearningAid
from .options_menu import OptionsMenu

# After the pane's first show, the index starts loading this much later (see showEvent).
PRELOAD_DELAY_MS = 100


class ImePadPane(Pane):
    """The typing pad with its mode switches, options and learning aid."""

    def __init__(self, parent=None, *, in_steps: bool = False):
        super().__init__(parent)
        self._settings = Settings("ime")
        self._preload: Job | None = None  # started when the pane is first shown
        self._preload_timer = QTimer(self, singleShot=True, interval=PRELOAD_DELAY_MS)
        self._preload_timer.timeout.connect(self._start_preload)
        self.build(self._parts(), in_steps)

    def _parts(self) -> Iterator[None]:
        self.engine = open_engine(self, self._settings)
        self._build_toolbar()
        yield
        self._build_editor()
        yield
        self.aid = LearningAid()
        self._build_layout()
        yield
        self._connect()
        self.set_main_input(self.editor)
        self.retranslate_ui()
        self._state_changed(self.engine.state)

    def _build_toolbar(self) -> None:
        self.mode_button = QPushButton()
        self.width_button = QPushButton()
        self.punctuation_button = QPushButton()
        for b in (self.mode_button, self.width_button, self.punctuation_button):
            b.setFont(han_font(11))
            b.setMinimumWidth(72)
        self.options_button = QToolButton()
        self.options_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.options_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.options_button.setMinimumWidth(90)
        self.options_menu = OptionsMenu(self.options_button)
        self.options_button.setMenu(self.options_menu)
        self.options_menu.show_options(self.engine.options)

    def _build_editor(self) -> None:
        self.editor = ImeEditor(self.engine)
        self.editor.setFont(han_font(17))
        self.editor.setMinimumHeight(140)  # room for a line and the candidate bar under it
        self.copy_button = QPushButton()
        self.save_button = QPushButton()
        self.clear_button = QPushButton()
        self.count_label = QLabel()
        self.status_label = QLabel()  # what the last own-entry action did

    def _build_layout(self) -> None:
        top = QHBoxLayout()
        for w in (self.mode_button, self.width_button, self.punctuation_button):
            top.addWidget(w)
        top.addStretch(1)
        top.addWidget(self.options_button)

        bottom = QHBoxLayout()
        bottom.addWidget(self.copy_button)
        bottom.addWidget(self.save_button)
        bottom.addWidget(self.clear_button)
        bottom.addWidget(self.status_label)
        bottom.addStretch(1)
        bottom.addWidget(self.count_label)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 10)
        layout.setSpacing(8)
        layout.addLayout(top)
        layout.addWidget(self.editor, 1)
        layout.addLayout(bottom)
        layout.addWidget(self.aid)

    def _connect(self) -> None:
        self.mode_button.clicked.connect(lambda: self._toggle("shift"))
        self.width_button.clicked.connect(lambda: self._toggle("fullwidth"))
        self.punctuation_button.clicked.connect(lambda: self._toggle("punctuation"))
        self.options_menu.chosen.connect(lambda change: self._configure(**change))
        self.options_menu.add_phrase_action.triggered.connect(
            lambda: self.open_phrase_dialog(self.editor.textCursor().selectedText().strip()))
        self.editor.add_phrase_requested.connect(self.open_phrase_dialog)
        self.editor.candidate_bar.menu_requested.connect(
            lambda i, pos: self.candidate_menu(i).popup(pos))
        self.options_menu.reset_action.triggered.connect(self._reset_learning)
        self.editor.state_changed.connect(self._state_changed)
        self.editor.textChanged.connect(self._count)
        self.copy_button.clicked.connect(self.copy_all)
        self.save_button.clicked.connect(lambda: self.save_file())
        self.clear_button.clicked.connect(self._clear)
        shared_typing_settings().changed.connect(self._settings_changed)

    # -- protocol --------------------------------------------------------------
    def set_sample_text(self, text: str) -> None:
        """Type ``text`` as a key script (``wqiyvb{space}``: letters, digits, ``{space}``...).

        Nothing is learned from it: a screenshot must not reorder the user's candidates.
        """
        keys = parse_keys(text)
        learning = self.engine.options.learning
        self.engine.configure(learning=False)
        try:
            for key in keys:
                if not self.editor.feed_key(key):
                    QPlainTextEdit.keyPressEvent(self.editor, key_event(key))
        finally:
            self.engine.configure(learning=learning)
            self.editor.refresh()
        self.editor.setFocus()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        if self._preload is None:
            # The candidate index opens in the background (milliseconds; the first time for a dictionary
            # it is built, seconds of Python), so no keystroke waits for it; from the first show, not the
            # constructor: the window builds every pane after start-up, and one who never types should
            # not pay for it.  A moment after the show, so that the pane's first paint is done: a build's
            # Python takes the GIL in turns with that paint (bench_gui_stalls.py, open_ime).
            self._preload_timer.start()

    def _start_preload(self) -> None:
        if self._preload is None:
            self._preload = run_job(self.engine.preload, pass_progress=False, pass_cancel=False)

    def is_ready(self) -> bool:
        return (not self._preload_timer.isActive() and not self.editor.is_pasting()
                and (self._preload is None or not self._preload.is_running()))

    def retranslate_ui(self) -> None:
        self.options_button.setText(self.tr("Options"))
        self.options_menu.retranslate_ui()
        self.copy_button.setText(self.tr("Copy all"))
        self.save_button.setText(self.tr("Save…"))
        self.clear_button.setText(self.tr("Clear"))
        self.aid.retranslate_ui()
        self.editor.setPlaceholderText(self.tr("Type here with Wubi-86: wqiy vb␣ → 你好"))
        self.editor.setAccessibleName(self.tr("Text typed in Wubi"))
        self._state_changed(self.engine.state)
        self._count()

    def save_state(self) -> None:
        pass  # each setting is saved when it changes (_configure)

    def shutdown(self) -> None:
        self._preload_timer.stop()
        if self._preload is not None:
            self._preload.wait(10)
        self.engine.close()

    def save_file(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save as UTF-8 text"), self._settings.last_dir(),
                                              self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.save_to(path)

    # -- actions ---------------------------------------------------------------
    def save_to(self, path: str | Path) -> bool:
        with errors.reported(self):
            atomic_write_text(path, self.editor.toPlainText())
            self._settings.remember_file(path)
            return True
        return False

    def copy_all(self) -> None:
        QGuiApplication.clipboard().setText(self.editor.toPlainText())

    def _clear(self) -> None:
        self.editor.cancel_composition()
        self.editor.selectAll()
        self.editor.textCursor().removeSelectedText()  # undoable, unlike clear()
        self.engine.reset()
        self._state_changed(self.engine.state)

    def _toggle(self, key: str) -> None:
        self.editor.feed_key(key)
        self.editor.setFocus()

    def _configure(self, **changes) -> None:
        """Put ``changes`` in force and save them over the stored settings (only these: the IBus
        engine may have saved others meanwhile)."""
        with errors.reported(self):
            self.engine.configure(**changes)
            # A broken file is replaced by what is in force; Lookup hears the change (one charset for both).
            shared_typing_settings().save(self.engine.options, **changes)
        self.options_menu.show_options(self.engine.options)
        self.editor.refresh()
        self.editor.setFocus()

    def _settings_changed(self, changes: dict) -> None:
        """Follow a setting another pane changed (Lookup's charset)."""
        if any(getattr(self.engine.options, name, value) != value for name, value in changes.items()):
            with errors.reported(self):
                self.engine.configure(**changes)
            self.options_menu.show_options(self.engine.options)
            self.editor.refresh()

    # -- the user's own entries -------------------------------------------------
    def open_phrase_dialog(self, text: str = "") -> PhraseDialog:
        dialog = PhraseDialog(self.engine.dictionary, text, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.submitted.connect(lambda phrase, code: self.add_phrase(phrase, code or None) and dialog.accept())
        dialog.open()
        return dialog

    def add_phrase(self, text: str, code: str | None = None) -> bool:
        """Add ``text`` as the user's phrase (the standard code unless ``code``); an error is a dialog."""
        with errors.reported(self):
            added = self.engine.add_phrase(text, code)
            self.status_label.setText(self.tr("Added {text} as {code}").replace("{text}", text)
                                      .replace("{code}", added))
            self.editor.refresh()
            return True
        return False

    def candidate_menu(self, index: int) -> QMenu:
        """What can be done with candidate ``index`` of the page: forget it, pin it."""
        state = self.engine.state
        cand = state.candidates[index]
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        learnable = cand.kind in ("exact", "completion")
        forget = menu.addAction(self.tr("Forget my phrase “{text}”") if cand.user
                                else self.tr("Forget this choice"))
        forget.setText(forget.text().replace("{text}", cand.text))
        forget.setEnabled(learnable)
        forget.triggered.connect(lambda: self.editor.forget(index))
        pin = menu.addMenu(self.tr("Pin to position"))
        pin.setEnabled(cand.kind == "exact" and cand.code == state.preedit)
        for position in range(1, self.engine.options.page_size + 1):
            action = pin.addAction(str(position))
            action.triggered.connect(lambda _=False, p=position: self.pin(index, p - 1))
        return menu

    def pin(self, index: int, position: int) -> None:
        with errors.reported(self):
            self.engine.pin(index, position)
        self.editor.refresh()
        self.editor.setFocus()

    def _reset_learning(self) -> None:
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Forget learned order?"),
                          self.tr("Candidates will be ordered by the dictionary again. "
                                  "Your choices so far are deleted."),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.accepted.connect(self.reset_learning)
        box.open()

    def reset_learning(self) -> None:
        with errors.reported(self):
            self.engine.reset_learning()

    def _count(self) -> None:
        n = len(self.editor.toPlainText())
        self.count_label.setText(self.tr("{n} characters").replace("{n}", str(n)))

    def _state_changed(self, state: ImeState) -> None:
        self.mode_button.setText(self.tr("中 Chinese") if state.chinese else self.tr("A English"))
        self.mode_button.setToolTip(self.tr("Shift switches between Chinese and English"))
        self.width_button.setText(self.tr("Full width") if state.full_width else self.tr("Half width"))
        self.punctuation_button.setText(self.tr("，。 Chinese punctuation") if state.chinese_punctuation
                                        else self.tr(",. English punctuation"))
        self.aid.show_state(state)
