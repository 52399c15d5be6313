"""The Practice pane (跟打): type a lesson through wubitok's engine, see it scored and kept.

A thin view over :class:`wubitok.ime.practice.PracticeRun`: the keys go to the
run with their times, the lesson is drawn with what was typed right and wrong
(errors marked as they happen), the next character's code and split show on
F1 or after a pause, and a finished run's figures go to the history in the
user's database, which the chart below plots across sessions.  Characters
missed lately are woven into the next lesson (spaced review).
"""
from __future__ import annotations

import html
import time
from typing import Iterator

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ...errors import WubitokError
from ...ime import UserFrequencies
from ...ime.practice import HINT, PracticeRun, Score, with_review
from ...ime.practice_history import SessionRecord, review_chars, save_session, sessions
from ...ime.practice_lessons import CUSTOM, LESSONS, lesson_text
from ...wubi.query import verified_split
from ..support import errors, theme
from ..support.fonts import han_font, monospace_font
from ..widgets.split_row import SplitRow
from .base import Pane
from .ime_pad.editor import _NAMED as ENGINE_KEYS  # the pad's Qt key -> engine key names

HINT_AFTER_MS = 4000  # a pause this long on one character shows its code and split
WINDOW = 24  # lesson characters drawn around the one to type
OWN_TEXT_MAX_CHARS = 2_000  # characters of a text of your own to practise


class PracticeInput(QFrame):
    """Takes the keys of a practice run (F1 asks for a hint) and shows the code being typed."""

    key_pressed = Signal(str)
    hint_asked = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled, False)  # our engine is the IME here
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setMinimumHeight(44)
        self.label = QLabel()
        self.label.setFont(han_font(14))
        layout = QHBoxLayout(self)
        layout.addWidget(self.label)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().paintEvent(event)
        if self.hasFocus():  # the typing place, marked as a focused text box is
            p = QPainter(self)
            p.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), 2))
            p.drawRect(self.rect().adjusted(1, 1, -1, -1))
            p.end()

    def focusInEvent(self, event) -> None:  # noqa: N802
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event) -> None:  # noqa: N802
        super().focusOutEvent(event)
        self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        if event.key() == Qt.Key.Key_F1:
            self.hint_asked.emit()
            return
        mods = event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier & ~Qt.KeyboardModifier.KeypadModifier
        name = ENGINE_KEYS.get(Qt.Key(event.key()))
        text = event.text()
        if name is None and len(text) == 1 and text.isprintable() and not text.isspace():
            name = text
        if mods or name is None or event.key() == Qt.Key.Key_Tab:
            super().keyPressEvent(event)  # Tab, Ctrl+...: the window's (keyboard-only use)
            return
        self.key_pressed.emit(name)


