"""Files dropped on a pane: the pane's ``drop_files(paths)`` gets them.

A pane that has ``drop_files`` accepts drops of local files anywhere on it,
its text boxes included (which would otherwise paste the file's URL as text).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QWidget


def local_files(mime: QMimeData) -> list[Path]:
    """The local files in a drag, [] if it holds anything else."""
    if not mime.hasUrls():
        return []
    urls = mime.urls()
    if not urls or not all(u.isLocalFile() for u in urls):
        return []
    return [Path(u.toLocalFile()) for u in urls]


class _FileDrops(QObject):
    def __init__(self, pane) -> None:
        super().__init__(pane)
        self._pane = pane

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        if isinstance(event, (QDragEnterEvent, QDragMoveEvent)) and local_files(event.mimeData()):
            event.acceptProposedAction()
            return True
        if isinstance(event, QDropEvent) and event.type() == QEvent.Type.Drop:
            paths = local_files(event.mimeData())
            if paths:
                event.acceptProposedAction()
                self._pane.drop_files(paths)
                return True
        return False


def accept_file_drops(pane: QWidget) -> None:
    """Route drops of files on ``pane`` or any of its widgets to ``pane.drop_files``."""
    drops = _FileDrops(pane)
    for widget in [pane, *pane.findChildren(QWidget)]:
        if widget is pane or widget.acceptDrops():
            widget.setAcceptDrops(True)
            widget.installEventFilter(drops)
            if hasattr(widget, "viewport"):  # text boxes and lists take drops on their viewport
                widget.viewport().installEventFilter(drops)
