"""The encoding a file's text was read in, shown where the text is, and the
user's way to read it again in another one (or save in another one).

``chosen(encoding)`` is emitted only for the user's choice (``activated``), never
when a pane shows the encoding of a file it just read (``show_encoding``).
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QWidget

from ...fileio import TEXT_ENCODINGS, encoding_label, normalize_encoding


class EncodingBox(QComboBox):
    """UTF-8, GB18030, Big5, Big5-HKSCS, UTF-16LE/BE; the current one is the file's."""

    chosen = Signal(str)  # a Python codec name

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        for encoding in TEXT_ENCODINGS:
            self.addItem(encoding_label(encoding), encoding)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.activated.connect(lambda row: self.chosen.emit(self.itemData(row)))

    def encoding(self) -> str:
        return self.currentData()

    def show_encoding(self, encoding: str) -> None:
        """Show ``encoding`` (any codec name; GBK shows as GB18030, which reads it)."""
        name = normalize_encoding(encoding) or "utf-8"
        row = self.findData(name)
        if row < 0:  # a codec the list does not offer (given on the command line): shown all the same
            self.addItem(encoding_label(name), name)
            row = self.count() - 1
        self.setCurrentIndex(row)
