"""Convert: Chinese ⇄ Wubi codes, live in both directions.

Whichever side the user edits is the source; the other side follows.
Conversions run in the thread pool (a long text would otherwise stall
typing), and a result that arrives after a newer edit is dropped.  The
shared-code list under the editors shows, once for every code on the code side
that more than one entry shares, how often it occurs and all its entries in
selector order; activating it offers the alternatives for its next occurrence,
and picking one changes both sides (the code gets the selector of the entry
picked: ``ggtt2`` for 来来往往).
"""
from __future__ import annotations

import bisect
import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPlainTextEdit,
    QSizePolicy,
    QSplitter,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...fileio import SaveFormat, TextFile, atomic_write_text, encoding_label, read_text_file
from ...text.builder import Slices, same_text, text_parts
from ...wubi.convert import CODE_STYLES
from ...wubi.query import CodePiece, code_text_pieces, decode_code_text, is_code_text
from ..support import errors, theme
from ..support.document_text import DocumentText
from ..support.fonts import drawable, han_font, monospace_font
from ..support.latest_job import LatestJob
from ..support.release import release_later
from ..support.settings import Settings
from ..support.text_pieces import document_pieces
from ..support.workers import Job
from ..widgets.encoding_box import EncodingBox
from ..widgets.long_paste_edit import LONG_PASTE_CHARS, LongPasteEdit
from .base import Pane

DEBOUNCE_MS = 120
SEPARATORS = (" ", "", "/", "|", "'", "\t")
# Shared-code rows beyond this are not listed: nobody scrolls through more,
# and filling the list would stall the GUI thread.
MAX_LIST = 200
# Highlights are made only for the visible part of an editor, plus this many
# characters around it (a QTextCursor per mark is slow for a whole book).
HIGHLIGHT_MARGIN = 300
CHINESE, CODES = "chinese", "codes"
NEXT_ROLE = Qt.ItemDataRole.UserRole + 1  # a shared-code row: which occurrence activating it goes to


def _utf16_len(text: str) -> int:
    # QTextCursor positions count UTF-16 units; astral characters take two.
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True)
class Mark:
    """Where one shared or unknown code is, in both editors (UTF-16 positions)."""

    piece: int
    code_start: int
    code_len: int
    chinese_start: int  # meaningful when the Chinese side is the conversion
    chinese_len: int
    unknown: bool


@dataclass(frozen=True)
class Conversion:
    """A finished conversion: the other side's text, the code pieces and what to mark."""

    source: str  # CHINESE or CODES: the side that was typed in
    # The other side's text in parts (text.builder): made one string in the thread, at 10 MB its first
    # touch of 20-40 MB held the GIL 94-126 ms.
    output: list[str]
    pieces: list[CodePiece]  # the code side read back, piece by piece
    marks: list[Mark]  # every shared or unknown code, in text order
    counts: tuple[int, int, int]  # codes, shared codes, unknown codes
    # Made here, not on the GUI thread (on a megabyte, 150-200 ms there): each shared code
    # (the first MAX_LIST) with the pieces that have it, and where the marks start on each side.
    shared: list[tuple[str, list[int]]]
    code_starts: list[int]
    chinese_starts: list[int]
    # The output's length in UTF-16 units, as a document counts it (the pieces add it up: encoding
    # 19 million characters to count them held the GIL 27 ms).
    output_units: int


def _marks(pieces: list[CodePiece]) -> tuple[list[Mark], tuple[int, int, int], tuple[int, int]]:
    """Every shared or unknown code; the counts of codes, shared and unknown ones; the lengths of the
    code side and of the Chinese side in UTF-16 units."""
    marks: list[Mark] = []
    n_codes = n_shared = n_unknown = 0
    code_pos = chinese_pos = 0
    for i, piece in enumerate(pieces):
        src_len, out_len = _utf16_len(piece.source), _utf16_len(piece.text)
        if piece.code is not None:
            n_codes += 1
            unknown = not piece.known
            shared = len(piece.alternatives) > 1
            n_unknown += unknown
            n_shared += shared
            if unknown or shared:
                marks.append(Mark(i, code_pos, src_len, chinese_pos, out_len, unknown))
        code_pos += src_len
        chinese_pos += out_len
    return marks, (n_codes, n_shared, n_unknown), (code_pos, chinese_pos)


