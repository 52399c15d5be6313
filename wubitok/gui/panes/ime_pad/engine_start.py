"""Opening the pad's input engine with the saved settings, saying once what could not be had.

A problem does not stop the pad: a broken settings file gives the defaults, a user database
that cannot be opened gives typing without learning; each is a dialog shown once the pane is up.
"""
from __future__ import annotations

import dataclasses

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QWidget

from ....errors import WubitokError
from ....ime import ImeEngine, ImeOptions, load_options
from ....ime.options import settings_path
from ....wubi.dictionary import CHARSETS
from ...support import errors
from ...support.settings import Settings


def _later(parent: QWidget, problem: WubitokError | str, title: str | None = None) -> None:
    """Show ``problem`` once the event loop runs (the pane is still being built)."""
    QTimer.singleShot(0, lambda: errors.show_error(parent, problem, title=title))


def _load_options(parent: QWidget, settings: Settings) -> ImeOptions:
    """The saved settings (the store ``wubitok type`` and the IBus engine share).  Before that
    store existed the pad kept three settings of its own (in ``settings``): they are taken over once."""
    try:
        if not settings_path().exists():
            old = {name: settings.get_bool(name, True) for name in ("learning", "auto_commit")
                   if settings.contains(name)}
            if settings.get_str("charset", "") in CHARSETS:
                old["charset"] = settings.get_str("charset")
            return dataclasses.replace(ImeOptions(), **old)
        return load_options()
    except WubitokError as exc:  # a broken settings file: the defaults, and say why
        _later(parent, exc)
        return ImeOptions()


def open_engine(parent: QWidget, settings: Settings) -> ImeEngine:
    """The engine with the saved settings; its problems are shown over ``parent``."""
    options = _load_options(parent, settings).to_dict()
    try:
        engine = ImeEngine(**options)
    except WubitokError as exc:  # the user database cannot be opened: type without learning
        options["learning"] = False
        _later(parent, exc)
        return ImeEngine(**options)
    notices = engine.take_notices()  # a saved setting that cannot be in force here: said once
    if notices:
        _later(parent, "\n".join(notices),
               title=QCoreApplication.translate("ImePadPane", "A setting is not available"))
    db = engine.user_db
    if db is not None and db.moved_aside is not None:
        # The pane's translation context: these strings were the pane's own before this module held them.
        damaged = QCoreApplication.translate(
            "ImePadPane", "Your user database was damaged ({damage}). It is kept as {aside}; "
            "learning starts afresh with a new one.")
        _later(parent, damaged.replace("{damage}", db.damage).replace("{aside}", str(db.moved_aside)),
               title=QCoreApplication.translate("ImePadPane", "User database replaced"))
    return engine
