"""Lookup: one search box for characters, codes (z = any key) or pinyin.

The rules of what a search means and what it finds are in
:mod:`wubitok.wubi.query`; this pane shows the rows in a table and the selected
entry in a detail panel with its keys on a Wubi keyboard.
"""
from __future__ import annotations

import html
from functools import partial
from typing import Iterator

from PySide6.QtCore import QAbstractTableModel, QLocale, QModelIndex, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...ime.user_lookup import UserRow, describe_user_row, search_with_user_phrases
from ...wubi.dictionary import CHARSETS
from ...wubi.query import QUERY_KINDS, Detail, SearchResult, SearchRow, classify_query, describe
from ..support import errors, theme
from ..support.fonts import drawable, han_font, monospace_font
from ..support.latest_job import LatestJob
from ..support.settings import Settings
from ..support.typing_settings import shared_typing_settings
from ..widgets.folding_splitter import FoldingSplitter
from ..widgets.keyboard import WubiKeyboard
from ..widgets.split_row import SplitRow
from .base import Pane

# Typing pauses shorter than this do not trigger a search: one search per
# burst of keys, not one per key.
DEBOUNCE_MS = 150
SEARCH_MAX_CHARS = 2_000  # characters in the search box: ten times what a search shows

COL_TEXT, COL_FULL, COL_SHORT, COL_PINYIN, COL_WEIGHT, COL_RANK = range(6)
NUMERIC_COLUMNS = (COL_WEIGHT, COL_RANK)
# The first screen's examples: a code, characters, pinyin.
EXAMPLES = ("wqiy", "你好", "zhong")


def _muted(label: QLabel) -> QLabel:
    label.setForegroundRole(label.foregroundRole())
    pal = label.palette()
    pal.setColor(label.foregroundRole(), pal.color(pal.ColorRole.PlaceholderText))
    label.setPalette(pal)
    return label


def compact_number(n: int) -> str:
    """1490000000 -> '1.49B' (or '14.9亿' in Chinese): weights span ten digits."""
    if QLocale().language() == QLocale.Language.Chinese:
        steps = ((100_000_000, "亿"), (10_000, "万"))
    else:
        steps = ((1_000_000_000, "B"), (1_000_000, "M"), (1_000, "k"))
    for size, suffix in steps:
        if n >= size:
            value = n / size
            digits = 2 if value < 10 else 1 if value < 100 else 0
            text = f"{value:.{digits}f}"
            if "." in text:  # 1.50 -> 1.5, 2.00 -> 2; never 2400 -> 24 (it showed 2400万 as 24万)
                text = text.rstrip("0").rstrip(".")
            return text + suffix
    return str(n)


