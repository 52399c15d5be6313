"""The tokenizers the app knows: bundled, trained by the user, and opened files.

One :class:`ModelCatalog` is shared by the Tokenize, Compare and Train panes
(:func:`shared_catalog`), so a model saved by Train shows up in the other
panes' choosers at once (``modelAdded``).

Listing is cheap (file names only).  The models themselves are loaded only in
the encode worker processes (:mod:`wubitok.services.encode_pool`): :meth:`ModelCatalog.summary`
asks one for what the app shows of a model (display forms of its tokens, its
vocabulary size...), from a job thread.  It is thread-safe and caches each
summary until the model's file changes.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, Qt, Signal

from ...errors import Cancelled, FileError, WubitokError
from ...processes import WORKER_DIED
from ...services.encode_pool import ModelRef, ModelSummary, shared_pool, summarize_model
from ...services.model_files import bundled_models_dir, guess_kind, user_models_dir
from .settings import Settings

SOURCES = ("bundled", "user", "opened")

EntryRole = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class ModelEntry:
    name: str  # shown in choosers and tables; unique in a catalog
    path: Path
    source: str  # one of SOURCES
    kind: str  # one of wubitok.services.model_files.KIND_*

    def label(self) -> str:
        tag = {"bundled": "", "user": " (trained)", "opened": " (file)"}[self.source]
        return f"{self.name}{tag}"


class ModelCatalog(QAbstractListModel):
    """A list model of :class:`ModelEntry`; ``modelAdded(entry)`` on each new one."""

    modelAdded = Signal(object)
    # (entry, message) when a model fails to load; emitted from the loading thread,
    # handled in the catalog's (GUI) thread.
    _failedToLoad = Signal(object, str)

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
        self._cache: dict[Path, tuple[float, ModelSummary]] = {}
        # Models that failed to load: path -> (file mtime then, message).  A broken model
        # is marked in the choosers, not loaded again until its file changes, and not
        # chosen again at the next launch (remembered in Settings("models")).
        self._broken: dict[Path, tuple[float, str]] = {}
        self._lock = threading.Lock()
        self._failedToLoad.connect(self._mark_broken)
        if remember:
            for item in Settings("models").get_list("broken"):
                path, _, rest = item.partition("\t")
                mtime, _, message = rest.partition("\t")
                try:
                    self._broken[Path(path)] = (float(mtime), message)
                except ValueError:
                    continue
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
            reason = self.broken_reason(e)
            return str(e.path) + (f"\n{reason}" if reason else "")
        if role == EntryRole:
            return e
        return None

    def label(self, entry: ModelEntry) -> str:
        """``entry``'s name with where it comes from, in the UI language."""
        tag = {"bundled": "", "user": self.tr(" (trained)"), "opened": self.tr(" (file)")}[entry.source]
        if self.broken_reason(entry) is not None:
            tag += self.tr(" (broken)")
        return f"{entry.name}{tag}"

    # -- broken models -------------------------------------------------------
    def broken_reason(self, entry: ModelEntry) -> str | None:
        """Why ``entry`` failed to load, while its file is unchanged since; None if it is not broken."""
        with self._lock:
            hit = self._broken.get(entry.path)
        if hit is None:
            return None
        try:
            if entry.path.stat().st_mtime != hit[0]:
                return None  # the file changed: worth another try
        except OSError:
            pass
        return hit[1]

    def _mark_broken(self, entry: ModelEntry, message: str) -> None:
        if entry in self._entries:
            row = self._entries.index(entry)
            self.dataChanged.emit(self.index(row), self.index(row))
        self._save_broken()

    def _save_broken(self) -> None:
        if self._remember:
            with self._lock:
                items = [f"{p}\t{m}\t{msg}" for p, (m, msg) in self._broken.items()]
            Settings("models").set("broken", items)

    def remove(self, entry: ModelEntry) -> None:
        """Take a model the user opened off the list (its file stays); bundled and
        trained models are listed from their folders and cannot be removed here."""
        if entry.source != "opened" or entry not in self._entries:
            return
        row = self._entries.index(entry)
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._entries[row]
        self.endRemoveRows()
        with self._lock:
            self._cache.pop(entry.path, None)
            self._broken.pop(entry.path, None)
        self._save_broken()
        if self._remember:
            s = Settings("models")
            s.set("opened", [x for x in s.get_list("opened") if x != str(entry.path)])

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
    def summary(self, entry: ModelEntry, *, cancel: threading.Event | None = None) -> ModelSummary:
        """What the app shows of ``entry``'s model, from an encode worker that loads it
        (this process loads no model; see :class:`ModelSummary`).  Cached while the
        file is unchanged; any thread but the GUI's (it waits for the worker)."""
        try:
            mtime = entry.path.stat().st_mtime
        except OSError:
            raise FileError(f"{entry.path}: no such file") from None
        with self._lock:
            hit = self._cache.get(entry.path)
        if hit is not None and hit[0] == mtime:
            return hit[1]
        try:
            summary = shared_pool().call(summarize_model, ModelRef.of(entry.path, entry.kind), cancel=cancel)
        except Cancelled:
            raise
        except WubitokError as exc:
            if exc.code == WORKER_DIED:
                raise  # not the model's fault: the next request starts a fresh worker
            with self._lock:
                self._broken[entry.path] = (mtime, str(exc))
            self._failedToLoad.emit(entry, str(exc))
            raise
        with self._lock:
            self._cache[entry.path] = (mtime, summary)
            self._broken.pop(entry.path, None)
        return summary


_shared: ModelCatalog | None = None


def shared_catalog() -> ModelCatalog:
    """The app-wide catalog (created on first use, in the GUI thread)."""
    global _shared
    if _shared is None:
        _shared = ModelCatalog()
    return _shared
