"""Tokenize: type or open a text, pick a tokenizer, see its tokens over the text.

Everything but widget updates runs in a worker (:mod:`..workers`): loading
the model, encoding, cutting the text into segments and building the text
documents.  Requests are numbered; a result that arrives after a newer
request started is dropped, so fast typing never shows stale tokens.

Typing is sent as edits: the encode worker keeps the versions of the text
(:mod:`wubitok.services.encoded_versions`), the pane sends what changed since the
version it shows and splices the tokens that changed into its result; the views
change by range (:meth:`TokenizePane._show_edit`).  The text is followed edit by
edit (:class:`~..support.document_text.DocumentText`), never read whole per key.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Iterator

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ...fileio import TextFile, read_text_file
from ...progress import check_cancel
from ...services.encode_pool import EncodePool, ModelRef, changed_tokens, encode_edit, versions_pool
from ...services.encoded_versions import EditedText, EncodedSince
from ...services.id_lines import IdLines, LinesReplaced, id_lines_after, id_lines_of
from ...services.tokenized import DISPLAY_LIMIT, EncodedRange, PackedEncoding, Spans, spans_after_edit
from ..support import errors
from ..support.document_lines import replace_lines
from ..support.document_text import DocumentText
from ..support.fonts import han_font, monospace_font
from ..support.latest_job import LatestJob
from ..support.model_catalog import EntryRole, ModelCatalog, ModelEntry, shared_catalog
from ..support.settings import Settings
from ..support.steps import Steps
from ..support.workers import Job, run_job
from ..widgets.encoding_box import EncodingBox
from ..widgets.long_paste_edit import LongPasteEdit
from ..widgets.token_table import TokenTable
from ..widgets.token_table_export import export_table
from ..widgets.token_view import (
    COLOUR_MODES,
    TokenizedText,
    TokenTextView,
    make_document,
    readable_token,
    replace_document,
)
from .base import Pane

# A file longer than this is shown in the text box only in part, read-only:
# a text widget holding megabytes is slow to fill and to edit.  Its tokens
# and counts still cover the whole file.
EDIT_LIMIT = DISPLAY_LIMIT
# Texts up to this size are remembered across sessions (nothing typed is lost).
REMEMBER_CHARS = 100_000
# An edit whose lines are longer than this (a paste) is shown as a new result: its documents are
# built in the job's thread, as a text's first are; changing the views' own documents by that
# much on the GUI thread froze the window 300 ms on a 10 MB paste (bench_gui_stalls.py).
LARGE_EDIT_CHARS = 20_000
DEBOUNCE_MS = 200

SAMPLE_TEXT = "五笔字型输入法是王永民在1983年发明的一种汉字输入法。Wubi-BPE learns merges over Wubi keys."


@dataclass
class TokenizeResult:
    data: TokenizedText
    document: QTextDocument | None  # None for an edit of the result before (``edit``)
    ids_document: QTextDocument | None
    vocab_size: int
    roundtrip: bool
    trained_by: str | None  # engines that can be trained two ways say which (WordPiece, Unigram)
    ref: ModelRef | None = None
    version: int = 0  # the version of the text the encode worker keeps (encoded_versions)
    id_shape: IdLines | None = None
    edit: TokenizeEdit | None = None  # this result as an edit of ``base``'s
    base: TokenizeResult | None = None


@dataclass
class TokenizeEdit:
    """How a result differs from the one shown before it: which tokens, which id lines."""

    where: EncodedRange
    id_changes: list[LinesReplaced]


def tokenize_text(
    catalog: ModelCatalog, entry: ModelEntry, text: str, font: QFont, id_font: QFont, *, cancel,
    base: TokenizeResult | None = None, version: int = 0, pool: EncodePool | None = None,
) -> TokenizeResult:
    """Worker body: the model's summary (cached), the encoding and its segments (from the
    encode worker that keeps the text's versions), the documents of the views; checks
    ``cancel`` between steps.  With ``base`` (the result shown) and the same model, only the
    edit since is sent, and the result is an edit of ``base`` (see ``encoded_versions``)."""
    model = catalog.summary(entry, cancel=cancel)  # display forms of tokens, vocabulary size
    ref = ModelRef.of(entry.path, entry.kind)
    # In a worker process (its GIL is not the GUI thread's), which keeps the versions.  The pane passes
    # the pool: asked for here, after the app quit, it would be a fresh one spawned during the exit.
    pool = pool or versions_pool()
    since = None
    if base is not None and base.ref == ref and base.id_shape is not None:
        edited = EditedText.between(base.data.text, text, base.version)
        # A paste's text reaches the worker through shared memory, not pickled by the feeder thread.
        edited = dataclasses.replace(edited, inserted=pool.share(edited.inserted, cancel=cancel))
        since = pool.call(encode_edit, ref, edited, version, cancel=cancel)
        if since is not None:
            check_cancel(cancel)
            where = since.where
            middle = changed_tokens(pool, ref, since, cancel=cancel)
            if where.new_end - where.start > LARGE_EDIT_CHARS:  # a paste: new documents, built here
                enc = base.data.encoding.spliced(where.first, where.stop, middle, where.char_shift)
                return _whole_result(model, text, enc, Spans.of(text, enc), since.roundtrip, font, id_font, ref,
                                     since.version)
            return _edited_result(base, model, text, since, middle)
    since = pool.call(encode_edit, ref, EditedText.whole(pool.share(text, cancel=cancel)), version, cancel=cancel)
    assert since is not None and since.spans is not None
    check_cancel(cancel)
    enc = changed_tokens(pool, ref, since, cancel=cancel)
    return _whole_result(model, text, enc, since.spans, since.roundtrip, font, id_font, ref, version)


def _whole_result(model, text: str, enc: PackedEncoding, spans: Spans, roundtrip: bool, font: QFont,
                  id_font: QFont, ref: ModelRef, version: int) -> TokenizeResult:
    """A result the views show afresh: its documents built here, in the job's thread."""
    data = TokenizedText.of_model(text, enc, spans, model)
    doc = make_document(text[: data.shown_chars], font)
    shape, lines = id_lines_of(text, enc, data.shown_chars)
    ids_doc = make_document("\n".join(lines), id_font)
    return TokenizeResult(data, doc, ids_doc, model.vocab_size, roundtrip, model.trained_by, ref, version, shape)


