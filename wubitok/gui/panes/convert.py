"""Convert: Chinese ⇄ Wubi codes, live in both directions.

Whichever side the user edits is the source; the other side follows.
Conversions run in the thread pool (a long text would otherwise stall
typing), and a result that arrives after a newer edit is dropped.  The
shared-code list under the editors shows, for every code on the code side
that more than one entry shares, all of them in selector order; activating
one offers the alternatives for that character.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QComboBox, QFileDialog, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QMenu, QPlainTextEdit,
    QPushButton, QSplitter, QTextEdit, QToolButton, QVBoxLayout, QWidget,
)

from ...convert import CODE_STYLES, to_codes
from ...fileio import atomic_write_text, read_text
from ...query import CodePiece, decode_code_text, is_code_text
from .. import errors
from ..fonts import drawable, han_font, monospace_font
from ..settings import Settings
from ..workers import Job

DEBOUNCE_MS = 120
SEPARATORS = (" ", "", "/", "|", "'", "\t")
# Highlights and list rows beyond these are not drawn: a whole book of
# codes would otherwise make every repaint slow.
MAX_MARKS = 3000
MAX_LIST = 500
CHINESE, CODES = "chinese", "codes"


def _utf16_len(text: str) -> int:
    # QTextCursor positions count UTF-16 units; astral characters take two.
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True)
class Conversion:
    """A finished conversion: the other side's text and the code pieces."""

    generation: int
    source: str  # CHINESE or CODES: the side that was typed in
    output: str
    pieces: list[CodePiece]  # the code side read back, piece by piece


def convert(generation: int, source: str, text: str, style: str, separator: str) -> Conversion:
    """The work of one conversion (runs in a worker thread)."""
    if source == CHINESE:
        codes = to_codes(text, style=style, separator=separator)
        return Conversion(generation, source, codes, decode_code_text(codes, separator))
    pieces = decode_code_text(text, separator)
    return Conversion(generation, source, "".join(p.text for p in pieces), pieces)


class _Side(QWidget):
    """One editor with its title and file buttons."""

    def __init__(self, font, parent=None):
        super().__init__(parent)
        self.title = QLabel()
        self.title.setProperty("role", "heading")
        # Click: a file dialog; the arrow: the files opened last.
        self.open_button = QToolButton()
        self.open_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.recent_menu = QMenu(self.open_button)
        self.open_button.setMenu(self.recent_menu)
        self.save_button = QPushButton()
        self.copy_button = QPushButton()
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        for b in (self.open_button, self.save_button, self.copy_button):
            head.addWidget(b)
        self.editor = QPlainTextEdit()
        self.editor.setFont(font)
        self.editor.setTabChangesFocus(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.editor, 1)
        self.copy_button.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.editor.toPlainText()))