def convert(source: str, text: str | Slices, style: str, separator: str) -> Conversion:
    """The work of one conversion, all of it in a worker thread (a book takes seconds).  ``text`` is
    a string or its slices (an editor's text: :meth:`_Side.slices`)."""
    if source == CHINESE:
        # Without a separator adjacent codes run together: plain codes, for reading.
        pieces = code_text_pieces(text, style=style, separator=separator, plain=not separator)
        output = text_parts(p.source for p in pieces)
    else:
        pieces = decode_code_text(text, separator)
        output = text_parts(p.text for p in pieces)
    marks, counts, (code_units, chinese_units) = _marks(pieces)
    return Conversion(source, output, pieces, marks, counts, _shared_codes(pieces, marks),
                      [m.code_start for m in marks], [m.chinese_start for m in marks],
                      code_units if source == CHINESE else chinese_units)


def _shared_codes(pieces: list[CodePiece], marks: list[Mark]) -> list[tuple[str, list[int]]]:
    """One row per code, however often the text has it (a poem repeats its characters)."""
    occurrences: dict[str, list[int]] = {}
    for mark in marks:
        if not mark.unknown:
            occurrences.setdefault(pieces[mark.piece].code or "", []).append(mark.piece)
    return list(occurrences.items())[:MAX_LIST]


class _Side(QWidget):
    """One editor with its title, encoding and file buttons."""

    def __init__(self, font, parent=None):
        super().__init__(parent)
        self.title = QLabel()
        theme.make_heading(self.title)
        # The encoding the side's file came in and is saved in.
        self.encoding_box = EncodingBox()
        self.path: str | None = None  # the file this side was read from or saved to
        self.save_format = SaveFormat()
        self.text_of_file: str | None = None  # the editor's text when the file was read or saved
        # Click: a file dialog; the arrow: the files opened last.
        self.open_button = QToolButton()
        self.open_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.recent_menu = QMenu(self.open_button)
        self.open_button.setMenu(self.recent_menu)
        # Tool buttons: a push button is at least 80 px wide, and both sides'
        # buttons side by side must fit an 800-pixel window.
        self.save_button = QToolButton()
        self.copy_button = QToolButton()
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        for b in (self.open_button, self.save_button, self.copy_button):
            head.addWidget(b)
        self.editor = LongPasteEdit()
        self.editor.setFont(font)
        self.editor.setTabChangesFocus(False)
        # The editor's text, kept in step edit by edit: toPlainText copies the whole document
        # (100-200 ms at 10 MB) and turns no-break spaces into spaces.
        self.document_text = DocumentText(self.editor.document(), self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        # Below the editor, as in a text editor's status bar: the file's name and encoding.
        self.file_label = QLabel()
        self.file_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.encoding_label = QLabel()
        self.encoding_label.setBuddy(self.encoding_box)
        foot = QHBoxLayout()
        foot.addWidget(self.file_label, 1)
        foot.addWidget(self.encoding_label)
        foot.addWidget(self.encoding_box)
        layout.addLayout(head)
        layout.addWidget(self.editor, 1)
        layout.addLayout(foot)
        self.copy_button.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.text()))

    def text(self) -> str:
        """The editor's text, exactly as typed, pasted or read (line breaks as ``\\n``)."""
        return self.document_text.text()

    def slices(self) -> Slices:
        """The same text as slices of strings, not put together (at 10 MB, 72-122 ms for a key)."""
        return self.document_text.slices()

    def set_text(self, text: str) -> None:
        """``setPlainText``, without reading a long text back out of the document."""
        self.document_text.expect(text)
        self.editor.setPlainText(text)

    def set_file(self, path: str, text: str) -> None:
        """The editor now holds ``text``, which is what the file ``path`` holds."""
        self.path, self.text_of_file = path, text
        self.file_label.setText(Path(path).name)
        self.file_label.setToolTip(path)

    def unchanged(self) -> bool:
        """Whether the editor still holds exactly what its file holds."""
        return self.path is not None and self.text() == self.text_of_file


