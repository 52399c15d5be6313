"""The typist's settings as the panes share them: one store, one signal.

The pad and Lookup both use the charset setting (which characters a code or a
reading lists); it is one setting, the one ``wubitok type`` and the IBus engine
read from ``ime_settings.json`` (:mod:`wubitok.ime.options`).  A pane that
changes a setting saves it here; every pane hears :attr:`TypingSettings.changed`
and follows.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import QObject, Signal

from ...errors import WubitokError
from ...ime.options import ImeOptions, load_options, update_options


class TypingSettings(QObject):
    """Reads and saves the typing settings; ``changed(dict)`` carries the settings just saved."""

    changed = Signal(dict)

    def options(self, fallback: ImeOptions | None = None) -> ImeOptions:
        """The saved settings; ``fallback`` (else the defaults) when the file cannot be read."""
        try:
            return load_options()
        except WubitokError:
            return fallback or ImeOptions()

    def save(self, fallback: ImeOptions | None = None, **changes: Any) -> None:
        """Save ``changes`` over the stored settings (only these: the IBus engine may have saved
        others meanwhile; a broken file is replaced by ``fallback`` and the changes)."""
        update_options(lambda saved: dataclasses.replace(saved, **changes), if_broken=fallback or ImeOptions())
        self.changed.emit(dict(changes))


_shared: TypingSettings | None = None


def shared_typing_settings() -> TypingSettings:
    global _shared
    if _shared is None:
        _shared = TypingSettings()
    return _shared
