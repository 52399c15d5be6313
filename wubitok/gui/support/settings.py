"""Remembered window layout, options and recent files.

Stored with QSettings in an INI file in the user data folder, never in the
registry or a plist: ``WUBITOK_DATA_DIR`` then moves it with everything else
(tests and portable installs rely on that), and it is a file users can read.

Each pane uses its own group: ``Settings("lookup").get_str("mode", "auto")``.
"""
from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from PySide6.QtCore import QByteArray, QSettings

from ...paths import user_data_dir

RECENT_FILES_MAX = 10

# Set while a screenshot renders: the throw-away copy every Settings reads and writes.
_scratch_path: Path | None = None


def settings_path() -> Path:
    return _scratch_path or user_data_dir() / "wubitok-gui.ini"


@contextmanager
def scratch_settings() -> Iterator[Path]:
    """Use a throw-away copy of the user's settings until the block ends.

    A screenshot starts from what the user remembered (language, theme,
    options) but what its panes store (their --text, the pane shown) must not
    show up the next time the app is opened.
    """
    global _scratch_path
    user_file = settings_path()
    with tempfile.TemporaryDirectory(prefix="wubitok-screenshot-") as folder:
        copy = Path(folder) / user_file.name
        try:
            shutil.copyfile(user_file, copy)
        except OSError:
            pass  # none yet, or unreadable: the screenshot starts from the defaults
        _scratch_path = copy
        try:
            yield copy
        finally:
            _scratch_path = None


class Settings:
    """Typed access to one group of the app's settings.

    INI files store everything as text; the getters turn it back into the
    type asked for and fall back to the default on anything unreadable, so a
    hand-edited or old settings file never breaks the app.
    """

    def __init__(self, group: str = ""):
        path = settings_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._q = QSettings(str(path), QSettings.Format.IniFormat)
        self._group = group
        if group:
            self._q.beginGroup(group)

    def contains(self, key: str) -> bool:
        return self._q.contains(key)

    def _raw(self, key: str) -> Any:
        return self._q.value(key)

    def get_str(self, key: str, default: str = "") -> str:
        value = self._raw(key)
        return value if isinstance(value, str) else default

    def get_int(self, key: str, default: int = 0) -> int:
        value = self._raw(key)
        try:
            return int(value) if value is not None else default
        except (TypeError, ValueError):
            return default

    def get_bool(self, key: str, default: bool = False) -> bool:
        value = self._raw(key)
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        return default

    def get_bytes(self, key: str) -> QByteArray | None:
        value = self._raw(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def get_list(self, key: str) -> list[str]:
        value = self._raw(key)
        # An INI list of one item reads back as a plain string.
        if isinstance(value, str):
            return [value] if value else []
        if isinstance(value, (list, tuple)):
            return [v for v in value if isinstance(v, str)]
        return []

    def set(self, key: str, value: Any) -> None:
        self._q.setValue(key, value)

    def remove(self, key: str) -> None:
        self._q.remove(key)

    def recent_files(self, kind: str = "files") -> list[str]:
        """Recently used files, newest first, those that still exist."""
        return [p for p in self.get_list(f"recent/{kind}") if Path(p).exists()]

    def add_recent_file(self, path: str | Path, kind: str = "files") -> None:
        p = str(Path(path).resolve())
        recent = [p] + [r for r in self.get_list(f"recent/{kind}") if r != p]
        self.set(f"recent/{kind}", recent[:RECENT_FILES_MAX])

    def last_dir(self) -> str:
        """The folder of the last opened or saved file (for file dialogs)."""
        d = self.get_str("last_dir")
        return d if d and Path(d).is_dir() else str(Path.home())

    def remember_file(self, path: str | Path, kind: str = "files") -> None:
        self.add_recent_file(path, kind)
        self.set("last_dir", str(Path(path).resolve().parent))

    def chosen_encoding(self, path: str | Path) -> str | None:
        """The encoding the user last chose for the file ``path``; None: none (detect it)."""
        where = str(Path(path).resolve())
        for entry in self.get_list("chosen_encodings"):
            encoding, _, entry_path = entry.partition(" ")  # codec names have no spaces
            if entry_path == where:
                return encoding
        return None

    def remember_encoding(self, path: str | Path, encoding: str | None) -> None:
        """Keep the user's ``encoding`` for the file ``path`` (None forgets it), for the
        RECENT_FILES_MAX files chosen for last."""
        where = str(Path(path).resolve())
        others = [e for e in self.get_list("chosen_encodings") if e.partition(" ")[2] != where]
        newest = [f"{encoding} {where}"] if encoding else []
        self.set("chosen_encodings", (newest + others)[:RECENT_FILES_MAX])

    def sync(self) -> None:
        self._q.sync()