class ResultsModel(QAbstractTableModel):
    """Search rows for a QTableView; sortable by any column."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[SearchRow] = []
        self._han_font = han_font(15)
        self._mono = monospace_font()

    def set_rows(self, rows: list[SearchRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[SearchRow]:
        return list(self._rows)

    def row_at(self, row: int) -> SearchRow:
        return self._rows[row]

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt API)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else 6

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return (self.tr("Text"), self.tr("Full code"), self.tr("Short codes"), self.tr("Pinyin"),
                    self.tr("Frequency"), self.tr("Selector"))[section]
        if role == Qt.ItemDataRole.InitialSortOrderRole:
            # Numbers read best largest first: the most used entries on the first click.
            return Qt.SortOrder.DescendingOrder if section in NUMERIC_COLUMNS else Qt.SortOrder.AscendingOrder
        if role == Qt.ItemDataRole.ToolTipRole:
            return (self.tr("The character or phrase"),
                    self.tr("The full Wubi code (the phrase code for a phrase)"),
                    self.tr("Shorter codes that also type it"),
                    self.tr("Readings"),
                    self.tr("How common it is (the dictionary's weight)"),
                    self.tr("Its number among the entries sharing its full code (1 = space bar)"))[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, col)
        if role == Qt.ItemDataRole.FontRole:
            if col == COL_TEXT:
                return self._han_font
            if col in (COL_FULL, COL_SHORT):
                return self._mono
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_WEIGHT, COL_RANK):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and isinstance(row, UserRow):
            return self.tr("Your own phrase, typed by {code}").replace("{code}", row.full_code or "")
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_WEIGHT:
            return f"{row.weight:,}"
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_TEXT:
            return " ".join(f"U+{ord(ch):04X}" for ch in row.text)
        if role == Qt.ItemDataRole.ToolTipRole and not row.in_dictionary:
            return self.tr("Not in the phrase table; the code is computed by the Wubi-86 rules") \
                if row.is_phrase else self.tr("Not in the dictionary")
        if role == Qt.ItemDataRole.UserRole:
            return row
        return None

    def _display(self, row: SearchRow, col: int) -> str:
        if col == COL_TEXT:
            return drawable(row.text)
        if col == COL_FULL:
            return row.full_code or "—"
        if col == COL_SHORT:
            return " ".join(row.short_codes)
        if col == COL_PINYIN:
            return ", ".join(row.pinyin)
        if col == COL_WEIGHT:
            if isinstance(row, UserRow):  # not the dictionary's: it has no weight, only the user's choices
                return self.tr("user")
            return compact_number(row.weight) if row.in_dictionary else ""
        if col == COL_RANK:
            return str(row.rank + 1) if row.rank is not None else "—"
        return ""

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        keys = {
            COL_TEXT: lambda r: r.text,
            COL_FULL: lambda r: r.full_code or "~",
            COL_SHORT: lambda r: r.short_codes[-1] if r.short_codes else "~",
            COL_PINYIN: lambda r: r.pinyin[0] if r.pinyin else "~",
            COL_WEIGHT: lambda r: r.weight,
            COL_RANK: lambda r: r.rank if r.rank is not None else 99,
        }
        if column not in keys:
            return
        self.layoutAboutToBeChanged.emit()
        key = keys[column]
        # Stable both ways (reverse keeps ties in their order): the search's own order breaks ties.
        old = sorted(range(len(self._rows)), key=lambda i: key(self._rows[i]),
                     reverse=order == Qt.SortOrder.DescendingOrder)
        self._rows = [self._rows[i] for i in old]
        # The selection and the current row follow their entry, so the detail panel
        # keeps showing the selected row (without this the view kept row 0 selected
        # while row 0 became another entry: 不 shown, 录 selected).
        where = {was: now for now, was in enumerate(old)}
        persistent = self.persistentIndexList()
        self.changePersistentIndexList(
            persistent, [self.index(where[i.row()], i.column()) if i.isValid() else i for i in persistent])
        self.layoutChanged.emit()


class DetailPanel(QWidget):
    """The selected entry: glyph, codes, keys on the keyboard, shared-code entries."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._detail: Detail | None = None
        self.on_pick = None  # callable(text): search for an entry clicked in the shared list

        self.glyph = QLabel()
        self.glyph.setFont(han_font(56))
        self.glyph.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.glyph.setMinimumWidth(110)
        self.glyph.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.code_label = QLabel()
        self.code_label.setFont(monospace_font(22))
        self.code_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pinyin_label = QLabel()
        self.pinyin_label.setFont(han_font(13))
        self.meta_label = _muted(QLabel())
        self.meta_label.setWordWrap(True)

        head = QGridLayout()
        head.addWidget(self.glyph, 0, 0, 3, 1)
        head.addWidget(self.code_label, 0, 1)
        head.addWidget(self.pinyin_label, 1, 1)
        head.addWidget(self.meta_label, 2, 1)
        head.setColumnStretch(1, 1)
        head.setHorizontalSpacing(16)
        self.split_row = SplitRow()  # the character's roots over their keys, under the character

        self.codes_title = QLabel()
        theme.make_heading(self.codes_title)
        self.codes_label = QLabel()
        self.codes_label.setFont(han_font(11))
        self.codes_label.setWordWrap(True)
        self.codes_label.linkActivated.connect(self._show_code)
        self.keyboard = WubiKeyboard()

        self.shares_title = QLabel()
        theme.make_heading(self.shares_title)
        self.shares_label = QLabel()
        self.shares_label.setFont(han_font(14))
        self.shares_label.setWordWrap(True)
        self.shares_label.linkActivated.connect(self._pick)

        self.copy_text = QPushButton()
        self.copy_text.clicked.connect(lambda: self._copy(self._detail.text if self._detail else ""))
        self.copy_code = QPushButton()
        self.copy_code.clicked.connect(lambda: self._copy(self._detail.code or "" if self._detail else ""))
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_text)
        buttons.addWidget(self.copy_code)
        buttons.addStretch(1)

        self.empty_label = _muted(QLabel())
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)

        self.body = QWidget()
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(8)
        body.addLayout(head)
        body.addWidget(self.split_row)
        body.addSpacing(4)
        body.addWidget(self.codes_title)
        body.addWidget(self.codes_label)
        body.addWidget(self.keyboard)
        body.addWidget(self.shares_title)
        body.addWidget(self.shares_label)
        body.addLayout(buttons)
        body.addStretch(1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.body)
        self.retranslate_ui()
        self.show_detail(None)

    def retranslate_ui(self) -> None:
        self.codes_title.setText(self.tr("Codes"))
        self.copy_text.setText(self.tr("Copy text"))
        self.copy_code.setText(self.tr("Copy code"))
        self.empty_label.setText(self.tr("Select a row to see its codes on the keyboard."))
        self.show_detail(self._detail)

    def detail(self) -> Detail | None:
        return self._detail

    def shared_texts(self) -> list[str]:
        """The entries shown as sharing the code, in selector order."""
        return [c.text for c in self._detail.shares] if self._detail else []

    def show_detail(self, detail: Detail | None) -> None:
        self._detail = detail
        self.empty_label.setVisible(detail is None)
        self.body.setVisible(detail is not None)
        if detail is None:
            self.keyboard.set_code(None)
            return
        shown = drawable(detail.text)
        self.glyph.setText(shown)
        self.glyph.setFont(han_font(56 if len(shown) <= 2 else 34 if len(shown) <= 4 else 18))
        self.code_label.setText(detail.code or "—")
        self.pinyin_label.setText(", ".join(detail.pinyin))
        self.meta_label.setText(self._meta(detail))
        self.codes_label.setText(self._codes_html(detail))
        self.split_row.set_split(detail.text if detail.code and len(detail.text) == 1 else "", detail.split)
        self.split_row.setAccessibleDescription(self.tr("The roots (字根) of the character and their keys"))
        self._show_code(detail.code or "")
        code = detail.code or ""
        self.shares_title.setText(
            self.tr("Also typed by {code}").replace("{code}", code)
            if detail.shares
            else self.tr("No other entry has the code {code}").replace("{code}", code)
        )
        self.shares_title.setVisible(bool(code))
        links, muted = [], theme.muted_colour(self)
        for i, cand in enumerate(detail.shares):
            tip = self.tr("type {code} then {n}").replace("{n}", str(cand.rank + 1)).replace("{code}", cand.code)
            links.append(f"<a href='{i}' title='{tip}' style='text-decoration:none'>"
                         f"<span style='color:{muted}'>{cand.rank + 1}</span>&nbsp;"
                         f"{html.escape(drawable(cand.text))}</a>")
        self.shares_label.setText("&nbsp;&nbsp;&nbsp; ".join(links))
        self.shares_label.setVisible(bool(links))
        self.copy_code.setEnabled(bool(detail.code))

    def _meta(self, d: Detail) -> str:
        parts = []
        if d.rank is not None and d.code:
            parts.append(self.tr("selector {n} of {code}").replace("{n}", str(d.rank + 1)).replace("{code}", d.code))
        if d.parts:
            parts.append(" · ".join(f"{ch} {code or '?'}" for ch, code in d.parts))
            if not d.in_table:
                parts.append(self.tr("not in the phrase table"))
        if not d.code:
            parts.append(self.tr("no Wubi code"))
        return " · ".join(parts)

    def _codes_html(self, d: Detail) -> str:
        kinds = {"full": self.tr("full code"), "alt": self.tr("other full code"),
                 "short1": self.tr("1-key short code"), "short2": self.tr("2-key short code"),
                 "short3": self.tr("3-key short code"), "user": self.tr("your phrase's code")}
        rows = []
        for entry in d.codes:
            # A user phrase's place on its code depends on the charset and on what was chosen before.
            selector = "" if entry.kind == "user" else \
                "&nbsp;·&nbsp;" + self.tr("selector {n}").replace("{n}", str(entry.rank + 1))
            rows.append(f"<tr><td><a href='{entry.code}'><code style='font-size:13pt'>{entry.code}</code></a>"
                        f"&nbsp;&nbsp;</td><td>{kinds.get(entry.kind, entry.kind)}</td>"
                        f"<td>{selector}</td></tr>")
        if not rows:
            return self.tr("No codes.")
        return "<table cellspacing='2'>" + "".join(rows) + "</table>"

    def _show_code(self, code: str) -> None:
        split = self._detail.split if self._detail else None
        self.keyboard.set_code(code, self.split_row.tile_texts() if split and split.code == code else None)

    def _pick(self, link: str) -> None:
        if self.on_pick is not None and self._detail is not None:
            self.on_pick(self._detail.shares[int(link)].text)

    @staticmethod
    def _copy(text: str) -> None:
        if text:
            QGuiApplication.clipboard().setText(text)


