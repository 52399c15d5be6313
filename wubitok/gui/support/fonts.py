"""Fonts that show Chinese as characters on any machine.

A machine without a CJK font (a fresh Linux container, a minimal VM) would
draw every Han character as a box.  :func:`ensure_han_font` looks for an
installed font that really has Han glyphs and otherwise loads the bundled
Droid Sans Fallback (Apache-2.0, ``resources/fonts/``), then puts that family
behind the UI font so Latin text keeps the system look and Han text falls
through to a font that has it.
"""
from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QRawFont

from ...paths import resources_dir

BUNDLED_FONT = "fonts/DroidSansFallbackFull.ttf"
# Two common characters and a rarer one, so that a font with only a handful
# of Han glyphs (some symbol fonts) does not count.
_PROBES = "中嬴国"

# Below this code point every font in use draws the text (Latin, symbols);
# CJK and everything after it may lack glyphs (CJK Ext B is not in Droid).
_CHECK_FROM = 0x2E80

_han_family: str | None = None


def covers(family: str, text: str) -> bool:
    """True if ``family`` itself (not a fallback) has a glyph for every character of ``text``."""
    raw = QRawFont.fromFont(QFont(family), QFontDatabase.WritingSystem.SimplifiedChinese)
    # glyphIndexesForString, not supportsCharacter: the latter misses many
    # characters when given a Python str.
    return (raw.isValid() and raw.familyName().casefold() == family.casefold()
            and 0 not in raw.glyphIndexesForString(text))


def _has_han(family: str) -> bool:
    return covers(family, _PROBES)


def installed_han_family() -> str | None:
    """An installed font family with Han glyphs, preferring common UI fonts."""
    families = QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    preferred = ("Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC",
                 "WenQuanYi Micro Hei", "Droid Sans Fallback")
    ordered = [f for f in preferred if f in families] + [f for f in families if f not in preferred]
    for family in ordered[:12]:
        if _has_han(family):
            return family
    return None


def load_bundled_font() -> str:
    """Register the bundled CJK font with Qt and return its family name."""
    path = resources_dir() / BUNDLED_FONT
    font_id = QFontDatabase.addApplicationFont(str(path))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        raise RuntimeError(f"cannot load the bundled font {path}")
    return families[0]


def ensure_han_font(app: QGuiApplication, *, prefer_bundled: bool = False) -> str:
    """Make the app font show Han; returns the family that provides it."""
    global _han_family
    family = None if prefer_bundled else installed_han_family()
    if family is None:
        family = load_bundled_font()
    font = app.font()
    base = font.family()
    if base != family:
        font.setFamilies([base, family])
    app.setFont(font)
    _han_family = family
    can_draw.cache_clear()
    return family


def han_family() -> str | None:
    """The family chosen by :func:`ensure_han_font` (None before it ran)."""
    return _han_family


def han_font(point_size: float, *, bold: bool = False) -> QFont:
    """A font for large Han text (a glyph in a detail view, candidates).

    The Han family comes first, so characters and the Latin around them
    share one design at display sizes.
    """
    font = QFont(QGuiApplication.font())
    if _han_family:
        font.setFamilies([_han_family, *font.families()])
    font.setPointSizeF(point_size)
    font.setBold(bold)
    return font


def monospace_font(point_size: float | None = None) -> QFont:
    """Fixed-width font for codes, with the Han fallback behind it."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if _han_family:
        font.setFamilies([*font.families(), _han_family])
    if point_size:
        font.setPointSizeF(point_size)
    return font


@lru_cache(maxsize=16)
def _raw(family: str) -> QRawFont:
    return QRawFont.fromFont(QFont(family), QFontDatabase.WritingSystem.SimplifiedChinese)


@lru_cache(maxsize=8192)
def can_draw(ch: str) -> bool:
    """True if one of the app font's families has a glyph for ``ch``."""
    return any(0 not in _raw(f).glyphIndexesForString(ch) for f in QGuiApplication.font().families())


def drawable(text: str) -> str:
    """``text`` for display, with characters no font here can draw written as ⟨U+20000⟩.

    A box tells the user nothing; the code point at least says which
    character it is.  Only for showing: copy the real text, not this.
    """
    if all(ord(ch) < _CHECK_FROM for ch in text):
        return text
    return "".join(ch if ord(ch) < _CHECK_FROM or can_draw(ch) else f"⟨U+{ord(ch):04X}⟩" for ch in text)
