"""The typist's settings as the panes share them: one store, one signal, one set of names.

The pad and Lookup both use the charset setting (which characters a code or a
reading lists); it is one setting, the one ``wubitok type`` and the IBus engine
read from ``ime_settings.json`` (:mod:`wubitok.ime.options`).  A pane that
changes a setting saves it here; every pane hears :attr:`TypingSettings.changed`
and follows.  What the settings and their choices are called (:func:`setting_texts`)
is here too: the pad's Options menu and Edit > Preferences say the same.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

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


def setting_texts() -> tuple[dict[str, str], dict[tuple[str, object], str]]:
    """What the typist's settings and their choices are called, in the current language:
    the Options menu's and the Preferences dialog's words alike."""
    # Literal translate() calls, so that lupdate finds the strings.
    titles = {
        "page_size": QCoreApplication.translate("TypingSettings", "Candidates per page"),
        "auto_commit": QCoreApplication.translate("TypingSettings",
                                                  "Commit a 4-key code with a single candidate at once"),
        "top_commit": QCoreApplication.translate("TypingSettings", "A 5th key commits the first candidate (顶字)"),
        "empty_code": QCoreApplication.translate("TypingSettings", "A code with no candidates, on Space"),
        "learning": QCoreApplication.translate("TypingSettings", "Learn my choices (most used first)"),
        "simplified_first": QCoreApplication.translate("TypingSettings", "Simplified characters first"),
        "output": QCoreApplication.translate("TypingSettings", "Output script"),
    }
    choices: dict[tuple[str, object], str] = {
        ("empty_code", "clear"): QCoreApplication.translate("TypingSettings", "Clear it"),
        ("empty_code", "keep"): QCoreApplication.translate("TypingSettings", "Keep it"),
        ("empty_code", "beep"): QCoreApplication.translate("TypingSettings", "Keep it and beep"),
        ("charset", "all"): QCoreApplication.translate("TypingSettings", "All characters (incl. CJK Ext B)"),
        ("charset", "gbk"): QCoreApplication.translate("TypingSettings", "GBK (simplified and traditional)"),
        ("charset", "gb2312"): QCoreApplication.translate("TypingSettings", "Simplified only (GB2312)"),
        ("output", "unchanged"): QCoreApplication.translate("TypingSettings", "As typed"),
        ("output", "simplified"): QCoreApplication.translate("TypingSettings", "Simplified"),
        ("output", "traditional"): QCoreApplication.translate("TypingSettings", "Traditional"),
        ("output", "tw"): QCoreApplication.translate("TypingSettings", "Traditional (Taiwan)"),
        ("output", "hk"): QCoreApplication.translate("TypingSettings", "Traditional (Hong Kong)"),
    }
    return titles, choices


def needs_text(choice: str, needs: str) -> str:
    """A choice whose part is not installed, saying which part (``missing_part``)."""
    return (QCoreApplication.translate("TypingSettings", "{choice} (needs {part})")
            .replace("{choice}", choice).replace("{part}", needs.split(":")[0]))