def by_frequency(result: SearchResult) -> bool:
    """Whether the dictionary lists ``result`` most used first (a reading; a code with ``z``):
    the Frequency column then shows the order."""
    q = result.query
    return q.kind == "pinyin" or (q.kind == "code" and "z" in q.term)


class LookupPane(Pane):
    """Search box, results table and detail panel."""

    def __init__(self, parent=None, *, in_steps: bool = False):
        super().__init__(parent)
        self._settings = Settings("lookup")
        self._result: SearchResult | None = None
        self._search = LatestJob(self, debounce_ms=DEBOUNCE_MS, start=self.run_search)
        self.build(self._parts(), in_steps)

    def _parts(self) -> Iterator[None]:
        self._build_search_bar()
        self._build_results()
        yield
        self._build_layout()
        self._connect()
        self.set_main_input(self.search_box)
        self.retranslate_ui()

    def _build_search_bar(self) -> None:
        self.search_box = QLineEdit()
        # A search shows 200 characters at most (query.ROW_LIMIT); Qt's own limit, 32,767, made a
        # megabyte pasted here a 130 ms freeze laying out one line (bench_gui_stalls, lookup_paste_1m).
        self.search_box.setMaxLength(SEARCH_MAX_CHARS)
        self.search_box.setFont(han_font(16))
        self.search_box.setClearButtonEnabled(True)
        self.search_box.setMinimumHeight(40)
        self.mode_box = QComboBox()
        self.mode_box.setMinimumHeight(40)
        for kind in QUERY_KINDS:
            self.mode_box.addItem("", kind)
        mode = self._settings.get_str("mode", "auto")
        self.mode_box.setCurrentIndex(max(0, QUERY_KINDS.index(mode) if mode in QUERY_KINDS else 0))
        # One setting with the typing pad's (ime_settings.json): which characters codes and readings list.
        self.charset_box = QComboBox()
        self.charset_box.setMinimumHeight(40)
        for charset in CHARSETS:
            self.charset_box.addItem("", charset)
        self._show_charset(shared_typing_settings().options().charset)
        self.understood = QLabel()
        self.understood.setWordWrap(True)
        self.count_label = _muted(QLabel())

    def _build_results(self) -> None:
        self.model = ResultsModel(self)
        # The first screen: a few searches to click instead of an empty table.
        self.results_stack = QStackedWidget()
        self.welcome = QLabel()
        self.welcome.setWordWrap(True)
        self.welcome.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.welcome.setFont(han_font(13))
        self.welcome.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                             | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.table = QTableView()
        self.results_stack.addWidget(self.welcome)
        self.results_stack.addWidget(self.table)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(34)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        for col, width in ((COL_TEXT, 72), (COL_FULL, 76), (COL_SHORT, 100), (COL_PINYIN, 120),
                           (COL_WEIGHT, 90), (COL_RANK, 72)):
            header.resizeSection(col, width)
        header.setSectionResizeMode(COL_PINYIN, QHeaderView.ResizeMode.Stretch)

        self.detail = DetailPanel()
        self.detail_scroll = QScrollArea()
        self.detail_scroll.setWidget(self.detail)
        self.detail_scroll.setWidgetResizable(True)
        self.detail_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.detail_scroll.setMinimumWidth(344)  # the keyboard at its smallest; the table keeps the rest

        self.splitter = FoldingSplitter(side_by_side=1000)  # the detail goes under the results when narrower
        self.splitter.addWidget(self.results_stack)
        self.splitter.addWidget(self.detail_scroll)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        state = self._settings.get_bytes("splitter")
        if state is not None:
            self.splitter.restoreState(state)
        else:
            self.splitter.setSizes([560, 470])

    def _build_layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.search_box, 1)
        top.addWidget(self.mode_box)
        top.addWidget(self.charset_box)
        status = QHBoxLayout()
        status.addWidget(self.understood, 1)
        status.addWidget(self.count_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 10)
        layout.setSpacing(8)
        layout.addLayout(top)
        layout.addLayout(status)
        layout.addWidget(self.splitter, 1)

    def _connect(self) -> None:
        self.table.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.detail.on_pick = self.set_sample_text
        self.search_box.textChanged.connect(self._search.schedule)
        self.search_box.returnPressed.connect(self.run_search)
        self.mode_box.currentIndexChanged.connect(lambda _: self.run_search())
        self.understood.linkActivated.connect(self.search_as)
        self.welcome.linkActivated.connect(self.set_sample_text)
        self.charset_box.currentIndexChanged.connect(self._charset_chosen)
        shared_typing_settings().changed.connect(self._settings_changed)
        self.table.horizontalHeader().sortIndicatorChanged.connect(lambda *_: self._show_status())

    # -- protocol --------------------------------------------------------------
    def set_sample_text(self, text: str) -> None:
        self.search_box.setText(text)
        self.run_search()

    def search_as(self, kind: str) -> None:
        """Search the same text as ``kind`` (the status line's "search as pinyin" link)."""
        self.mode_box.setCurrentIndex(self.mode_box.findData(kind))

    def is_ready(self) -> bool:
        return not self._search.pending()

    def charset(self) -> str:
        return self.charset_box.currentData()

    def _show_charset(self, charset: str) -> None:
        self.charset_box.blockSignals(True)
        self.charset_box.setCurrentIndex(max(0, self.charset_box.findData(charset)))
        self.charset_box.blockSignals(False)

    def _charset_chosen(self, _row: int) -> None:
        with errors.reported(self):
            shared_typing_settings().save(charset=self.charset())  # the pad hears it too
        self.run_search()

    def _settings_changed(self, changes: dict) -> None:
        charset = changes.get("charset")
        if charset is not None and charset != self.charset():
            self._show_charset(charset)
            self.run_search()

    def retranslate_ui(self) -> None:
        # Short enough for the box at 800x600; the whole of it is the tooltip.
        self.search_box.setPlaceholderText(self.tr("你好, wqiy or ni3"))
        self.search_box.setToolTip(
            self.tr("Characters (你好), a Wubi code or prefix (wqiy, wq, z = any key) or pinyin (ni3, zhong)"))
        names = {"auto": self.tr("Auto"), "chars": self.tr("Characters"), "code": self.tr("Code"),
                 "pinyin": self.tr("Pinyin")}
        for i in range(self.mode_box.count()):
            self.mode_box.setItemText(i, names[self.mode_box.itemData(i)])
        self.mode_box.setToolTip(self.tr("What the search text is: guessed, or as chosen here"))
        self.search_box.setAccessibleName(self.tr("Search"))
        self.mode_box.setAccessibleName(self.tr("Search as"))
        names = {"all": self.tr("All characters"), "gbk": self.tr("GBK (with traditional)"),
                 "gb2312": self.tr("Simplified (GB2312)")}
        for i in range(self.charset_box.count()):
            self.charset_box.setItemText(i, names[self.charset_box.itemData(i)])
        self.charset_box.setAccessibleName(self.tr("Characters listed"))
        self.charset_box.setToolTip(self.tr("Which characters a code or a reading lists (characters you type in "
                                            "are always shown); the same setting as Type Wubi's charset"))
        examples = " &nbsp;·&nbsp; ".join(
            f"<a href='{html.escape(text)}'>{html.escape(text)}</a>&nbsp;{html.escape(what)}"
            for text, what in zip(EXAMPLES, (self.tr("(a Wubi code)"), self.tr("(characters)"),
                                             self.tr("(pinyin)"))))
        self.welcome.setText("<p style='font-size:15pt'>" + html.escape(
            self.tr("Look up a character, a Wubi code or a pinyin reading")) + "</p><p>"
            + html.escape(self.tr("Try:")) + " " + examples + "</p>")
        self.welcome.setAccessibleName(self.tr("Examples to search"))
        self.table.setAccessibleName(self.tr("Results"))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.model.columnCount() - 1)
        self.detail.retranslate_ui()
        self._show_status()

    def save_state(self) -> None:
        self._settings.set("mode", self.mode_box.currentData())
        self._settings.set("splitter", self.splitter.saveState())

    # -- searching -------------------------------------------------------------
    def shutdown(self) -> None:
        self._search.shutdown()

    def run_search(self) -> None:
        """Search now, in the thread pool: a short prefix like "a" or "z" can take
        tens of milliseconds, too long for the GUI thread.  The user's own phrases
        are read afresh each time, so one added in the pad shows at the next search."""
        self._search.run(partial(search_with_user_phrases, charset=self.charset()), self.search_box.text(),
                         self.mode_box.currentData(), on_result=self._show_result, cancellable=False, name="search")

    def _show_result(self, result: SearchResult) -> None:
        self._result = result
        header = self.table.horizontalHeader()
        header.blockSignals(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.blockSignals(False)
        self.model.set_rows(result.rows)
        self.results_stack.setCurrentWidget(self.welcome if result.query.kind == "empty" else self.table)
        if by_frequency(result):
            # Most used first, as the dictionary gave them, shown as the Frequency column's order.
            header.setSortIndicator(COL_WEIGHT, Qt.SortOrder.DescendingOrder)
        self._show_status()
        if result.rows:
            self.table.selectRow(0)
            self.table.scrollToTop()
        else:
            self.detail.show_detail(None)

    def result(self) -> SearchResult | None:
        return self._result

    def _show_status(self) -> None:
        r = self._result
        if r is None or r.query.kind == "empty":
            self.understood.setText(self.tr("Type to search; results appear as you type."))
            self.count_label.setText("")
            return
        q = r.query
        if q.kind == "chars":
            text = self.tr("Understood as characters")
        elif q.kind == "code":
            text = self.tr("Understood as a Wubi code: <b>{code}</b>").replace("{code}", q.term)
            if "z" in q.term:
                text += self.tr(" (z = any key)")
            # "ni" is a code and a syllable: the guess says code, the link offers the other reading.
            if self.mode_box.currentData() == "auto" and classify_query(q.term, "pinyin").kind == "pinyin":
                text += " · <a href='pinyin'>" + self.tr("search as pinyin") + "</a>"
        elif q.kind == "pinyin":
            text = self.tr("Understood as pinyin: <b>{pinyin}</b>").replace("{pinyin}", q.term)
            if q.via_z:
                text += self.tr(" (z + pinyin, as in the typing pad)")
        else:
            problems = {
                "code_shape": self.tr("A Wubi code is 1–4 letters a–y (z = any key)."),
                "not_pinyin": self.tr("Not a pinyin syllable (for example ni, ni3, nǐ, lv4)."),
                "one_at_a_time": self.tr("One code or pinyin syllable at a time."),
                "neither": self.tr("Neither a Wubi code (at most 4 keys) nor a pinyin syllable."),
            }
            text = problems.get(q.problem, q.problem_text)
        self.understood.setText(text)
        n = len(r.rows)
        if r.truncated:
            count = self.tr("first %Ln result(s)", "", n)
        else:
            count = self.tr("%Ln result(s)", "", n)
        order = self._order_note(r)
        self.count_label.setText(f"{count} · {order}" if order and n > 1 else count)

    def _order_note(self, r: SearchResult) -> str:
        """The rows' order in words when no column header shows it."""
        if self.table.horizontalHeader().sortIndicatorSection() >= 0:
            return ""
        if r.query.kind == "chars":
            return self.tr("in the order typed")
        if r.query.kind == "code":
            return self.tr("the code's entries first, then by frequency")
        return ""

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.detail.show_detail(None)
            return
        row = self.model.row_at(current.row())
        self.detail.show_detail(describe_user_row(row) if isinstance(row, UserRow) else describe(row.text))
