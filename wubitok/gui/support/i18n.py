"""UI language: English (the source strings) or 简体中文, switchable at run time.

Installing or removing a QTranslator makes Qt send every widget a
LanguageChange event; widgets re-read their texts from ``tr()`` then, so a
switch takes effect at once, without a restart.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from ...paths import resources_dir

# Shown in the Language menu in their own script, whatever the UI language.
LANGUAGE_NAMES = {"en": "English", "zh_CN": "简体中文"}

_installed: list[QTranslator] = []
_loaded: dict[str, list[QTranslator]] = {}
_current = "en"


def resolve(language: str) -> str:
    """The concrete language for a setting: ``system`` becomes ``en`` or ``zh_CN``."""
    if language in LANGUAGE_NAMES:
        return language
    for name in QLocale.system().uiLanguages():
        if name.lower().startswith("zh"):
            return "zh_CN"
        if name.lower().startswith("en"):
            return "en"
    return "en"


def translations_dir():
    return resources_dir() / "translations"


def _translators(language: str) -> list[QTranslator]:
    """The translators of ``language``, loaded once: Qt's own file alone took
    several ms to read again at every switch."""
    if language not in _loaded:
        app = QCoreApplication.instance()
        files = ([(str(translations_dir() / "wubitok_zh_CN.qm"), ""),
                  # Qt's own strings: dialog buttons, file dialogs, context menus.
                  ("qtbase_zh_CN", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))]
                 if language == "zh_CN"
                 # English is the source text; its translation file holds only plural forms ("1 file").
                 else [(str(translations_dir() / "wubitok_en.qm"), "")])
        loaded = []
        for name, folder in files:
            tr = QTranslator(app)
            if tr.load(name, folder):
                loaded.append(tr)
        _loaded[language] = loaded
    return _loaded[language]


def set_language(language: str) -> str:
    """Install the translators for ``language``; returns the language in effect."""
    global _current
    app = QCoreApplication.instance()
    effective = resolve(language)
    for tr in _installed:
        app.removeTranslator(tr)
    _installed[:] = _translators(effective)
    for tr in _installed:
        app.installTranslator(tr)
    QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China) if effective == "zh_CN"
                       else QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    _current = effective
    return effective


def current_language() -> str:
    return _current