class HistoryChart(QWidget):
    """Speed (characters per minute) of each past session, oldest on the left."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._records: list[SessionRecord] = []
        self.empty_text = ""  # what the chart says before the first session (the pane translates it)
        self.setMinimumHeight(110)

    def set_records(self, records: list[SessionRecord]) -> None:
        self._records = records
        self.update()

    def speeds(self) -> list[float]:
        return [r.score.speed for r in self._records]

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        text = pal.color(QPalette.ColorRole.WindowText)
        box = QRectF(36, 8, max(10, self.width() - 44), max(10, self.height() - 26))
        p.setPen(QPen(pal.color(QPalette.ColorRole.Mid), 1))
        p.drawRect(box)
        speeds = self.speeds()
        top = max([10.0, *speeds]) * 1.1
        p.setPen(text)
        p.drawText(QRectF(0, box.top() - 4, 34, 16), Qt.AlignmentFlag.AlignRight, f"{top:.0f}")
        p.drawText(QRectF(0, box.bottom() - 12, 34, 16), Qt.AlignmentFlag.AlignRight, "0")
        if not speeds:  # an empty frame alone looks broken to a learner who has not finished a lesson yet
            p.drawText(box, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text)
        else:
            step = box.width() / max(1, len(speeds) - 1)
            points = [QPointF(box.left() + i * step if len(speeds) > 1 else box.center().x(),
                              box.bottom() - s / top * box.height()) for i, s in enumerate(speeds)]
            p.setPen(QPen(pal.color(QPalette.ColorRole.Highlight), 2))
            for a, b in zip(points, points[1:]):
                p.drawLine(a, b)
            for pt in points:
                p.drawEllipse(pt, 3, 3)
        p.end()


class PracticePane(Pane):
    """Lesson chooser, the lesson as typed, the input, the hint, the score and the history."""

    def __init__(self, parent=None, *, in_steps: bool = False):
        super().__init__(parent)
        self._run: PracticeRun | None = None
        self._start = 0.0
        self._lesson = LESSONS[0]
        self._hinted_at = -1  # the lesson place whose hint is shown (counted once)
        self._hint_timer = QTimer(self)
        self._hint_timer.setSingleShot(True)
        self._hint_timer.setInterval(HINT_AFTER_MS)
        self.build(self._parts(), in_steps)

    def _parts(self) -> Iterator[None]:
        self._build_controls()
        yield
        self._build_views()
        self._build_layout()
        yield  # the first lesson (every split read) and the history on a turn of their own: 60 ms with the rest
        self._connect()
        self.set_main_input(self.input)
        self.retranslate_ui()
        self.restart()

    def _build_controls(self) -> None:
        self.lesson_box = QComboBox()
        for lesson in (*LESSONS, CUSTOM):
            self.lesson_box.addItem("", lesson)
        self.custom_text = QLineEdit()
        # Half an hour of typing for a learner; at Qt's own limit, 32,767, a pasted megabyte froze the
        # window 130 ms laying out one line (bench_gui_stalls, practice_paste_1m).
        self.custom_text.setMaxLength(OWN_TEXT_MAX_CHARS)
        self.custom_text.setFont(han_font(12))
        self.custom_text.setVisible(False)
        self.restart_button = QPushButton()
        self.hint_button = QPushButton()

    def _build_views(self) -> None:
        self.lesson_view = QLabel()
        self.lesson_view.setFont(han_font(22))
        self.lesson_view.setWordWrap(True)
        self.lesson_view.setTextFormat(Qt.TextFormat.RichText)
        self.input = PracticeInput()
        self.hint_label = QLabel()
        self.hint_label.setFont(monospace_font(13))
        self.split_row = SplitRow(size=16)
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        self.result_label.setFont(han_font(12))
        self.history_title = QLabel()
        theme.make_heading(self.history_title)
        self.chart = HistoryChart()

    def _build_layout(self) -> None:
        layout = self.scrolling_layout()
        layout.setContentsMargins(16, 12, 16, 12)
        top = QHBoxLayout()
        top.addWidget(self.lesson_box, 1)
        top.addWidget(self.restart_button)
        top.addWidget(self.hint_button)
        layout.addLayout(top)
        layout.addWidget(self.custom_text)
        layout.addWidget(self.lesson_view)
        layout.addWidget(self.input)
        hint = QHBoxLayout()
        hint.addWidget(self.hint_label)
        hint.addWidget(self.split_row, 1)
        layout.addLayout(hint)
        layout.addWidget(self.result_label)
        layout.addWidget(self.history_title)
        layout.addWidget(self.chart)
        layout.addStretch(1)

    def _connect(self) -> None:
        self.lesson_box.currentIndexChanged.connect(self._lesson_chosen)
        self.custom_text.returnPressed.connect(self.restart)
        self.restart_button.clicked.connect(self.restart)
        self.hint_button.clicked.connect(self.show_hint)
        self.input.key_pressed.connect(self.press)
        self.input.hint_asked.connect(self.show_hint)
        self._hint_timer.timeout.connect(self.show_hint)

    # -- a run ----------------------------------------------------------------
    def run(self) -> PracticeRun | None:
        return self._run

    def set_sample_text(self, text: str) -> None:
        """Practise ``text`` (a pasted or opened text is a lesson of its own)."""
        self.lesson_box.setCurrentIndex(self.lesson_box.findData(CUSTOM))
        self.custom_text.setText(text)
        self.restart()

    def open_file(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        from ...fileio import read_text
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a text to practise"), "",
                                              self.tr("Text files (*.txt);;All files (*)"))
        if path:
            with errors.reported(self):
                self.set_sample_text(read_text(path))

    def _lesson_chosen(self, _index: int) -> None:
        self._lesson = self.lesson_box.currentData()
        self.custom_text.setVisible(self._lesson == CUSTOM)
        if self._lesson != CUSTOM:
            self.restart()

    def _lesson_text(self) -> str:
        if self._lesson == CUSTOM:
            return "".join(self.custom_text.text().split())
        return lesson_text(self._lesson)

    def restart(self) -> None:
        """A fresh run of the chosen lesson, with the characters missed lately woven in."""
        self._hint_timer.stop()
        self._hinted_at = -1
        text = self._lesson_text()
        self._run = None
        if text:
            review = self._with_db(review_chars) or []
            try:
                self._run = PracticeRun(with_review(text, review) if self._lesson != CUSTOM else text)
            except WubitokError as exc:
                errors.show_error(self, exc)
        self._start = 0.0
        self.result_label.setText("")
        self._show()
        self._show_history()

    def press(self, key: str) -> None:
        run = self._run
        if run is None or run.done:
            return
        now = time.monotonic()
        if not run.events:
            self._start = now
        with errors.reported(self):
            run.press(key, now - self._start)
        self._hint_timer.start()
        self._show()
        if run.done:
            self._finish()

    def show_hint(self) -> None:
        """The next character's code and split; asking counts it as missed, once."""
        run = self._run
        if run is None or run.done:
            return
        at = len(run.typed)
        if at != self._hinted_at:
            self._hinted_at = at
            run.press(HINT, (time.monotonic() - self._start) if run.events else 0.0)
        self._show()

    def _finish(self) -> None:
        self._hint_timer.stop()
        assert self._run is not None
        score = self._run.score()
        self.result_label.setText(self._score_text(score))
        self._with_db(lambda db: save_session(db, self._lesson, score), saving=True)
        self._show_history()

    def _with_db(self, use, *, saving: bool = False):
        """``use(db)`` on the user database, or None where it cannot be used: a dialog when a
        session cannot be saved; reading the history of a database that cannot be opened
        (a read-only data folder) just shows none, rather than a dialog on every lesson."""
        try:
            db = UserFrequencies()
        except WubitokError as exc:
            if saving:
                errors.show_error(self, exc)
            return None
        try:
            return use(db)
        except WubitokError as exc:
            if saving:
                errors.show_error(self, exc)
            return None
        finally:
            db.close()

    # -- showing --------------------------------------------------------------
    def _show(self) -> None:
        run = self._run
        if run is None:
            self.lesson_view.setText(self.tr("Choose a lesson, or paste a text to practise."))
            self.input.label.setText("")
            return
        self.lesson_view.setText(self._lesson_html(run))
        self.lesson_view.setAccessibleName(self.tr("Lesson: {done} of {all} typed, next {char}")
                                           .replace("{done}", str(len(run.typed))).replace("{all}", str(len(run.text)))
                                           .replace("{char}", run.next_char or "—"))
        state = run.engine.state
        cands = "  ".join(f"{i + 1}.{c.text}" for i, c in enumerate(state.candidates[:5]))
        self.input.label.setText(f"{state.preedit}  {cands}".strip() or self.tr("Type here (F1: hint)"))
        self.input.setAccessibleName(self.tr("Practice input: {keys}").replace("{keys}", state.preedit or "—"))
        hinted = self._hinted_at == len(run.typed) and not run.done
        char = run.next_char
        split = verified_split(char) if hinted and char else None
        code = run.engine.dictionary.full_code(char) if hinted and char else None
        self.hint_label.setText(f"{char} {code}" if code else "")
        self.split_row.set_split(char if hinted else "", split)
        self.split_row.setVisible(hinted)

    def _lesson_html(self, run: PracticeRun) -> str:
        ok = theme.readable("#1a7f37", self.palette().color(QPalette.ColorRole.Window)).name()
        bad = theme.readable("#cf222e", self.palette().color(QPalette.ColorRole.Window)).name()
        muted = theme.muted_colour(self)
        at = len(run.typed)
        start = max(0, at - WINDOW // 3)
        out = []
        for i in range(start, min(len(run.text), start + WINDOW)):
            ch = html.escape(run.text[i])
            if i < at:  # typed: right in green, wrong (what was typed, underlined) in red
                typed = html.escape(run.typed[i])
                out.append(f"<span style='color:{ok}'>{typed}</span>" if run.typed[i] == run.text[i]
                           else f"<u style='color:{bad}'>{typed}</u>")
            elif i == at:
                out.append(f"<span style='background:{self.palette().color(QPalette.ColorRole.Highlight).name()};"
                           f"color:{self.palette().color(QPalette.ColorRole.HighlightedText).name()}'>{ch}</span>")
            else:
                out.append(f"<span style='color:{muted}'>{ch}</span>" if i > at + 8 else ch)
        return "".join(out)

    def _score_text(self, s: Score) -> str:
        missed = " ".join(f"{ch}×{n}" for ch, n in s.missed[:10])
        text = (self.tr("{speed} chars/min · 击键 {kps} keys/s · 码长 {kpc} · accuracy {acc}%")
                .replace("{speed}", f"{s.speed:.1f}").replace("{kps}", f"{s.keys_per_second:.2f}")
                .replace("{kpc}", f"{s.keys_per_char:.2f}").replace("{acc}", f"{100 * s.accuracy:.1f}"))
        if missed:
            text += "\n" + self.tr("Missed most: {chars}").replace("{chars}", missed)
        return text

    def _show_history(self) -> None:
        records = self._with_db(sessions) or []
        self.chart.set_records(records)
        if records:
            last = records[-1].score
            self.chart.setAccessibleName(self.tr("%n session(s); the last {speed} chars/min", "", len(records))
                                         .replace("{speed}", f"{last.speed:.1f}"))
        else:
            self.chart.empty_text = self.tr("No sessions yet: finish a lesson and your speed shows here")
            self.chart.setAccessibleName(self.chart.empty_text)

    def retranslate_ui(self) -> None:
        names = {"roots-1": self.tr("Roots: area 1 横 (G F D S A)"), "roots-2": self.tr("Roots: area 2 竖 (H J K L M)"),
                 "roots-3": self.tr("Roots: area 3 撇 (T R E W Q)"), "roots-4": self.tr("Roots: area 4 捺 (Y U I O P)"),
                 "roots-5": self.tr("Roots: area 5 折 (N B V C X)"), "short1": self.tr("一级简码: 25 characters"),
                 "short2": self.tr("二级简码: the most used"), "chars": self.tr("Most used characters"),
                 "phrases": self.tr("Most used phrases"), CUSTOM: self.tr("Your text (paste or File > Open)")}
        for i in range(self.lesson_box.count()):
            self.lesson_box.setItemText(i, names[self.lesson_box.itemData(i)])
        self.lesson_box.setAccessibleName(self.tr("Lesson"))
        self.custom_text.setPlaceholderText(self.tr("Paste a text to practise, then Enter"))
        self.custom_text.setAccessibleName(self.tr("Text to practise"))
        self.restart_button.setText(self.tr("Restart"))
        self.hint_button.setText(self.tr("Hint (F1)"))
        self.hint_button.setAccessibleName(self.tr("Show the next character's code and split"))
        self.history_title.setText(self.tr("Your speed across sessions (characters per minute)"))
        self._show()
        self._show_history()
