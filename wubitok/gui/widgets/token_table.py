"""The tokens of a text as a table: index, id, token, its spelling, Wubi codes, bytes, offsets.

The token column is the token as a person reads it (the text it covers,
``民 (1 of 2)`` for a piece of a character, ``<E6 97>`` for bytes that are not a
whole character: :mod:`wubitok.services.readable_tokens`); the tokenizer's own
spelling (Wubi keys ``n#27``, byte letters ``ï¼Į``) has a column of its own that
the pane's "Spellings" switch shows with the Wubi codes.

The model reads a :class:`~wubitok.gui.widgets.token_view.TokenizedText`
lazily, row by row as the view asks, so a text of a million tokens costs no
more to show than a short one.  Hovering a row highlights that token in the
coloured text and hovering the text highlights the row
(:class:`TokenTable` ``tokenHovered`` / :meth:`TokenTable.highlight`).
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from ...services.readable_tokens import visible
from .token_view import TokenizedText, readable_note, readable_token, wubi_keys

COLUMNS = ("index", "id", "token", "spelling", "wubi", "bytes", "offsets")
WUBI_COLUMN = COLUMNS.index("wubi")
TOKEN_COLUMN = COLUMNS.index("token")
SPELLING_COLUMNS = (COLUMNS.index("spelling"), WUBI_COLUMN)  # shown and hidden together
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_NUMERIC = {"index", "id", "bytes"}

AnyIndex = QModelIndex | QPersistentModelIndex


class TokenTableModel(QAbstractTableModel):
    """One row per token of a :class:`TokenizedText`."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._data: TokenizedText | None = None
        self._rows = 0
        self.highlighted = -1

    def set_tokenized(self, data: TokenizedText | None) -> None:
        self.beginResetModel()
        self._data = data
        self._rows = 0 if data is None else len(data.encoding)
        self.highlighted = -1
        self.endResetModel()

    def replace_rows(self, data: TokenizedText, first: int, removed: int, added: int) -> None:
        """Show ``data``, whose tokens ``[first, first + added)`` replaced rows ``[first, first + removed)``
        of the text shown (an edit): the view is told of those rows only, not reset."""
        self.highlighted = -1
        if removed:
            self.beginRemoveRows(QModelIndex(), first, first + removed - 1)
            self._rows -= removed
            self.endRemoveRows()
        self._data = data
        if added:
            self.beginInsertRows(QModelIndex(), first, first + added - 1)
            self._rows += added
            self.endInsertRows()
        after = self._rows - (first + added)
        if after > 0 and added != removed:  # the rows after the edit have new indices (the # column)
            self.dataChanged.emit(self.index(first + added, 0), self.index(self._rows - 1, 0))

    def tokenized(self) -> TokenizedText | None:
        return self._data

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802 (Qt name)
        return 0 if parent.isValid() or self._data is None else self._rows

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.header_titles()[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.header_tips()[section]
        return None

    def header_titles(self) -> list[str]:
        return ["#", self.tr("id"), self.tr("token"), self.tr("spelling"), self.tr("Wubi"), self.tr("bytes"),
                self.tr("offsets")]

    def header_tips(self) -> list[str]:
        return [
            self.tr("Position of the token in the text"),
            self.tr("Token id in the vocabulary"),
            self.tr("The text the token covers, as you read it (see the legend under the table)"),
            self.tr("The token as the tokenizer spells it inside: Wubi-BPE's keys, byte-level BPE's byte letters "
                    "(Ġ is a space), WordPiece's ## for a word's continuation"),
            self.tr("Full Wubi codes of the Han characters the token covers"),
            self.tr("UTF-8 bytes of the text the token covers (a partial token: of its whole character)"),
            self.tr("Start and end of the token in the text, in characters"),
        ]

    def cell(self, row: int, column: str) -> str:
        """The text shown in ``row`` under ``column`` (one of :data:`COLUMNS`)."""
        data = self._data
        assert data is not None
        enc = data.encoding
        start, end = enc.offsets[row]
        if column == "index":
            return str(row)
        if column == "id":
            return str(enc.ids[row])
        if column == "token":
            return readable_token(data, row)
        if column == "spelling":
            return visible(data.spelling(row))
        if column == "wubi":
            return wubi_keys(data.text[start:end])
        if column == "bytes":
            return str(len(data.text[start:end].encode("utf-8", "surrogatepass")))
        return f"{start}–{end}"

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if self._data is None or not index.isValid():
            return None
        row, column = index.row(), COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMERIC:
            return _RIGHT
        if role == Qt.ItemDataRole.BackgroundRole and row == self.highlighted:
            colour = QColor(QPalette().color(QPalette.ColorRole.Highlight))
            colour.setAlpha(90)
            return colour
        if role == Qt.ItemDataRole.ToolTipRole and column in ("token", "spelling"):
            return self.token_tip(row)
        return None

    def token_tip(self, row: int) -> str:
        """The tokenizer's spelling of the token and, for a piece of a character, what the piece is."""
        assert self._data is not None
        lines = [self.tr("Spelled by the tokenizer: {}").format(visible(self._data.spelling(row)))]
        if self._data.encoding.partial_at(row):
            lines.append(readable_note(self._data, row) or self.tr("part of a character"))
        return "\n".join(lines)

    def set_highlighted(self, row: int) -> None:
        old, self.highlighted = self.highlighted, row
        for r in (old, row):
            if 0 <= r < self.rowCount():
                self.dataChanged.emit(self.index(r, 0), self.index(r, len(COLUMNS) - 1))

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)


class TokenTable(QTableView):
    """The table of :class:`TokenTableModel`; ``tokenHovered(index)`` follows the mouse (-1: none)."""

    tokenHovered = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.token_model = TokenTableModel(self)
        self.setModel(self.token_model)
        self.setMouseTracking(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().setVisible(False)
        # Fixed row heights: the view never measures a million rows.
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in zip(COLUMNS, (40, 52, 110, 72, 84, 44, 64)):
            self.setColumnWidth(COLUMNS.index(column), width)
        # The token takes the room a wide window gives, not the offsets (at 1920 pixels
        # they stretched to 650 while the token was cut).
        header.setStretchLastSection(False)
        header.setSectionResizeMode(TOKEN_COLUMN, QHeaderView.ResizeMode.Stretch)
        self._fit_rows()
        self.entered.connect(lambda index: self.tokenHovered.emit(index.row()))

    def _fit_rows(self) -> None:
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)

    def changeEvent(self, event) -> None:  # noqa: N802
        if event.type() == QEvent.Type.FontChange:
            self._fit_rows()
        super().changeEvent(event)

    def set_tokenized(self, data: TokenizedText | None) -> None:
        self.token_model.set_tokenized(data)

    def set_wubi_visible(self, shown: bool) -> None:
        """Show or hide the spelling and Wubi columns (the pane's "Spellings" switch)."""
        for column in SPELLING_COLUMNS:
            self.setColumnHidden(column, not shown)

    def highlight(self, row: int) -> None:
        """Mark ``row`` (a token index; -1: none) and scroll it into view."""
        self.token_model.set_highlighted(row)
        if 0 <= row < self.token_model.rowCount():
            self.scrollTo(self.token_model.index(row, 0), QAbstractItemView.ScrollHint.EnsureVisible)

    def leaveEvent(self, event) -> None:  # noqa: N802
        self.tokenHovered.emit(-1)
        super().leaveEvent(event)
