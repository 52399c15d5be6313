"""A splitter that puts its two parts one above the other when they do not fit
side by side.

Lookup's results (six columns, about 570 px) and its detail (the keyboard
diagram, about 420 px) side by side need about 1,000 px: in an 800x600 window the
table shrank to two columns while the detail kept half the width.  Below the
width both parts need, the detail goes under the table instead.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSplitter, QWidget


class FoldingSplitter(QSplitter):
    """Horizontal while at least ``side_by_side`` pixels wide, vertical below."""

    def __init__(self, side_by_side: int, parent: QWidget | None = None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self._side_by_side = side_by_side

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt name)
        wanted = Qt.Orientation.Horizontal if event.size().width() >= self._side_by_side else Qt.Orientation.Vertical
        if wanted != self.orientation():
            self.setOrientation(wanted)
            # Each part its share of the new direction (the sizes kept were of the other).
            total = event.size().width() if wanted == Qt.Orientation.Horizontal else event.size().height()
            self.setSizes([total * 3 // 5, total - total * 3 // 5])
        super().resizeEvent(event)
