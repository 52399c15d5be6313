"""Corpus files (Compare's corpus mode, Train), each with the encoding it is read in.

The encoding is detected from a file's first 64 KB when it is added (cheap
enough for the GUI thread) and shown after its path; the user can choose
another for the selected files.  A file that is not text is listed with "?"
(its tooltip says why) and reported with a dialog when the run reads it.
"""
from __future__ import annotations

import os
from typing import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget

from ...errors import FileError, InputError
from ...fileio import TextPath, encoding_label, file_encoding, normalize_encoding
from ..support import errors
from .encoding_box import EncodingBox

PathRole = Qt.ItemDataRole.UserRole
EncodingRole = Qt.ItemDataRole.UserRole + 1  # a codec name, or "" when the file is not text


def _usable(encoding: str) -> str | None:
    """A remembered encoding as a codec name; None (detect) for none, or for one this
    Python does not know (a hand-edited settings file must not stop the pane opening)."""
    try:
        return normalize_encoding(encoding)
    except InputError:
        return None


class CorpusList(QListWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # the encoding at the end stays visible

    def paths(self) -> list[str]:
        return [self.item(i).data(PathRole) for i in range(self.count())]

    def encodings(self) -> list[str]:
        """Each file's encoding, "" for a file that is not text."""
        return [self.item(i).data(EncodingRole) for i in range(self.count())]

    def text_paths(self) -> list[TextPath | str]:
        """What a run reads: each file with its encoding (a file that is not text as
        its path, so that reading it gives the clear error)."""
        return [TextPath(p, e) if e else p for p, e in zip(self.paths(), self.encodings())]

    def add(self, paths: Sequence[str | os.PathLike], encodings: Sequence[str] = ()) -> None:
        """Add files not listed yet, in the given encodings or the detected ones."""
        have = set(self.paths())
        for i, path in enumerate(map(str, paths)):
            if path in have:
                continue
            have.add(path)
            item = QListWidgetItem()
            item.setData(PathRole, path)
            try:
                encoding = file_encoding(path, _usable(encodings[i] if i < len(encodings) else ""))
            except FileError as exc:
                encoding = ""
                item.setToolTip(errors.message_of(exc))
            item.setData(EncodingRole, encoding)
            self.addItem(item)
            self._show(item)

    def restore(self, paths: Sequence[str], encodings: Sequence[str]) -> None:
        """Add the files remembered from the last session that still exist, each in its
        remembered encoding ("" or missing: detected again)."""
        padded = list(encodings) + [""] * (len(paths) - len(encodings))
        kept = [(p, e) for p, e in zip(paths, padded) if os.path.isfile(p)]
        self.add([p for p, _ in kept], [e for _, e in kept])

    def attach(self, box: EncodingBox) -> None:
        """``box`` shows the current file's encoding and applies the user's choice to the
        selected files; with none selected it is empty and off."""
        def follow_selection() -> None:
            selected = bool(self.selectedItems())
            encoding = self.current_encoding()
            box.setEnabled(selected)
            if selected and encoding is not None:
                box.show_encoding(encoding)
            else:
                box.setCurrentIndex(-1)

        box.chosen.connect(self.set_encoding)
        self.itemSelectionChanged.connect(follow_selection)
        follow_selection()

    def remove_selected(self) -> None:
        for item in self.selectedItems():
            self.takeItem(self.row(item))

    def current_encoding(self) -> str | None:
        """The encoding of the current file, None without one (or when it is not text)."""
        item = self.currentItem()
        return item.data(EncodingRole) or None if item is not None else None

    def set_encoding(self, encoding: str) -> None:
        """Read the selected files in ``encoding`` (the user's choice)."""
        for item in self.selectedItems():
            item.setData(EncodingRole, encoding)
            item.setToolTip("")
            self._show(item)

    @staticmethod
    def _show(item: QListWidgetItem) -> None:
        encoding = item.data(EncodingRole)
        item.setText(f"{item.data(PathRole)}  ·  {encoding_label(encoding) if encoding else '?'}")