class ConvertPane(Pane):
    def __init__(self, parent=None, *, in_steps: bool = False):
        super().__init__(parent)
        self._settings = Settings("convert")
        self._source = CHINESE
        self._conversion = LatestJob(self, debounce_ms=DEBOUNCE_MS, start=self.convert_now)
        self._loading = LatestJob(self)
        self._pieces: list[CodePiece] = []
        self._marks: list[Mark] = []
        self._shared: list[tuple[str, list[int]]] = []
        self._code_starts: list[int] = []
        self._chinese_starts: list[int] = []
        self._counts = (0, 0, 0)
        self._last_focus = CHINESE
        # Scrolling or resizing shows other text: highlight it once things settle.
        self._rehighlight = QTimer(self)
        self._rehighlight.setSingleShot(True)
        self._rehighlight.setInterval(30)
        self.build(self._parts(), in_steps)

    def _parts(self) -> Iterator[None]:
        self._build_options()
        yield
        self._build_editors()
        yield
        self._build_shared_list()
        self._build_layout()
        yield
        self._connect()
        self.set_main_input(self.chinese.editor)
        self.retranslate_ui()

    def _build_options(self) -> None:
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

    def _build_editors(self) -> None:
        self.chinese = _Side(han_font(15))
        self.codes = _Side(monospace_font(13))
        self.editors = QSplitter(Qt.Orientation.Horizontal)
        self.editors.addWidget(self.chinese)
        self.editors.addWidget(self.codes)
        self.editors.setChildrenCollapsible(False)

    def _build_shared_list(self) -> None:
        self.shared_title = QLabel()
        theme.make_heading(self.shared_title)
        self.shared_list = QListWidget()
        self.shared_list.setFont(han_font(13))
        self.shared_list.setAlternatingRowColors(True)

    def _build_layout(self) -> None:
        options = QHBoxLayout()
        options.addWidget(self.style_label)
        options.addWidget(self.style_box)
        options.addSpacing(16)
        options.addWidget(self.sep_label)
        options.addWidget(self.sep_box)
        options.addStretch(1)
        options.addWidget(self.stats)

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

    def _connect(self) -> None:
        self.chinese.editor.textChanged.connect(lambda: self._edited(CHINESE))
        self.codes.editor.textChanged.connect(lambda: self._edited(CODES))
        for side, name in ((self.chinese, CHINESE), (self.codes, CODES)):
            side.open_button.clicked.connect(lambda _=False, n=name: self.open_file(n))
            side.recent_menu.aboutToShow.connect(lambda n=name: self._fill_recent(n))
            side.save_button.clicked.connect(lambda _=False, n=name: self.save_file(n))
            side.encoding_box.chosen.connect(lambda encoding, n=name: self.reopen_file(n, encoding))
            side.editor.installEventFilter(self)
            side.editor.verticalScrollBar().valueChanged.connect(lambda _: self._rehighlight.start())
            side.editor.verticalScrollBar().rangeChanged.connect(lambda *_: self._rehighlight.start())
        self.shared_list.itemActivated.connect(self._offer_alternatives)
        self._rehighlight.timeout.connect(self._highlight)
        self.style_box.currentIndexChanged.connect(lambda _: self._options_changed())
        self.sep_box.currentIndexChanged.connect(lambda _: self._options_changed())

    # -- protocol --------------------------------------------------------------
    def set_sample_text(self, text: str) -> None:
        """Chinese goes to the left, codes (letters and punctuation, no Han) to the right."""
        side = self.codes if is_code_text(text) else self.chinese
        side.set_text(text)
        self.convert_now()

    def is_ready(self) -> bool:
        return not (self.chinese.editor.is_pasting() or self.codes.editor.is_pasting() or self._rehighlight.isActive()
                    or self._conversion.pending() or self._loading.pending())

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
            side.encoding_box.setToolTip(self.tr(
                "The encoding of this side's file, and the one it is saved in. Choosing another reads "
                "the file again in it, unless the text was changed: then only saving uses it."))
            side.encoding_box.setAccessibleName(self.tr("Encoding"))
            side.encoding_label.setText(self.tr("Encoding:"))
        self.chinese.editor.setPlaceholderText(self.tr("Type or paste Chinese text: 你好，世界"))
        self.codes.editor.setPlaceholderText(self.tr("…or type Wubi codes: wqiy vbg"))
        self.shared_title.setText(self.tr("Shared codes — double-click to choose another character"))
        self.style_label.setBuddy(self.style_box)
        self.sep_label.setBuddy(self.sep_box)
        self.chinese.editor.setAccessibleName(self.tr("Chinese"))
        self.codes.editor.setAccessibleName(self.tr("Wubi codes"))
        self.shared_list.setAccessibleName(self.tr("Shared codes"))
        self._show_pieces()

    def save_state(self) -> None:
        self._settings.set("style", self.style_box.currentData())
        self._settings.set("separator", self.sep_box.currentData())
        self._settings.set("editors", self.editors.saveState())
        self._settings.set("split", self.splitter.saveState())

    def shutdown(self) -> None:
        self._conversion.shutdown()
        self._loading.shutdown()

    def open_file(self, side: str | None = None) -> None:
        side = side or self._focused_side()
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a text file"), self._settings.last_dir(),
                                              self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.load_file(path, side)

    def save_file(self, side: str | None = None) -> None:
        side = side or self._focused_side()
        encoding = encoding_label(self.editor_side(side).encoding_box.encoding())
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save as {} text").format(encoding),
                                              self._settings.last_dir(), self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.save_to(path, side)

    # -- files -----------------------------------------------------------------
    def editor(self, side: str) -> QPlainTextEdit:
        return self.editor_side(side).editor

    def drop_files(self, paths: list[Path]) -> None:
        """A dropped file is read into the side it reads as (codes or Chinese)."""
        self.load_file(paths[0], self._focused_side())

    def load_file(self, path: str | Path, side: str = CHINESE, encoding: str | None = None) -> Job:
        """Read ``path`` in the background into one side, in ``encoding`` or the one
        detected; a bad file shows a dialog.  The other side, unless it has a file of
        its own, is saved the way this file came (encoding, line ending, BOM)."""
        here = self.editor_side(side)

        def loaded(file: TextFile) -> None:
            self._settings.remember_file(path)
            here.set_text(file.text)
            here.set_file(str(path), here.text())
            for s in (here, self.editor_side(CODES if side == CHINESE else CHINESE)):
                if s is here or s.path is None:
                    s.save_format = SaveFormat.of(file)
                    s.encoding_box.show_encoding(file.encoding)
            self.convert_now()

        def failed(error: BaseException | str) -> None:
            here.encoding_box.show_encoding(here.save_format.encoding)  # what the text is in
            errors.show_error(self, error)

        return self._loading.run(read_text_file, str(path), encoding, on_result=loaded, on_failed=failed,
                                 cancellable=False, name="read")

    def reopen_file(self, side: str, encoding: str) -> Job | None:
        """The user chose ``encoding`` for one side: its file is read again in it
        while the text is the file's; else the text will be saved in it."""
        here = self.editor_side(side)
        if here.path is None or not here.unchanged():
            return None
        return self.load_file(here.path, side, encoding)

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
        """Write one side atomically in its encoding (with the line ending and BOM
        its file came with); True if it was saved.  Text the encoding cannot hold
        is a dialog, and the file on disk stays as it was."""
        here = self.editor_side(side)
        encoding = here.encoding_box.encoding()
        text = here.text()
        written = here.save_format.apply(text, encoding)
        with errors.reported(self):
            atomic_write_text(path, written, encoding)
            self._settings.remember_file(path)
            here.set_file(str(path), text)
            here.save_format = SaveFormat(here.save_format.newline, written.startswith("\ufeff"), encoding)
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
        self._conversion.schedule()

    def _options_changed(self) -> None:
        self.convert_now()

    def convert_now(self) -> None:
        text = self.editor_side(self._source).slices()
        self._conversion.run(convert, self._source, text, self.style_box.currentData(), self.sep_box.currentData(),
                             on_result=self._apply, cancellable=False, name="convert")

    def _apply(self, result: Conversion) -> None:
        target_side = self.editor_side(CODES if result.source == CHINESE else CHINESE)
        target = target_side.editor
        if target.is_pasting():  # the result before this one, still going in
            target.cut_short()
            target.blockSignals(False)
        # The lengths first, then the side's slices, block by block: its text, asked for, would be put
        # together from the pieces of the last result (at 10 MB, 19 million characters of codes: 85-136 ms).
        if (target.document().characterCount() - 1 != result.output_units
                or not same_text(target_side.slices(), result.output)):
            # An undoable edit, not setPlainText: text the user had typed on
            # this side is one Ctrl+Z away.  Its signals are off: this is no edit to convert.
            cursor = QTextCursor(target.document())
            cursor.select(QTextCursor.SelectionType.Document)
            target.blockSignals(True)
            if sum(map(len, result.output)) < LONG_PASTE_CHARS:
                cursor.insertText("".join(result.output))
                target.blockSignals(False)
            else:  # a megabyte at once froze the window 150 ms: in pieces, the marks once it is in
                target.insert_long(cursor, document_pieces(result.output),
                                   lambda: (target.blockSignals(False), self._show(result)))
                return
        self._show(result)

    def _show(self, result: Conversion) -> None:
        if result.pieces is not self._pieces:  # the last result's lists: freed here, at 10 MB, half a second
            release_later(self, self._pieces, self._marks, self._code_starts, self._chinese_starts,
                          *(where for _, where in self._shared))
        self._pieces = result.pieces
        self._marks = result.marks
        self._shared, self._code_starts, self._chinese_starts = result.shared, result.code_starts, result.chinese_starts
        self._counts = result.counts
        self._show_pieces()

    # -- shared codes ----------------------------------------------------------
    def pieces(self) -> list[CodePiece]:
        return list(self._pieces)

    def _show_pieces(self) -> None:
        n_codes, n_shared, n_unknown = self._counts
        self.stats.setText(" · ".join((self.tr("%Ln code(s)", "", n_codes), self.tr("%Ln shared", "", n_shared),
                                       self.tr("%Ln unknown", "", n_unknown))))
        self.shared_list.clear()
        for row, (code, where) in enumerate(self._shared):
            piece = self._pieces[where[0]]
            alts = "   ".join(f"{n}\u2009{drawable(c.text)}" for n, c in enumerate(piece.alternatives, 1))
            item = QListWidgetItem(f"{code}  ×{len(where)}    {alts}")
            # The row's place in _shared, not its occurrences: Qt copies a list into a QVariant, and the
            # codes of a 10 MB text occur a million times (half a second on the GUI thread).
            item.setData(Qt.ItemDataRole.UserRole, row)
            item.setData(NEXT_ROLE, 0)
            item.setToolTip(self.tr("%n time(s) in the text; double-click to choose for the next one", "",
                                    len(where)))
            self.shared_list.addItem(item)
        # On a turn of its own: with the list, one turn took 45-60 ms on a megabyte.
        self._rehighlight.start()

    def _highlight(self) -> None:
        """Mark shared codes (and the characters they became) and unknown codes, where visible."""
        shared_fmt = QTextCharFormat()
        shared_fmt.setBackground(QColor(255, 196, 0, 70))
        unknown_fmt = QTextCharFormat()
        unknown_fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        unknown_fmt.setUnderlineColor(QColor("#d03030"))
        code_marks, chinese_marks = [], []
        editor = self.codes.editor
        for m in self._visible_marks(editor, self._code_starts):
            fmt = unknown_fmt if m.unknown else shared_fmt
            code_marks.append(self._selection(editor, m.code_start, m.code_len, fmt))
        if self._source == CODES:
            editor = self.chinese.editor
            for m in self._visible_marks(editor, self._chinese_starts):
                if not m.unknown:
                    chinese_marks.append(self._selection(editor, m.chinese_start, m.chinese_len, shared_fmt))
        self.codes.editor.setExtraSelections(code_marks)
        self.chinese.editor.setExtraSelections(chinese_marks)

    def _visible_marks(self, editor: QPlainTextEdit, starts: list[int]) -> list[Mark]:
        rect = editor.viewport().rect()
        first = editor.cursorForPosition(rect.topLeft()).position() - HIGHLIGHT_MARGIN
        last = editor.cursorForPosition(rect.bottomRight()).position() + HIGHLIGHT_MARGIN
        return self._marks[bisect.bisect_left(starts, first):bisect.bisect_right(starts, last)]

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

    def _mark(self, piece_index: int) -> Mark:
        return next(m for m in self._marks if m.piece == piece_index)

    def _offer_alternatives(self, item: QListWidgetItem) -> None:
        # Each activation goes on to the code's next occurrence in the text.
        where, turn = self._shared[item.data(Qt.ItemDataRole.UserRole)][1], item.data(NEXT_ROLE)
        index = where[turn % len(where)]
        item.setData(NEXT_ROLE, turn + 1)
        mark = self._mark(index)
        cursor = self.codes.editor.textCursor()
        cursor.setPosition(mark.code_start)
        cursor.setPosition(mark.code_start + mark.code_len, QTextCursor.MoveMode.KeepAnchor)
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
        """Put another entry of a shared code into both sides (codes are the source): its text
        into the Chinese, its selector onto the code (``ggtt`` -> ``ggtt2``, as to_codes writes it)."""
        piece = self._pieces[piece_index]
        new = piece.alternatives[alternative].text
        keys = re.match(r"[A-Za-z]*", piece.source).group()  # the letters as typed, without a selector
        source = keys if alternative == 0 else f"{keys}{alternative + 1}"
        mark = self._mark(piece_index)
        self._pieces[piece_index] = CodePiece(source, new, piece.code, piece.alternatives,
                                              0 if alternative == 0 else alternative + 1)
        self._replace(self.chinese.editor, mark.chinese_start, mark.chinese_len, new)
        self._replace(self.codes.editor, mark.code_start, mark.code_len, source)
        # The text after this piece moved by the difference in length, on each side.
        grow = _utf16_len(new) - mark.chinese_len
        code_grow = _utf16_len(source) - mark.code_len
        self._marks = [
            m if m.piece < piece_index else
            dataclasses.replace(m, chinese_len=m.chinese_len + grow, code_len=m.code_len + code_grow)
            if m.piece == piece_index else
            dataclasses.replace(m, chinese_start=m.chinese_start + grow, code_start=m.code_start + code_grow)
            for m in self._marks
        ]
        self._code_starts = [m.code_start for m in self._marks]
        self._chinese_starts = [m.chinese_start for m in self._marks]
        self._highlight()

    @staticmethod
    def _replace(editor: QPlainTextEdit, start: int, length: int, text: str) -> None:
        """An undoable edit of ``editor`` that starts no conversion."""
        cursor = QTextCursor(editor.document())
        cursor.setPosition(start)
        cursor.setPosition(start + length, QTextCursor.MoveMode.KeepAnchor)
        editor.blockSignals(True)
        cursor.insertText(text)
        editor.blockSignals(False)