def _edited_result(base: TokenizeResult, model, text: str, since: EncodedSince, middle: PackedEncoding
                   ) -> TokenizeResult:
    """``base`` with the tokens ``since`` changed (``middle``) spliced in: flat buffers copied (numpy),
    the segments and id lines of the edited lines made again."""
    assert base.id_shape is not None
    where = since.where
    enc = base.data.encoding.spliced(where.first, where.stop, middle, where.char_shift)
    spans = spans_after_edit(base.data.spans, text, enc, where)
    data = TokenizedText.of_model(text, enc, spans, model)
    shape, changes = id_lines_after(base.id_shape, base.data.text, text, enc, data.shown_chars, where)
    return TokenizeResult(data, None, None, model.vocab_size, since.roundtrip, model.trained_by, base.ref,
                          since.version, shape, TokenizeEdit(where, changes), base)


def _load_text_document(path: str, font: QFont, encoding: str | None) -> tuple[TextFile, QTextDocument]:
    file = read_text_file(path, encoding)
    return file, make_document(file.text[:EDIT_LIMIT], font)


class TokenizePane(Pane):
    """Text box, tokenizer chooser, tokens as coloured spans, ids and counts."""

    ready = Signal()  # the view shows the tokens of the current text and model

    def __init__(self, parent: QWidget | None = None, *, catalog: ModelCatalog | None = None,
                 in_steps: bool = False):
        super().__init__(parent)
        self.setObjectName("tokenize")
        self.catalog = catalog or shared_catalog()
        self._settings = Settings("tokenize")
        self._tokenizing = LatestJob(self, debounce_ms=DEBOUNCE_MS, start=self.retokenize)
        self._loading = LatestJob(self)
        self._showing = Steps(self)  # a result: the token view, the table, the ids (see _show)
        self._source_text: str | None = None  # exact text of the last load, while unedited
        self._file: TextFile | None = None  # the file shown, while it is (its encoding, its length)
        self._file_path = ""
        self._result: TokenizeResult | None = None
        self._version = 0  # of the last text sent to the encode worker
        self._exporting: Job | None = None
        self._restoring = False
        self.build(self._parts(), in_steps)

    def _parts(self) -> Iterator[None]:
        # Containers first, then each widget made inside its final parent: with the
        # app's style sheet, moving a built subtree into another parent restyles all
        # of it again (as in Compare).
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        input_box = QWidget(self.splitter)
        self.tokens_box = QWidget(self.splitter)  # the tokens side by side, the legend under them
        self.tokens_splitter = QSplitter(Qt.Orientation.Horizontal, self.tokens_box)
        ids_box = QWidget(self.splitter)
        self._build_toolbar()
        self._build_editor(input_box)
        yield
        self._build_views(ids_box)
        yield
        self._build_layout(input_box, ids_box)
        self.retranslate_ui()
        yield
        self._connect()
        self.set_main_input(self.editor)
        self._restore()

    def _build_toolbar(self) -> None:
        self.model_label = QLabel(self)
        self.model_box = QComboBox(self)
        self.model_box.setModel(self.catalog)
        self.model_box.setMinimumContentsLength(8)
        self.model_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_label.setBuddy(self.model_box)
        self.open_model_button = QPushButton(self)
        self.remove_model_button = QPushButton(self)
        self.open_text_button = QPushButton(self)
        self.whitespace_box = QCheckBox(self)
        self.wubi_box = QCheckBox(self)
        self.colour_box = QComboBox(self)
        self.colour_box.addItem("", "alternate")
        self.colour_box.addItem("", "by-id")

    def _build_editor(self, input_box: QWidget) -> None:
        # Made in the order Tab visits them: the file bar is above the editor.
        self.file_bar = QWidget(input_box)
        self.file_bar.hide()
        self.file_note = QLabel(self.file_bar)
        self.file_note.setWordWrap(True)  # a long file name must not widen the window
        self.encoding_label = QLabel(self.file_bar)
        self.encoding_box = EncodingBox(self.file_bar)
        self.encoding_label.setBuddy(self.encoding_box)
        self.close_file_button = QPushButton(self.file_bar)
        self.editor = LongPasteEdit(input_box)
        self.editor.setFont(han_font(12))
        self._document_text = DocumentText(self.editor.document(), self)  # the text, kept in step edit by edit
        file_bar = QHBoxLayout(self.file_bar)
        file_bar.setContentsMargins(0, 0, 0, 0)
        file_bar.addWidget(self.file_note, 1)
        file_bar.addWidget(self.encoding_label)
        file_bar.addWidget(self.encoding_box)
        file_bar.addWidget(self.close_file_button)

    def _build_views(self, ids_box: QWidget) -> None:
        self.count_label = QLabel("0", self)
        self.count_label.setObjectName("tokenCount")
        big = QFont(self.count_label.font())
        big.setPointSizeF(big.pointSizeF() * 2.2)
        big.setBold(True)
        self.count_label.setFont(big)
        self.count_caption = QLabel(self)
        self.token_view = TokenTextView(self.tokens_splitter)
        self.token_view.setFont(han_font(15))
        self.token_table = TokenTable(self.tokens_splitter)
        self.token_table.setFont(han_font(11))
        self.legend_label = QLabel(self.tokens_box)
        self.legend_label.setWordWrap(True)  # one line at 1200 pixels; it must not widen a small window
        self.id_view = QPlainTextEdit(ids_box)
        self.id_view.setReadOnly(True)
        self.id_view.setFont(monospace_font())
        self.copy_ids_button = QPushButton(ids_box)
        self.export_button = QPushButton(ids_box)
        self.stats_label = QLabel(self)
        self.stats_label.setWordWrap(True)
        self.stats_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label = QLabel(self)
        # "Loading <a long file name>…" must not widen the window for as long as it shows (at 800x600 it grew
        # the window to 978 px, which stayed): the label takes the width it is given, the rest is cut.
        self.status_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def _build_layout(self, input_box: QWidget, ids_box: QWidget) -> None:
        top = QHBoxLayout()
        top.addWidget(self.model_label)
        top.addWidget(self.model_box, 1)
        top.addWidget(self.open_model_button)
        top.addWidget(self.remove_model_button)
        top.addWidget(self.open_text_button)

        options = QHBoxLayout()
        options.addWidget(self.count_label)
        options.addWidget(self.count_caption)
        options.addStretch(1)
        options.addWidget(self.whitespace_box)
        options.addWidget(self.wubi_box)
        options.addWidget(self.colour_box)

        input_layout = QVBoxLayout(input_box)
        input_layout.setContentsMargins(0, 0, 0, 0)
        input_layout.addWidget(self.file_bar)
        input_layout.addWidget(self.editor, 1)

        # The coloured text and the table of its tokens side by side.
        tokens = self.tokens_splitter
        tokens.addWidget(self.token_view)
        tokens.addWidget(self.token_table)
        # Half each: at 1200 pixels the table's columns fit without scrolling sideways.
        tokens.setStretchFactor(0, 1)
        tokens.setStretchFactor(1, 1)
        tokens_layout = QVBoxLayout(self.tokens_box)
        tokens_layout.setContentsMargins(0, 0, 0, 0)
        tokens_layout.setSpacing(2)
        tokens_layout.addWidget(tokens, 1)
        tokens_layout.addWidget(self.legend_label)

        ids_layout = QHBoxLayout(ids_box)
        ids_layout.setContentsMargins(0, 0, 0, 0)
        ids_layout.addWidget(self.id_view, 1)
        ids_buttons = QVBoxLayout()
        ids_buttons.addWidget(self.copy_ids_button)
        ids_buttons.addWidget(self.export_button)
        ids_buttons.addStretch(1)
        ids_layout.addLayout(ids_buttons)

        splitter = self.splitter
        splitter.addWidget(input_box)
        splitter.addWidget(self.tokens_box)
        splitter.addWidget(ids_box)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setStretchFactor(2, 1)

        bottom = QHBoxLayout()
        bottom.addWidget(self.stats_label, 1)
        bottom.addWidget(self.status_label)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(options)
        layout.addWidget(splitter, 1)
        layout.addLayout(bottom)

    def retranslate_ui(self) -> None:
        """Every visible text, in the current language; what is shown stays."""
        self.model_label.setText(self.tr("&Tokenizer:"))
        self.model_box.setToolTip(self.tr("Tokenizer: bundled models, models you trained and files you opened"))
        self.open_model_button.setText(self.tr("Open model…"))
        self.remove_model_button.setText(self.tr("Remove"))
        self.remove_model_button.setToolTip(self.tr("Take this model file off the list (the file stays)"))
        self.open_text_button.setText(self.tr("Open text…"))
        self.whitespace_box.setText(self.tr("Show whitespace"))
        self.wubi_box.setText(self.tr("Spellings"))
        self.wubi_box.setToolTip(self.tr("Show the tokenizer's own spelling of each token (Wubi keys, byte letters) "
                                         "and the Wubi codes of its Han characters in the table"))
        self.legend_label.setText(self.tr(
            "Tokens as you read them: ␣ space · ↵ line break · ⇥ tab · 民 (1 of 2): first of two tokens "
            "that spell 民 · <E6 97>: bytes of part of a character · hover a token for its spelling") + "  " + self.tr(
            "Spellings: Wubi keys as typed, · between characters (wqiy·w#2); #2 is the number that tells "
            "apart characters typed with the same keys"))
        self.colour_box.setItemText(0, self.tr("Alternate colours"))
        self.colour_box.setItemText(1, self.tr("Colour by token id"))
        self.colour_box.setAccessibleName(self.tr("Token colours"))
        self.editor.setPlaceholderText(self.tr("Type or paste text here, or open a file"))
        self.editor.setAccessibleName(self.tr("Text to tokenize"))
        self.close_file_button.setText(self.tr("Close file"))
        self.encoding_label.setText(self.tr("&Encoding:"))
        self.encoding_box.setToolTip(self.tr("The encoding the file was read in (detected); choose another "
                                             "to read the file again in it (until the text is edited)"))
        self.token_view.setAccessibleName(self.tr("Tokens over the text"))
        self.token_table.setAccessibleName(self.tr("Token table"))
        self.token_table.token_model.retranslate()
        self.id_view.setAccessibleName(self.tr("Token ids"))
        self.copy_ids_button.setText(self.tr("Copy ids"))
        self.copy_ids_button.setToolTip(self.tr("Copy all token ids as a list: [12, 345, …]"))
        self.export_button.setText(self.tr("Export table…"))
        self.export_button.setToolTip(self.tr("Save the token table as CSV or JSON (also File > Save)"))
        self._show_count()
        if self._result is not None:
            self.stats_label.setText(self._stats_text(self._result))
        if self._file is not None:
            self._show_file_note()

    def _connect(self) -> None:
        self.close_file_button.clicked.connect(lambda: self.set_sample_text(""))
        self.encoding_box.chosen.connect(self.reopen_text_file)
        self.editor.textChanged.connect(self._text_edited)
        self.model_box.currentIndexChanged.connect(self._model_changed)
        self.whitespace_box.toggled.connect(self.token_view.set_whitespace_visible)
        self.whitespace_box.toggled.connect(lambda on: self._settings.set("whitespace", on))
        self.colour_box.currentIndexChanged.connect(self._colour_changed)
        self.open_model_button.clicked.connect(self._choose_model_file)
        self.remove_model_button.clicked.connect(self.remove_current_model)
        self.open_text_button.clicked.connect(self._choose_text_file)
        self.token_view.tokenHovered.connect(self._token_hovered)
        self.token_view.tokenHovered.connect(self.token_table.highlight)
        self.token_table.tokenHovered.connect(self._token_hovered)
        self.token_table.tokenHovered.connect(self.token_view.highlight_token)
        self.wubi_box.toggled.connect(self.token_table.set_wubi_visible)
        self.wubi_box.toggled.connect(lambda on: self._settings.set("wubi", on))
        self.wubi_box.toggled.connect(lambda _: self._place_token_table())
        self.tokens_box.installEventFilter(self)
        self.copy_ids_button.clicked.connect(self.copy_ids)
        self.export_button.clicked.connect(self.save_file)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if watched is self.tokens_box and event.type() == QEvent.Type.Resize:
            self._place_token_table()
        return super().eventFilter(watched, event)

    def _place_token_table(self) -> None:
        """The table beside the coloured text when half the width holds all its columns, else under
        it: at 800x600 beside it, the Wubi, bytes and offsets columns were off to the right."""
        table = self.token_table
        columns = sum(table.columnWidth(c) for c in range(table.model().columnCount()) if not table.isColumnHidden(c))
        needed = columns + table.verticalScrollBar().sizeHint().width() + 2 * table.frameWidth()
        side_by_side = self.tokens_box.width() >= 2 * needed + self.tokens_splitter.handleWidth()
        orientation = Qt.Orientation.Horizontal if side_by_side else Qt.Orientation.Vertical
        if self.tokens_splitter.orientation() != orientation:
            self.tokens_splitter.setOrientation(orientation)

    # -- settings ------------------------------------------------------------
    def _restore(self) -> None:
        self._restoring = True
        s = self._settings
        self.whitespace_box.setChecked(s.get_bool("whitespace", False))
        self.wubi_box.setChecked(s.get_bool("wubi", True))
        self.token_table.set_wubi_visible(self.wubi_box.isChecked())
        mode = s.get_str("colours", COLOUR_MODES[0])
        self.colour_box.setCurrentIndex(max(0, self.colour_box.findData(mode)))
        entry = self.catalog.find(s.get_str("model")) if s.get_str("model") else None
        if entry is None or self.catalog.broken_reason(entry) is not None:
            entry = self._default_entry()  # a model that failed last time is not chosen again
        if entry is not None:
            self.model_box.setCurrentIndex(self.catalog.row_of(entry))
        self.editor.setPlainText(s.get_str("text", SAMPLE_TEXT) if s.contains("text") else SAMPLE_TEXT)
        self._restoring = False
        self.retokenize()

    def _default_entry(self) -> ModelEntry | None:
        entries = self.catalog.entries()
        usable = [e for e in entries if self.catalog.broken_reason(e) is None]
        for e in usable:
            if e.source == "bundled" and e.name.startswith("wubi-bpe"):
                return e
        return usable[0] if usable else None

    # -- public --------------------------------------------------------------
    def set_sample_text(self, text: str) -> None:
        """Show ``text`` (used by ``wubitok gui --screenshot --text``)."""
        self._source_text = text
        self._file = None
        self.editor.setReadOnly(False)
        self.file_bar.hide()
        self.editor.setPlainText(text)
        self.editor.document().setModified(False)
        self.retokenize()

    def text(self) -> str:
        """The text being tokenized, exactly (a loaded file keeps its \\r\\n until edited)."""
        if self._source_text is not None and not self.editor.document().isModified():
            return self._source_text
        return self._document_text.text()

    def current_entry(self) -> ModelEntry | None:
        return self.model_box.currentData(EntryRole)

    def set_model(self, key) -> None:
        """Select a model by entry, name or path."""
        entry = key if isinstance(key, ModelEntry) else self.catalog.find(key)
        if entry is None:
            raise KeyError(key)
        self.model_box.setCurrentIndex(self.catalog.row_of(entry))

    def open_model(self, path: str | Path) -> None:
        """Add a model file to the catalog and tokenize with it."""
        with errors.reported(self):
            entry = self.catalog.add_file(path)
            self.set_model(entry)

    def open_text_file(self, path: str | Path, encoding: str | None = None) -> Job:
        """Load a text file into the text box (read in the background), in
        ``encoding``, else the one the user last chose for it, else the one
        detected; the file bar shows which."""
        remembered = None if encoding is not None else self._settings.chosen_encoding(path)
        return self._read(str(path), encoding or remembered, fallback=remembered is not None)

    def reopen_text_file(self, encoding: str) -> Job | None:
        """Read the file shown again in ``encoding`` (the user's choice in the file
        bar, remembered for the file once it reads)."""
        if self._file is None or self.editor.document().isModified():
            return None  # edited: the text is the user's now, not the file's
        return self._read(self._file_path, encoding, remember=True)

    def _read(self, path: str, encoding: str | None, *, remember: bool = False, fallback: bool = False) -> Job:
        """Read ``path`` in ``encoding`` (None: detected).  ``remember``: the user's
        choice, kept for the file once it reads; ``fallback``: a remembered choice,
        which the file may no longer be in -- then it is forgotten and detection
        reads the file, without a dialog about an encoding the user did not ask for now
        (any other error is the usual dialog, and the choice is kept)."""
        self.status_label.setText(self.tr("Loading {}…").format(Path(path).name))

        def loaded(result: tuple[TextFile, QTextDocument]) -> None:
            if remember:
                self._settings.remember_encoding(path, encoding)
            self._text_loaded(path, result)

        def failed(error: BaseException | str) -> None:
            # Only "not in that encoding" is the choice's fault; a file gone or
            # unreadable is the dialog it always is, and the choice stays.
            if fallback and getattr(error, "code", None) == "file.not_encoding":
                self._settings.remember_encoding(path, None)
                self._read(path, None)
            else:
                self._load_failed(error)

        return self._loading.run(_load_text_document, path, self.editor.font(), encoding, cancellable=False,
                                 name="read", on_result=loaded, on_failed=failed)

    def file_encoding(self) -> str | None:
        """The encoding of the file shown (None for typed text)."""
        return self._file.encoding if self._file is not None else None

    def drop_files(self, paths: list[Path]) -> None:
        """A dropped model file (.json, .model, .tiktoken) is opened as a tokenizer, anything else as text."""
        path = paths[0]
        if path.suffix.lower() in (".json", ".model", ".tiktoken"):
            self.open_model(path)
        else:
            self.open_text_file(path)

    def open_file(self) -> None:
        """File > Open: a text to tokenize."""
        self._choose_text_file()

    def save_file(self) -> None:
        """File > Save: the token table, as CSV or JSON."""
        if self._result is None:
            return
        path, chosen = QFileDialog.getSaveFileName(self, self.tr("Export the token table"), self._settings.last_dir(),
                                                   "CSV (*.csv);;JSON (*.json)")
        if path:
            if not Path(path).suffix:
                path += ".json" if "json" in chosen else ".csv"
            self.export_table(path)

    def export_table(self, path: str | Path) -> Job | None:
        """Write the token table shown to ``path``: JSON for a .json name, else CSV (in a job)."""
        if self._result is None:
            return None
        fmt = "json" if Path(path).suffix.lower() == ".json" else "csv"
        self.status_label.setText(self.tr("Exporting the token table…"))

        def done(written: Path) -> None:
            self._settings.remember_file(written)
            self.status_label.setText(self.tr("Saved {}").format(written.name))

        def failed(error: str) -> None:
            self.status_label.clear()
            errors.show_error(self, error)

        self._exporting = run_job(export_table, self._result.data, path, fmt, pass_progress=False,
                                  on_finished=done, on_failed=failed, name="export table")
        return self._exporting

    def save_state(self) -> None:
        self._remember_text(self.text())
        self._settings.sync()

    def shutdown(self) -> None:
        if self._exporting is not None:
            self._exporting.wait(30)  # a file half written is not left behind (and the write is atomic)
        self._tokenizing.shutdown()
        self._loading.shutdown()

    def is_ready(self) -> bool:
        return not (self.editor.is_pasting() or self._showing.pending() or self._tokenizing.pending()
                    or self._loading.pending())

    # -- slots ---------------------------------------------------------------
    def _text_loaded(self, path: str, result: tuple[TextFile, QTextDocument]) -> None:
        file, doc = result
        replace_document(self.editor, doc)
        self._document_text.follow(doc)
        doc.setModified(False)
        doc.modificationChanged.connect(lambda edited: self.encoding_box.setEnabled(not edited))
        self._source_text = file.text
        self._file, self._file_path = file, path
        self.editor.setReadOnly(len(file.text) > EDIT_LIMIT)
        self.file_bar.show()
        self.encoding_box.show_encoding(file.encoding)
        self.encoding_box.setEnabled(True)
        self._show_file_note()
        Settings("tokenize").remember_file(path)
        self.status_label.clear()
        self._text_edited()

    def _load_failed(self, error: BaseException | str) -> None:
        self.status_label.clear()
        if self._file is not None:  # a reopen that failed: the box shows what the text is in
            self.encoding_box.show_encoding(self._file.encoding)
        errors.show_error(self, error)

    def _show_file_note(self) -> None:
        if self._file is None:
            return
        name, total = Path(self._file_path).name, len(self._file.text)
        if len(name) > 40:  # a long name cannot wrap: it would widen the window
            name = name[:19] + "…" + name[-19:]
        if total <= EDIT_LIMIT:
            self.file_note.setText(name)
            return
        self.file_note.setText(
            self.tr("{name}: showing the first {shown:,} of {total:,} characters, read-only; "
                    "the tokens and counts cover the whole file.")
            .replace("{name}", name).replace("{shown:,}", f"{EDIT_LIMIT:,}").replace("{total:,}", f"{total:,}"))

    def _text_edited(self) -> None:
        if self._restoring:
            return
        self._tokenizing.schedule()

    def remove_current_model(self) -> None:
        """Take the chosen model off the list if the user opened it (the file stays)."""
        entry = self.current_entry()
        if entry is not None and entry.source == "opened":
            self.catalog.remove(entry)
            default = self._default_entry()
            if default is not None:
                self.set_model(default)

    def _model_changed(self, _row: int) -> None:
        entry = self.current_entry()
        self.remove_model_button.setEnabled(entry is not None and entry.source == "opened")
        if entry is not None and not self._restoring:
            self._settings.set("model", entry.name)
            self.retokenize()

    def _colour_changed(self, _row: int) -> None:
        mode = self.colour_box.currentData()
        self.token_view.set_colour_mode(mode)
        self._settings.set("colours", mode)

    def _choose_model_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Open tokenizer model"),
            self._settings.last_dir(),
            self.tr("Tokenizer models (*.json *.model *.tiktoken);;All files (*)"),
        )
        if path:
            self._settings.remember_file(path, "models")
            self.open_model(path)

    def _choose_text_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open text"), self._settings.last_dir(), self.tr("Text files (*.txt);;All files (*)")
        )
        if path:
            self.open_text_file(path)

    def retokenize(self) -> None:
        """Start tokenizing the current text with the current model."""
        entry = self.current_entry()
        text = self.text()
        self._remember_text(text)
        if entry is None:
            self._tokenizing.cancel()
            self._show_nothing(self.tr("No tokenizer available: open a model file or train one."))
            return
        broken = self.catalog.broken_reason(entry)
        if broken is not None:
            # Said once in a dialog when it failed; every later keystroke just shows it here.
            self._tokenizing.cancel()
            self._show_nothing(self.tr("This model could not be loaded: {}").format(broken))
            return
        self.status_label.setText(self.tr("Tokenizing…"))
        self._version += 1
        body = partial(tokenize_text, base=self._result, version=self._version, pool=versions_pool())
        self._tokenizing.run(body, self.catalog, entry, text, self.token_view.font(), self.id_view.font(),
                             on_result=self._show, on_failed=self._failed, name="tokenize")

    def _remember_text(self, text: str) -> None:
        if len(text) <= REMEMBER_CHARS:
            self._settings.set("text", text)

    def _show_nothing(self, message: str) -> None:
        self._showing.clear()  # a result not fully shown yet
        self._result = None
        self._show_count()
        self.token_view.clear_tokens()
        self.token_table.set_tokenized(None)
        self.id_view.clear()
        self.stats_label.setText(message)
        self.status_label.clear()
        self.ready.emit()

    def _failed(self, error: BaseException | str) -> None:
        self._showing.clear()
        self._result = None
        self._show_count()
        self.status_label.clear()
        self.token_view.clear_tokens()
        self.token_table.set_tokenized(None)
        self.id_view.clear()
        self.stats_label.setText(self.tr("Could not tokenize: {}").format(error))
        errors.show_error(self, error)
        self.ready.emit()

    def _show(self, result: TokenizeResult) -> None:
        if result.edit is not None:
            self._show_edit(result, result.edit)
            return
        # In three steps, each on its own turn of the event loop (the token view,
        # the table, the ids): on 200 KB all of it in one turn took 26-39 ms of
        # the GUI thread and once froze the window 53 ms (bench_gui_stalls.py).
        self._result = result
        self._show_count()
        self._showing.start([lambda: self.token_view.set_tokenized(result.data, result.document),
                             lambda: self.token_table.set_tokenized(result.data),
                             lambda: self._show_ids(result)])

    def _show_edit(self, result: TokenizeResult, edit: TokenizeEdit) -> None:
        """An edit of the result shown: the views change where it did, in one turn (a few milliseconds)."""
        if result.base is not self._result:  # shown on views that no longer hold its base: all of it again
            self._result = None
            self.retokenize()
            return
        self._showing.finish()  # the base's own steps, if any were still to come
        self._result = result
        self._show_count()
        self.token_view.set_tokenized_edited(result.data)
        w = edit.where
        self.token_table.token_model.replace_rows(result.data, w.first, w.stop - w.first, w.added)
        doc = self.id_view.document()
        for change in edit.id_changes:
            replace_lines(doc, change)
        result.base = None  # the chain of results before it is not kept
        self._show_ids(result)

    def _show_ids(self, result: TokenizeResult) -> None:
        if result.ids_document is not None:
            result.ids_document.setUndoRedoEnabled(False)  # it is changed edit by edit, never undone
            replace_document(self.id_view, result.ids_document)
        self.stats_label.setText(self._stats_text(result))
        self.status_label.clear()
        self.ready.emit()

    def _stats_text(self, r: TokenizeResult) -> str:
        enc = r.data.encoding
        n_tokens = len(enc.ids)
        n_chars = len(r.data.text)
        parts = [
            self.tr("%Ln token(s)", "", n_tokens),
            self.tr("%Ln character(s)", "", n_chars),
            self.tr("{:.2f} characters per token").format(n_chars / n_tokens) if n_tokens else "",
            self.tr("vocabulary {:,}").format(r.vocab_size),
        ]
        n_partial = len(enc.partial) - enc.partial.count(0)
        if n_partial:
            parts.append(self.tr("{:,} partial-character tokens").format(n_partial))
        parts.append(self.tr("round trip exact") if r.roundtrip else self.tr("round trip lossy"))
        if r.trained_by:
            parts.append(self.tr("trained by {}").format(r.trained_by))
        if r.data.truncated:
            parts.append(self.tr("showing the first %Ln character(s)", "", r.data.shown_chars))
        return " · ".join(p for p in parts if p)

    def token_count(self) -> int:
        """Tokens of the text shown (0 before the first result)."""
        return len(self._result.data.encoding.ids) if self._result is not None else 0

    def _show_count(self) -> None:
        n = self.token_count()
        self.count_label.setText(f"{n:,}")
        self.count_caption.setText(self.tr("token(s)", "", n))
        self.count_label.setAccessibleName(self.tr("%n token(s)", "", n))

    def token_ids(self) -> list[int]:
        return list(self._result.data.encoding.ids) if self._result is not None else []

    def copy_ids(self) -> None:
        """Put every token id on the clipboard as a list: ``[12, 345, 6]``."""
        QGuiApplication.clipboard().setText("[" + ", ".join(map(str, self.token_ids())) + "]")
        self.status_label.setText(self.tr("Copied %n id(s)", "", self.token_count()))

    def _token_hovered(self, index: int) -> None:
        data = self.token_view.tokenized()
        if data is None or index < 0:
            self.status_label.clear()
            return
        tid = data.encoding.ids[index]
        self.status_label.setText(self.tr("token #{} · id {} · {}").format(index, tid, readable_token(data, index)))
