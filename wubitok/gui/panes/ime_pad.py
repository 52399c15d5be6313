"""Type Wubi: a text pad whose keys go through the input engine (:mod:`wubitok.ime`).

The editor hands each key press to the engine and shows what comes back the
way a system input method does: a ``QInputMethodEvent`` puts the typed code
inline at the cursor as underlined pre-edit text and inserts committed text
into the document (so undo, selection and copy behave as usual).  The
candidate bar floats under the cursor; the last committed entry and its keys
on a Wubi keyboard are shown below as a learning aid.  The platform's own
input method is switched off for this editor, so keys reach the engine.

The Options menu holds the typist's settings (:class:`~wubitok.ime.ImeOptions`),
read from and written to the one settings store that ``wubitok type`` and the IBus
engine use; a change is saved at once, that setting only.  The user's own entries:
"Add phrase" (the editor's context menu on a selection, or the Options menu), and
on a candidate, a context menu to forget or pin it; Ctrl+Delete forgets the first
candidate of the page (the one Space commits), as in the IBus engine.
"""
from __future__ import annotations

import dataclasses
import html
from pathlib import Path
from typing import Iterator

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QActionGroup, QGuiApplication, QInputMethodEvent, QKeyEvent, QPalette, QTextCharFormat
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
)

from ...errors import WubitokError
from ...fileio import atomic_write_text
from ...ime import ImeCandidate, ImeEngine, ImeOptions, ImeState, load_options, parse_keys
from ...ime.options import EMPTY_CODE_RULES, OUTPUTS, missing_part, settings_path
from ...wubi.convert import spelled_code
from ...wubi.dictionary import CHARSETS
from ..support import errors, theme
from ..support.fonts import drawable, han_font, monospace_font
from ..support.settings import Settings
from ..support.typing_settings import shared_typing_settings
from ..support.workers import Job, run_job
from ..widgets.keyboard import WubiKeyboard
from ..widgets.phrase_dialog import PhraseDialog
from .base import Pane

# After the pane's first show, the index starts loading this much later (see showEvent).
PRELOAD_DELAY_MS = 100
_NAMED = {
    Qt.Key.Key_Space: "space", Qt.Key.Key_Return: "enter", Qt.Key.Key_Enter: "enter",
    Qt.Key.Key_Backspace: "backspace", Qt.Key.Key_Escape: "escape",
    Qt.Key.Key_PageUp: "pageup", Qt.Key.Key_PageDown: "pagedown",
}
# Keys that would move the cursor away from the pre-edit text: swallowed while composing.
_NAVIGATION = {
    Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Home, Qt.Key.Key_End,
    Qt.Key.Key_Tab, Qt.Key.Key_Delete,
}


class CandidateBar(QFrame):
    """The current page of candidates: number, text and key hint; click to choose."""

    chosen = Signal(int)
    page = Signal(str)  # "pageup" / "pagedown"
    menu_requested = Signal(int, QPoint)  # a right click on candidate i, at a global position

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("candidateBar")
        theme.use_style_sheet(self)  # resources/style/wubitok.qss: a rounded, tinted box
        self.label = QLabel()
        self.label.setFont(han_font(15))
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.linkActivated.connect(self._link)
        self.label.linkHovered.connect(self._hover)
        self._hovered: int | None = None  # the candidate under the mouse: a right click's target
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 10, 4)
        layout.addWidget(self.label)
        self._texts: list[str] = []

    def texts(self) -> list[str]:
        """The candidate texts shown, in order."""
        return list(self._texts)

    def show_state(self, state: ImeState) -> None:
        self._texts = [c.text for c in state.candidates]
        # Candidates are links (clickable) but should read as text.
        text_color = self.palette().color(QPalette.ColorRole.Text).name()
        muted = theme.muted_colour(self, QPalette.ColorRole.AlternateBase)  # the bar's tint (wubitok.qss)
        parts = []
        for i, cand in enumerate(state.candidates):
            hint = (f"&nbsp;<span style='color:{muted}; font-size:10pt'>{html.escape(cand.hint)}</span>"
                    if cand.hint else "")
            parts.append(f"<a href='{i}' style='text-decoration:none; color:{text_color}'>"
                         f"<span style='color:{muted}'>{i + 1}</span>&nbsp;"
                         f"{html.escape(drawable(cand.text))}</a>{hint}")
        if not parts:
            none = self.tr("no candidates")
            parts.append(f"<span style='color:{muted}'>{html.escape(none)}</span>")
        if state.page_count > 1:
            prev = "<a href='pageup' style='text-decoration:none'>◀</a>" if state.page > 0 else "◁"
            nxt = "<a href='pagedown' style='text-decoration:none'>▶</a>" \
                if state.page + 1 < state.page_count else "▷"
            parts.append(f"<span style='font-size:10pt'>{prev} {state.page + 1}/{state.page_count} {nxt}</span>")
        self.label.setText("&nbsp;&nbsp;&nbsp;".join(parts))
        self.adjustSize()

    def _link(self, link: str) -> None:
        if link in ("pageup", "pagedown"):
            self.page.emit(link)
        else:
            self.chosen.emit(int(link))

    def _hover(self, link: str) -> None:
        self._hovered = int(link) if link.isdigit() else None

    def contextMenuEvent(self, event) -> None:  # noqa: N802 (Qt API)
        if self._hovered is not None and self._hovered < len(self._texts):
            self.menu_requested.emit(self._hovered, event.globalPos())
        event.accept()


