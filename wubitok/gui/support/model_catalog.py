"""The tokenizers the app knows: bundled, trained by the user, and opened files.

One :class:`ModelCatalog` is shared by the Tokenize, Compare and Train panes
(:func:`shared_catalog`), so a model saved by Train shows up in the other
panes' choosers at once (``modelAdded``).

Listing is cheap (file names only); loading a model can take a while for a
big vocabulary, so :meth:`ModelCatalog.load` is meant to run in a worker.  It
is thread-safe and caches each model until its file changes.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, Qt, Signal

from ...engines.base import Tokenizer
from ...errors import FileError
from ...model_files import bundled_models_dir, guess_kind, load_model_file, user_models_dir
from .settings import Settings

SOURCES = ("bundled", "user", "opened")

EntryRole = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class ModelEntry:
    name: str  # shown in choosers and tables; unique in a catalog
    path: Path
    source: str  # one of SOURCES
    kind: str  # one of wubitok.model_files.KIND_*

    def label(self) -> str:
        tag = {"bundled": "", "user": " (trained)", "opened": " (file)"}[self.source]
        return f"{self.name}{tag}"


class ModelCatalog(QAbstractListModel):
    """A list model of :class:`ModelEntry`; ``modelAdded(entry)`` on each new one."""

    modelAdded = Signal(object)

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        bundled_dir: Path | None = None,
        user_dir: Path | None = None,
        remember: bool = True,
    ):
        super().__init__(parent)
        self._bundled_dir = bundled_dir or bundled_models_dir()
        self._user_dir = user_dir or user_models_dir()
        self._remember = remember
        self._entries: list[ModelEntry] = []
        self._cache: dict[Path, tuple[float, Tokenizer]] = {}
        self._lock = threading.Lock()
        self.refresh()

    # -- Qt model ------------------------------------------------------------
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self._entries)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._entries)):
            return None
        e = self._entries[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.label(e)
        if role == Qt.ItemDataRole.ToolTipRole:
            return str(e.path)
        if role == EntryRole:
            return e
        return None

    def label(self, entry: ModelEntry) -> str:
        """``entry``'s name with where it comes from, in the UI language."""
        tag = {"bundled": "", "user": self.tr(" (trained)"), "opened": self.tr(" (file)")}[entry.source]
        return f"{entry.name}{tag}"

    # -- entries -------------------------------------------------------------
    def entries(self) -> list[ModelEntry]:
        return list(self._entries)

    def entry(self, row: int) -> ModelEntry:
        return self._entries[row]

    def find(self, key: str | os.PathLike) -> ModelEntry | None:
        """An entry by name, label or path."""
        for e in self._entries:
            if key in (e.name, e.label()):
                return e
        try:
            p = Path(key).resolve()
        except (OSError, ValueError):
            return None
        return next((e for e in self._entries if e.path == p), None)

    def row_of(self, entry: ModelEntry) -> int:
        return self._entries.index(entry)

    def refresh(self) -> None:
        """Rescan the bundled and user folders; opened files stay."""
        self.beginResetModel()
        opened = [e for e in self._entries if e.source == "opened"]
        self._entries = []
        for source, folder in (("bundled", self._bundled_dir), ("user", self._user_dir)):
            for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
                self._entries.append(self._make_entry(path, source))
        for e in opened:
            if e.path not in {x.path for x in self._entries}:
                self._entries.append(e)
        if self._remember:
            for p in Settings("models").get_list("opened"):
                path = Path(p)
                if path.is_file() and path.resolve() not in {x.path for x in self._entries}:
                    self._entries.append(self._make_entry(path, "opened"))
        self.endResetModel()

    def _make_entry(self, path: Path, source: str) -> ModelEntry:
        path = path.resolve()
        stem = path.stem if path.name != "tokenizer.json" else f"{path.parent.name}/tokenizer"
        name, n = stem, 2
        taken = {e.name for e in self._entries}
        while name in taken:
            name, n = f"{stem} ({n})", n + 1
        return ModelEntry(name, path, source, guess_kind(path))

    def _add(self, path: str | os.PathLike, source: str) -> ModelEntry:
        p = Path(path)
        if not p.is_file():
            raise FileError(f"{p}: no such file")
        existing = self.find(p)
        if existing is not None:
            with self._lock:
                self._cache.pop(existing.path, None)  # retrained in place: reload it
            return existing
        entry = self._make_entry(p, source)
        row = len(self._entries)
        self.beginInsertRows(QModelIndex(), row, row)
        self._entries.append(entry)
        self.endInsertRows()
        self.modelAdded.emit(entry)
        return entry

    def add_file(self, path: str | os.PathLike) -> ModelEntry:
        """A model file the user opened (ours, HF tokenizer.json, SentencePiece .model)."""
        entry = self._add(path, "opened")
        if self._remember and entry.source == "opened":
            s = Settings("models")
            paths = [str(entry.path)] + [x for x in s.get_list("opened") if x != str(entry.path)]
            s.set("opened", paths[:20])
        return entry

    def add_trained(self, path: str | os.PathLike) -> ModelEntry:
        """A model the Train pane just saved (in the user folder or anywhere)."""
        p = Path(path).resolve()
        inside = p.parent == self._user_dir.resolve()
        return self._add(p, "user" if inside else "opened")

    # -- loading -------------------------------------------------------------
    def load(self, entry: ModelEntry) -> Tokenizer:
        """The tokenizer of ``entry``, cached while its file is unchanged (any thread)."""
        try:
            mtime = entry.path.stat().st_mtime
        except OSError:
            raise FileError(f"{entry.path}: no such file") from None
        with self._lock:
            hit = self._cache.get(entry.path)
        if hit is not None and hit[0] == mtime:
            return hit[1]
        tok = load_model_file(entry.path, entry.kind)
        with self._lock:
            self._cache[entry.path] = (mtime, tok)
        return tok


_shared: ModelCatalog | None = None


def shared_catalog() -> ModelCatalog:
    """The app-wide catalog (created on first use, in the GUI thread)."""
    global _shared
    if _shared is None:
        _shared = ModelCatalog()
    return _shared