class ConvertPane(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._settings = Settings("convert")
        self._source = CHINESE
        self._generation = 0
        # Jobs whose results have not been handled yet (a job is done before its
        # finished signal reaches this thread; "ended" comes after the results).
        self._jobs: set[Job] = set()
        self._pieces: list[CodePiece] = []
        self._last_focus = CHINESE

        self.style_label = QLabel()
        self.style_box = QComboBox()
        for style in CODE_STYLES:
            self.style_box.addItem("", style)
        style = self._settings.get_str("style", "full")
        self.style_box.setCurrentIndex(CODE_STYLES.index(style) if style in CODE_STYLES else 0)
        self.sep_label = QLabel()
        self.sep_box = QComboBox()
        for sep in SEPARATORS:
            self.sep_box.addItem("", sep)
        sep = self._settings.get_str("separator", " ")
        self.sep_box.setCurrentIndex(SEPARATORS.index(sep) if sep in SEPARATORS else 0)
        self.stats = QLabel()
        options = QHBoxLayout()
        options.addWidget(self.style_label)
        options.addWidget(self.style_box)
        options.addSpacing(16)
        options.addWidget(self.sep_label)
        options.addWidget(self.sep_box)
        options.addStretch(1)
        options.addWidget(self.stats)

        self.chinese = _Side(han_font(15))
        self.codes = _Side(monospace_font(13))
        self.chinese.editor.textChanged.connect(lambda: self._edited(CHINESE))
        self.codes.editor.textChanged.connect(lambda: self._edited(CODES))
        for side, name in ((self.chinese, CHINESE), (self.codes, CODES)):
            side.open_button.clicked.connect(lambda _=False, n=name: self.open_file(n))
            side.recent_menu.aboutToShow.connect(lambda n=name: self._fill_recent(n))
            side.save_button.clicked.connect(lambda _=False, n=name: self.save_file(n))
            side.editor.installEventFilter(self)
        self.editors = QSplitter(Qt.Orientation.Horizontal)
        self.editors.addWidget(self.chinese)
        self.editors.addWidget(self.codes)
        self.editors.setChildrenCollapsible(False)

        self.shared_title = QLabel()
        self.shared_title.setProperty("role", "heading")
        self.shared_list = QListWidget()
        self.shared_list.setFont(han_font(13))
        self.shared_list.setAlternatingRowColors(True)
        self.shared_list.itemActivated.connect(self._offer_alternatives)
        shared = QWidget()
        shared_layout = QVBoxLayout(shared)
        shared_layout.setContentsMargins(0, 6, 0, 0)
        shared_layout.addWidget(self.shared_title)
        shared_layout.addWidget(self.shared_list, 1)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.editors)
        self.splitter.addWidget(shared)
        self.splitter.setChildrenCollapsible(False)
        for splitter, key, sizes in ((self.editors, "editors", [520, 520]), (self.splitter, "split", [470, 230])):
            state = self._settings.get_bytes(key)
            if state is not None:
                splitter.restoreState(state)
            else:
                splitter.setSizes(sizes)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 10)
        layout.setSpacing(8)
        layout.addLayout(options)
        layout.addWidget(self.splitter, 1)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._start_conversion)
        self.style_box.currentIndexChanged.connect(lambda _: self._options_changed())
        self.sep_box.currentIndexChanged.connect(lambda _: self._options_changed())
        self.setFocusProxy(self.chinese.editor)
        self.retranslate_ui()

    # -- protocol --------------------------------------------------------------
    def set_sample_text(self, text: str) -> None:
        """Chinese goes to the left, codes (letters and punctuation, no Han) to the right."""
        side = self.codes if is_code_text(text) else self.chinese
        side.editor.setPlainText(text)
        self.convert_now()

    def is_ready(self) -> bool:
        return not self._timer.isActive() and not self._jobs

    def retranslate_ui(self) -> None:
        self.style_label.setText(self.tr("Codes:"))
        self.style_box.setItemText(0, self.tr("Full codes"))
        self.style_box.setItemText(1, self.tr("Shortest codes"))
        self.style_box.setToolTip(self.tr("Shortest: the shortest code that types the character as first candidate"))
        self.sep_label.setText(self.tr("Separator:"))
        names = {" ": self.tr("Space"), "": self.tr("None"), "\t": self.tr("Tab")}
        for i, sep in enumerate(SEPARATORS):
            self.sep_box.setItemText(i, names.get(sep, sep))
        self.sep_box.setToolTip(self.tr("Between the codes of adjacent characters; codes must be "
                                        "separated to convert them back"))
        self.chinese.title.setText(self.tr("Chinese"))
        self.codes.title.setText(self.tr("Wubi codes"))
        for side in (self.chinese, self.codes):
            side.open_button.setText(self.tr("Open…"))
            side.save_button.setText(self.tr("Save…"))
            side.copy_button.setText(self.tr("Copy"))
        self.chinese.editor.setPlaceholderText(self.tr("Type or paste Chinese text: 你好，世界"))
        self.codes.editor.setPlaceholderText(self.tr("…or type Wubi codes: wqiy vbg"))
        self.shared_title.setText(self.tr("Shared codes — double-click to choose another character"))
        self._show_pieces()

    def save_state(self) -> None:
        self._settings.set("style", self.style_box.currentData())
        self._settings.set("separator", self.sep_box.currentData())
        self._settings.set("editors", self.editors.saveState())
        self._settings.set("split", self.splitter.saveState())

    def shutdown(self) -> None:
        for job in list(self._jobs):
            job.wait(5)

    def _start_job(self, fn, *args, on_finished) -> Job:
        # Connect before starting: a quick job may end before start() returns.
        job = Job(fn, *args, pass_progress=False, pass_cancel=False)
        self._jobs.add(job)
        job.finished.connect(on_finished)
        job.failed.connect(lambda _msg: errors.show_error(self, job.error))
        job.ended.connect(lambda: self._jobs.discard(job))
        return job.start()

    def open_file(self, side: str | None = None) -> None:
        side = side or self._focused_side()
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a UTF-8 text file"), self._settings.last_dir(),
                                              self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.load_file(path, side)

    def save_file(self, side: str | None = None) -> None:
        side = side or self._focused_side()
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save as UTF-8 text"), self._settings.last_dir(),
                                              self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.save_to(path, side)

    # -- files -----------------------------------------------------------------
    def editor(self, side: str) -> QPlainTextEdit:
        return self.editor_side(side).editor

    def load_file(self, path: str | Path, side: str = CHINESE) -> Job:
        """Read ``path`` in the background into one side; a bad file shows a dialog."""
        def loaded(text: str) -> None:
            self._settings.remember_file(path)
            self.editor(side).setPlainText(text)
            self.convert_now()

        return self._start_job(read_text, str(path), on_finished=loaded)

    def _fill_recent(self, side: str) -> None:
        menu = self.editor_side(side).recent_menu
        menu.clear()
        recent = self._settings.recent_files()
        for path in recent:
            action = menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self.load_file(p, side))
        if not recent:
            menu.addAction(self.tr("No recent files")).setEnabled(False)

    def editor_side(self, side: str) -> _Side:
        return self.chinese if side == CHINESE else self.codes

    def save_to(self, path: str | Path, side: str) -> bool:
        """Write one side atomically; True if it was saved."""
        with errors.reported(self):
            atomic_write_text(path, self.editor(side).toPlainText())
            self._settings.remember_file(path)
            return True
        return False

    def _focused_side(self) -> str:
        return self._last_focus

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt API)
        if event.type() == event.Type.FocusIn:
            self._last_focus = CODES if obj is self.codes.editor else CHINESE
        return super().eventFilter(obj, event)

    # -- converting ------------------------------------------------------------
    def _edited(self, side: str) -> None:
        self._source = side
        self._generation += 1
        self._timer.start()

    def _options_changed(self) -> None:
        self._generation += 1
        self.convert_now()

    def convert_now(self) -> None:
        self._timer.stop()
        self._start_conversion()

    def _start_conversion(self) -> None:
        text = self.editor(self._source).toPlainText()
        self._start_job(convert, self._generation, self._source, text, self.style_box.currentData(),
                        self.sep_box.currentData(), on_finished=self._apply)

    def _apply(self, result: Conversion) -> None:
        if result.generation != self._generation:
            return  # the user typed again since; a newer conversion is coming
        target = self.editor(CODES if result.source == CHINESE else CHINESE)
        if target.toPlainText() != result.output:
            # An undoable edit, not setPlainText: text the user had typed on
            # this side is one Ctrl+Z away.
            cursor = QTextCursor(target.document())
            cursor.select(QTextCursor.SelectionType.Document)
            target.blockSignals(True)
            cursor.insertText(result.output)
            target.blockSignals(False)
        self._pieces = result.pieces
        self._show_pieces()

    # -- shared codes ----------------------------------------------------------
    def pieces(self) -> list[CodePiece]:
        return list(self._pieces)

    def _show_pieces(self) -> None:
        coded = [p for p in self._pieces if p.code is not None]
        shared = [i for i, p in enumerate(self._pieces) if len(p.alternatives) > 1]
        unknown = [p for p in coded if not p.known]
        self.stats.setText(
            self.tr("{codes} codes · {shared} shared · {unknown} unknown")
            .replace("{codes}", str(len(coded))).replace("{shared}", str(len(shared)))
            .replace("{unknown}", str(len(unknown))))
        self.shared_list.clear()
        for i in shared[:MAX_LIST]:
            piece = self._pieces[i]
            alts = "   ".join(f"{n}\u2009{drawable(c.text)}" for n, c in enumerate(piece.alternatives, 1))
            item = QListWidgetItem(f"{piece.code}    {alts}")
            item.setData(Qt.ItemDataRole.UserRole, i)
            self.shared_list.addItem(item)
        self._highlight()

    def _highlight(self) -> None:
        """Mark shared codes (and the characters they became) and unknown codes."""
        shared_fmt = QTextCharFormat()
        shared_fmt.setBackground(QColor(255, 196, 0, 70))
        unknown_fmt = QTextCharFormat()
        unknown_fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        unknown_fmt.setUnderlineColor(QColor("#d03030"))
        code_marks, chinese_marks = [], []
        code_pos = chinese_pos = 0
        chinese_is_output = self._source == CODES
        for piece in self._pieces:
            src_len, out_len = _utf16_len(piece.source), _utf16_len(piece.text)
            if piece.code is not None and len(code_marks) < MAX_MARKS:
                if not piece.known:
                    code_marks.append(self._selection(self.codes.editor, code_pos, src_len, unknown_fmt))
                elif len(piece.alternatives) > 1:
                    code_marks.append(self._selection(self.codes.editor, code_pos, src_len, shared_fmt))
                    if chinese_is_output:
                        chinese_marks.append(self._selection(self.chinese.editor, chinese_pos, out_len, shared_fmt))
            code_pos += src_len
            chinese_pos += out_len
        self.codes.editor.setExtraSelections(code_marks)
        self.chinese.editor.setExtraSelections(chinese_marks)

    @staticmethod
    def _selection(editor: QPlainTextEdit, start: int, length: int, fmt: QTextCharFormat):
        sel = QTextEdit.ExtraSelection()
        cursor = QTextCursor(editor.document())
        cursor.setPosition(min(start, editor.document().characterCount() - 1))
        cursor.setPosition(min(start + length, editor.document().characterCount() - 1),
                           QTextCursor.MoveMode.KeepAnchor)
        sel.cursor = cursor
        sel.format = fmt
        return sel

    def _piece_span(self, index: int, *, output: bool) -> tuple[int, int]:
        start = sum(_utf16_len(p.text if output else p.source) for p in self._pieces[:index])
        piece = self._pieces[index]
        return start, _utf16_len(piece.text if output else piece.source)

    def _offer_alternatives(self, item: QListWidgetItem) -> None:
        index = item.data(Qt.ItemDataRole.UserRole)
        start, length = self._piece_span(index, output=False)
        cursor = self.codes.editor.textCursor()
        cursor.setPosition(start)
        cursor.setPosition(start + length, QTextCursor.MoveMode.KeepAnchor)
        self.codes.editor.setTextCursor(cursor)
        if self._source != CODES:
            return  # the Chinese side is what the user wrote; nothing to choose
        menu = QMenu(self)
        for n, cand in enumerate(self._pieces[index].alternatives):
            action = menu.addAction(f"{n + 1}  {drawable(cand.text)}")
            action.triggered.connect(lambda _=False, i=index, k=n: self.choose_alternative(i, k))
        rect = self.shared_list.visualItemRect(item)
        menu.popup(self.shared_list.viewport().mapToGlobal(rect.bottomLeft() + QPoint(24, 0)))

    def choose_alternative(self, piece_index: int, alternative: int) -> None:
        """Put another entry of a shared code into the Chinese text (codes are the source)."""
        piece = self._pieces[piece_index]
        new = piece.alternatives[alternative].text
        start, length = self._piece_span(piece_index, output=True)
        self._pieces[piece_index] = CodePiece(piece.source, new, piece.code, piece.alternatives)
        editor = self.chinese.editor
        cursor = QTextCursor(editor.document())
        cursor.setPosition(start)
        cursor.setPosition(start + length, QTextCursor.MoveMode.KeepAnchor)
        editor.blockSignals(True)
        cursor.insertText(new)
        editor.blockSignals(False)
        self._highlight()