class ImeEditor(QPlainTextEdit):
    """A plain text editor whose keys go through an :class:`ImeEngine`."""

    state_changed = Signal(object)  # ImeState after each key
    alerted = Signal()  # a key met a code with no candidates under the "keep it and beep" rule
    add_phrase_requested = Signal(str)  # the selected text, from the context menu

    def __init__(self, engine: ImeEngine, parent=None):
        super().__init__(parent)
        self.engine = engine
        # Our engine is the input method here; a system IME would fight it for the keys.
        self.setAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled, False)
        self._shift_alone = False
        # Qt draws the placeholder under the pre-edit text of an empty document: while a code
        # is typed there is no placeholder (see _show).
        self._placeholder = ""
        self.candidate_bar = CandidateBar(self.viewport())
        self.candidate_bar.hide()
        self.candidate_bar.chosen.connect(self._choose)
        self.candidate_bar.page.connect(self.feed_key)
        self.cursorPositionChanged.connect(self._place_bar)
        self.verticalScrollBar().valueChanged.connect(lambda _: self._place_bar())

    # -- keys --------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        key = event.key()
        if key == Qt.Key.Key_Shift:
            self._shift_alone = not event.isAutoRepeat()
            return
        self._shift_alone = False
        mods = event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier & ~Qt.KeyboardModifier.KeypadModifier
        if mods:  # Ctrl+C, Ctrl+Z...: the editor's, but never in the middle of a code
            if self.engine.composing:
                if key == Qt.Key.Key_Delete and mods == Qt.KeyboardModifier.ControlModifier:
                    self.forget(0)
                return
            super().keyPressEvent(event)
            return
        name = _NAMED.get(key)
        text = event.text()
        if name is None and len(text) == 1 and text.isprintable():
            name = text
        if name is None:
            if not (self.engine.composing and key in _NAVIGATION):
                super().keyPressEvent(event)
            return
        if not self.feed_key(name):
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Shift and self._shift_alone and not event.isAutoRepeat():
            self._shift_alone = False
            self.feed_key("shift")
            return
        super().keyReleaseEvent(event)

    def feed_key(self, key: str) -> bool:
        """Give one key (a character or a named key) to the engine; False if the editor should handle it."""
        result = self.engine.process(key)
        self._show(result.committed)
        return result.handled or bool(result.committed)

    def refresh(self) -> None:
        """Show the engine's state again (after its options changed)."""
        self._show("")

    def forget(self, index: int) -> None:
        """Forget what was learned about candidate ``index`` of the page (the table's entry stays)."""
        if index < len(self.engine.state.candidates):
            with errors.reported(self):
                self.engine.forget(index)
        self.refresh()

    def setPlaceholderText(self, text: str) -> None:  # noqa: N802 (Qt API)
        self._placeholder = text
        super().setPlaceholderText("" if self.engine.composing else text)

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        self.cancel_composition()
        menu = self.createStandardContextMenu(event.pos())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        selected = self.textCursor().selectedText().strip()
        menu.addSeparator()
        action = menu.addAction(self.add_phrase_label(selected))
        action.triggered.connect(lambda: self.add_phrase_requested.emit(selected))
        menu.popup(event.globalPos())

    def add_phrase_label(self, selected: str) -> str:
        if not selected:
            return self.tr("Add a phrase…")
        shown = selected if len(selected) <= 12 else selected[:12] + "…"
        return self.tr("Add “{text}” as a phrase…").replace("{text}", shown)

    def _choose(self, index: int) -> None:
        self._show(self.engine.select(index))
        self.setFocus()

    def _show(self, committed: str) -> None:
        state = self.engine.state
        attrs = []
        if state.preedit:
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
            fmt.setFontUnderline(True)
            attrs.append(QInputMethodEvent.Attribute(QInputMethodEvent.AttributeType.TextFormat,
                                                     0, len(state.preedit), fmt))
            attrs.append(QInputMethodEvent.Attribute(QInputMethodEvent.AttributeType.Cursor,
                                                     len(state.preedit), 1))
        event = QInputMethodEvent(state.preedit, attrs)
        event.setCommitString(committed)
        if state.composing == bool(self.placeholderText()):
            QPlainTextEdit.setPlaceholderText(self, "" if state.composing else self._placeholder)
        self.inputMethodEvent(event)
        if state.alert:
            QApplication.beep()
            self.alerted.emit()
        self.candidate_bar.setVisible(state.composing)
        if state.composing:
            self.candidate_bar.show_state(state)
            self._place_bar()
        self.state_changed.emit(state)

    def _place_bar(self) -> None:
        if not self.engine.composing:
            return
        rect = self.cursorRect()
        bar = self.candidate_bar
        bar.adjustSize()
        vp = self.viewport().rect()
        x = min(rect.left(), max(0, vp.width() - bar.width()))
        y = rect.bottom() + 6
        if y + bar.height() > vp.height() and rect.top() - bar.height() - 6 >= 0:
            y = rect.top() - bar.height() - 6  # no room below: above the line, never over it
        bar.move(QPoint(x, y))
        bar.raise_()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._place_bar()

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        # The cursor rectangle is only right once the editor is laid out.
        QTimer.singleShot(0, self._place_bar)

    # -- leaving the composition ---------------------------------------------
    def cancel_composition(self) -> None:
        """Drop a code being typed (the cursor is about to move elsewhere)."""
        if self.engine.composing:
            self.engine.process("escape")
            self._show("")

    def mousePressEvent(self, event) -> None:  # noqa: N802
        self.cancel_composition()
        super().mousePressEvent(event)


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
        self.engine = self._make_engine()
        self._build_toolbar()
        yield
        self._build_editor()
        yield
        self._build_learning_aid()
        self._build_layout()
        yield
        self._connect()
        self.set_main_input(self.editor)
        self.retranslate_ui()
        self._state_changed(self.engine.state)

    def _load_options(self) -> ImeOptions:
        """The saved settings (the store ``wubitok type`` and the IBus engine share).  Before that
        store existed the pad kept three settings of its own: they are taken over once."""
        try:
            if not settings_path().exists():
                old = {name: self._settings.get_bool(name, True) for name in ("learning", "auto_commit")
                       if self._settings.contains(name)}
                if self._settings.get_str("charset", "") in CHARSETS:
                    old["charset"] = self._settings.get_str("charset")
                return dataclasses.replace(ImeOptions(), **old)
            return load_options()
        except WubitokError as exc:  # a broken settings file: the defaults, and say why
            problem = exc
            QTimer.singleShot(0, lambda: errors.show_error(self, problem))
            return ImeOptions()

    def _make_engine(self) -> ImeEngine:
        options = self._load_options().to_dict()
        try:
            engine = ImeEngine(**options)
        except WubitokError as exc:  # the user database cannot be opened: type without learning
            options["learning"] = False
            # ``exc`` is unbound once the except block ends: keep the error itself.
            problem = exc
            QTimer.singleShot(0, lambda: errors.show_error(self, problem))
            return ImeEngine(**options)
        notices = engine.take_notices()  # a saved setting that cannot be in force here: said once
        if notices:
            QTimer.singleShot(0, lambda: errors.show_error(self, "\n".join(notices),
                                                           title=self.tr("A setting is not available")))
        db = engine.user_db
        if db is not None and db.moved_aside is not None:
            aside, damage = str(db.moved_aside), db.damage
            QTimer.singleShot(0, lambda: errors.show_error(self, self.tr(
                "Your user database was damaged ({damage}). It is kept as {aside}; "
                "learning starts afresh with a new one.").replace("{damage}", damage).replace("{aside}", aside),
                title=self.tr("User database replaced")))
        return engine

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
        menu = QMenu(self.options_button)
        self.options_button.setMenu(menu)
        # Every setting's action carries (option name, value) as its data.
        self._option_actions: list = []
        self.page_menu = menu.addMenu("")
        self._radio_items(self.page_menu, "page_size", range(1, 10))
        self.auto_action = self._switch(menu, "auto_commit")
        self.top_action = self._switch(menu, "top_commit")
        self.empty_menu = menu.addMenu("")
        self._radio_items(self.empty_menu, "empty_code", EMPTY_CODE_RULES)
        self.learning_action = self._switch(menu, "learning")
        menu.addSeparator()
        self.charset_group = self._radio_items(menu, "charset", CHARSETS)
        self.simplified_action = self._switch(menu, "simplified_first")
        self.output_menu = menu.addMenu("")
        self.output_menu.setToolTipsVisible(True)
        self._radio_items(self.output_menu, "output", OUTPUTS)
        menu.addSeparator()
        self.add_phrase_action = menu.addAction("")
        self.reset_action = menu.addAction("")
        self._show_options()

    def _switch(self, menu: QMenu, name: str):
        action = menu.addAction("")
        action.setCheckable(True)
        action.setData((name, True))
        self._option_actions.append(action)
        return action

    def _radio_items(self, menu: QMenu, name: str, values) -> QActionGroup:
        group = QActionGroup(self)
        for value in values:
            action = menu.addAction("")
            action.setCheckable(True)
            action.setData((name, value))
            group.addAction(action)
            self._option_actions.append(action)
        return group

    def option_action(self, name: str, value: object = True):
        """The Options menu's action for setting ``name`` to ``value`` (a switch: its one action)."""
        return next(a for a in self._option_actions if a.data() == (name, value)
                    or (a.data() == (name, True) and isinstance(value, bool)))

    def _show_options(self) -> None:
        """Check the actions of the options in force."""
        options = self.engine.options
        for action in self._option_actions:
            name, value = action.data()
            action.blockSignals(True)
            action.setChecked(getattr(options, name) == value)
            action.blockSignals(False)

    def _build_editor(self) -> None:
        self.editor = ImeEditor(self.engine)
        self.editor.setFont(han_font(17))
        self.editor.setMinimumHeight(140)  # room for a line and the candidate bar under it
        self.copy_button = QPushButton()
        self.save_button = QPushButton()
        self.clear_button = QPushButton()
        self.count_label = QLabel()
        self.status_label = QLabel()  # what the last own-entry action did

    def _build_learning_aid(self) -> None:
        self.last_title = QLabel()
        theme.make_heading(self.last_title)
        self.last_label = QLabel()
        self.last_label.setFont(han_font(22))
        self.last_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.last_code = QLabel()
        self.last_code.setFont(monospace_font(18))
        self.help_label = QLabel()
        self.help_label.setWordWrap(True)
        self.keyboard = WubiKeyboard()
        self.keyboard.setMaximumWidth(560)

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

        aid_text = QVBoxLayout()
        aid_text.addWidget(self.last_title)
        row = QHBoxLayout()
        row.addWidget(self.last_label)
        row.addSpacing(12)
        row.addWidget(self.last_code)
        row.addStretch(1)
        aid_text.addLayout(row)
        aid_text.addWidget(self.help_label, 1)
        aid = QHBoxLayout()
        aid.addLayout(aid_text, 1)
        aid.addWidget(self.keyboard, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 10)
        layout.setSpacing(8)
        layout.addLayout(top)
        layout.addWidget(self.editor, 1)
        layout.addLayout(bottom)
        layout.addLayout(aid)

    def _connect(self) -> None:
        self.mode_button.clicked.connect(lambda: self._toggle("shift"))
        self.width_button.clicked.connect(lambda: self._toggle("fullwidth"))
        self.punctuation_button.clicked.connect(lambda: self._toggle("punctuation"))
        for action in self._option_actions:
            name, value = action.data()
            if isinstance(value, bool):
                action.toggled.connect(lambda on, n=name: self._configure(**{n: on}))
            else:
                action.triggered.connect(lambda _=False, n=name, v=value: self._configure(**{n: v}))
        self.add_phrase_action.triggered.connect(
            lambda: self.open_phrase_dialog(self.editor.textCursor().selectedText().strip()))
        self.editor.add_phrase_requested.connect(self.open_phrase_dialog)
        self.editor.candidate_bar.menu_requested.connect(
            lambda i, pos: self.candidate_menu(i).popup(pos))
        self.reset_action.triggered.connect(self._reset_learning)
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
                    QPlainTextEdit.keyPressEvent(self.editor, _key_event(key))
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
        return not self._preload_timer.isActive() and (self._preload is None or not self._preload.is_running())

    def retranslate_ui(self) -> None:
        self.options_button.setText(self.tr("Options"))
        self.page_menu.setTitle(self.tr("Candidates per page"))
        self.auto_action.setText(self.tr("Commit a 4-key code with a single candidate at once"))
        self.top_action.setText(self.tr("A 5th key commits the first candidate (顶字)"))
        self.empty_menu.setTitle(self.tr("A code with no candidates, on Space"))
        self.learning_action.setText(self.tr("Learn my choices (most used first)"))
        self.simplified_action.setText(self.tr("Simplified characters first"))
        self.output_menu.setTitle(self.tr("Output script"))
        labels = {
            ("empty_code", "clear"): self.tr("Clear it"),
            ("empty_code", "keep"): self.tr("Keep it"),
            ("empty_code", "beep"): self.tr("Keep it and beep"),
            ("charset", "all"): self.tr("All characters (incl. CJK Ext B)"),
            ("charset", "gbk"): self.tr("GBK (simplified and traditional)"),
            ("charset", "gb2312"): self.tr("Simplified only (GB2312)"),
            ("output", "unchanged"): self.tr("As typed"),
            ("output", "simplified"): self.tr("Simplified"),
            ("output", "traditional"): self.tr("Traditional"),
            ("output", "tw"): self.tr("Traditional (Taiwan)"),
            ("output", "hk"): self.tr("Traditional (Hong Kong)"),
        }
        for action in self._option_actions:
            name, value = action.data()
            if name == "page_size":
                action.setText(str(value))
            elif (name, value) in labels:
                action.setText(labels[(name, value)])
            # A choice whose part is not installed: greyed, saying what it needs.
            needs = missing_part(name, value)
            action.setEnabled(needs is None)
            if needs is not None:
                action.setText(self.tr("{choice} (needs {part})").replace("{choice}", action.text())
                               .replace("{part}", needs.split(":")[0]))
                action.setToolTip(self.tr("Needs {what}").replace("{what}", needs))
        self.add_phrase_action.setText(self.tr("Add a phrase…"))
        self.reset_action.setText(self.tr("Forget learned order…"))
        self.copy_button.setText(self.tr("Copy all"))
        self.save_button.setText(self.tr("Save…"))
        self.clear_button.setText(self.tr("Clear"))
        self.last_title.setText(self.tr("Last entry and its code"))
        self.help_label.setText(self.tr(
            "Type Wubi codes: space takes the first candidate, 1–9 pick one, - and = turn pages. "
            "Start with z to look up by pinyin (zni). Shift switches Chinese/English. "
            "Right-click a candidate to forget or pin it; Ctrl+Delete forgets the first one."))
        self.editor.setPlaceholderText(self.tr("Type here with Wubi-86: wqiy vb␣ → 你好"))
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
        self._show_options()
        self.editor.refresh()
        self.editor.setFocus()

    def _settings_changed(self, changes: dict) -> None:
        """Follow a setting another pane changed (Lookup's charset)."""
        if any(getattr(self.engine.options, name, value) != value for name, value in changes.items()):
            with errors.reported(self):
                self.engine.configure(**changes)
            self._show_options()
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
        last = state.last_commit
        if state.composing:
            self.keyboard.set_code(keyboard_code(state))
        else:
            self.keyboard.set_code(last.code if last else None)
        if last is None:
            self.last_label.setText("—")
            self.last_code.setText("")
        else:
            self.last_label.setText(last.text)
            self.last_code.setText(last_entry_code(last))


def keyboard_code(state: ImeState) -> str | None:
    """The code the keyboard diagram shows while a code is typed: the keys typed, or where they
    are not a code (a pinyin lookup, zni; a wildcard z) the code of the first candidate."""
    if not state.pinyin and "z" not in state.preedit:
        return state.preedit
    first = state.candidates[0] if state.candidates else None
    return first.code or None if first is not None else None


def last_entry_code(entry: ImeCandidate) -> str:
    """The keys that type ``entry`` again, its selector included (``ggtt2``), as Convert writes them;
    a user phrase's place depends on the typist's choices, so it has none."""
    if not entry.code or entry.user or entry.kind == "symbol":
        return entry.code
    return spelled_code(entry.code, entry.text)


def _key_event(key: str) -> QKeyEvent:
    """The key press an editor would get for an engine key it did not take."""
    qt_key = {v: k for k, v in _NAMED.items()}.get(key)
    if qt_key is not None:
        text = {"space": " ", "enter": "\r", "backspace": "\b", "escape": "\x1b"}.get(key, "")
        return QKeyEvent(QEvent.Type.KeyPress, qt_key, Qt.KeyboardModifier.NoModifier, text)
    return QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, key)
