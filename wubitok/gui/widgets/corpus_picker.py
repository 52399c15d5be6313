"""The corpus picker of Compare's corpus mode and of Train: the files with their
encodings (:class:`CorpusList`), Add files… and Remove, and the encoding box.

One widget for both panes, so that they offer the same buttons in the same
order, read the same settings key ("corpus") for the file dialog's folder and
report an empty list with the same error (``corpus.no_files``).  A pane adds
its own buttons under these (:meth:`CorpusPicker.add_button`).
"""
from __future__ import annotations

import os
from typing import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ...errors import InputError
from ...fileio import TextPath
from ..support.settings import Settings
from .corpus_list import CorpusList
from .encoding_box import EncodingBox


class CorpusPicker(QWidget):
    """File list on the left, its buttons in a column on the right."""

    filesChanged = Signal()

    def __init__(self, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self._settings = settings
        self.file_list = CorpusList(self)
        self.add_files_button = QPushButton(self)
        self.remove_files_button = QPushButton(self)
        self.encoding_label = QLabel(self)
        self.encoding_box = EncodingBox(self)
        self.file_list.attach(self.encoding_box)
        self.encoding_label.setBuddy(self.encoding_box)
        self._buttons = QVBoxLayout()
        for w in (self.add_files_button, self.remove_files_button, self.encoding_label, self.encoding_box):
            self._buttons.addWidget(w)
        self._buttons.addStretch(1)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.file_list, 1)
        row.addLayout(self._buttons)
        self.add_files_button.clicked.connect(self.choose_files)
        self.remove_files_button.clicked.connect(self.remove_selected)
        self.retranslate_ui()

    def add_button(self, widget: QWidget) -> None:
        """A pane's own button under the picker's (before the stretch), in Tab order after them."""
        self._buttons.insertWidget(self._buttons.count() - 1, widget)

    def retranslate_ui(self) -> None:
        self.add_files_button.setText(self.tr("Add files…"))
        self.remove_files_button.setText(self.tr("Remove"))
        self.file_list.setAccessibleName(self.tr("Corpus files"))
        self.encoding_label.setText(self.tr("&Encoding:"))
        self.encoding_box.setToolTip(self.tr("The encoding the selected files are read in (detected when added); "
                                             "choose another to read them in it"))

    # -- the files ---------------------------------------------------------------
    def paths(self) -> list[str]:
        return self.file_list.paths()

    def encodings(self) -> list[str]:
        return self.file_list.encodings()

    def count(self) -> int:
        return self.file_list.count()

    def text_paths(self) -> list[TextPath | str]:
        """What a run reads; an empty list is the user's error, said the same way in every pane."""
        paths = self.file_list.text_paths()
        if not paths:
            raise InputError("add at least one corpus file", code="corpus.no_files")
        return paths

    def add(self, paths: Sequence[str | os.PathLike]) -> None:
        self.file_list.add(paths)
        self.filesChanged.emit()

    def restore(self, paths: Sequence[str], encodings: Sequence[str]) -> None:
        self.file_list.restore(paths, encodings)
        self.filesChanged.emit()

    def remove_selected(self) -> None:
        self.file_list.remove_selected()
        self.filesChanged.emit()

    def choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Corpus files"), self._settings.last_dir(), self.tr("Text files (*.txt);;All files (*)")
        )
        if paths:
            self._settings.remember_file(paths[0], "corpus")
            self.add(paths)
