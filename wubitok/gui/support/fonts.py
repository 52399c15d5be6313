"""Fonts that show Chinese as characters on any machine.

A machine without a CJK font (a fresh Linux container, a minimal VM) would
draw every Han character as a box.  :func:`ensure_han_font` looks for an
installed font that really has Han glyphs and otherwise loads the bundled
Droid Sans Fallback (Apache-2.0, ``resources/fonts/``), then puts that family
behind the UI font so Latin text keeps the system look and Han text falls
through to a font that has it.  Behind that comes a subset of HanaMinB for
CJK Extension B (𠀀, 𠉎, the Ext B characters of Big5-HKSCS), which neither
Droid nor most CJK UI fonts have.
"""
from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QRawFont

from ...paths import resources_dir

BUNDLED_FONT = "fonts/DroidSansFallbackFull.ttf"
EXT_B_FONT = "fonts/HanaMinB-ExtB-subset.ttf"
# Two common characters and a rarer one, so that a font with only a handful
# of Han glyphs (some symbol fonts) does not count.
_PROBES = "中嬴国"

# Below this code point every font in use draws the text (Latin, symbols);
# CJK and everything after it may lack glyphs (CJK Ext B is not in Droid).
_CHECK_FROM = 0x2E80

_han_family: str | None = None
_ext_b_family: str | None = None


def _raw_font(family: str) -> QRawFont:
    # Asked for Chinese, a family that does not declare it (HanaMinB declares only
    # "Symbol") is swapped for one that does; asked for any script, it is itself.
    ws = QFontDatabase.WritingSystem.SimplifiedChinese
    if ws not in QFontDatabase.writingSystems(family):
        ws = QFontDatabase.WritingSystem.Any
    return QRawFont.fromFont(QFont(family), ws)


def covers(family: str, text: str) -> bool:
    """True if ``family`` itself (not a fallback) has a glyph for every character of ``text``."""
    raw = _raw_font(family)
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


def load_bundled_font(name: str = BUNDLED_FONT) -> str:
    """Register a bundled font with Qt and return its family name."""
    path = resources_dir() / name
    font_id = QFontDatabase.addApplicationFont(str(path))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        raise RuntimeError(f"cannot load the bundled font {path}")
    return families[0]


def ensure_han_font(app: QGuiApplication, *, prefer_bundled: bool = False) -> str:
    """Make the app font show Han; returns the family that provides it."""
    global _han_family, _ext_b_family
    family = None if prefer_bundled else installed_han_family()
    if family is None:
        family = load_bundled_font()
    if _ext_b_family is None:
        _ext_b_family = load_bundled_font(EXT_B_FONT)
    font = app.font()
    base = font.family()
    font.setFamilies(_unique([base, family, _ext_b_family]))
    app.setFont(font)
    _han_family = family
    can_draw.cache_clear()
    return family


def _unique(families: list[str]) -> list[str]:
    return list(dict.fromkeys(families))


def fallbacks() -> list[str]:
    """The families behind a font's own: Han, then CJK Extension B."""
    return [f for f in (_han_family, _ext_b_family) if f]


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
        font.setFamilies(_unique([_han_family, *font.families(), *fallbacks()]))
    font.setPointSizeF(point_size)
    font.setBold(bold)
    return font


def monospace_font(point_size: float | None = None) -> QFont:
    """Fixed-width font for codes, with the Han fallback behind it."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if _han_family:
        font.setFamilies(_unique([*font.families(), *fallbacks()]))
    if point_size:
        font.setPointSizeF(point_size)
    return font


@lru_cache(maxsize=16)
def _raw(family: str) -> QRawFont:
    return _raw_font(family)


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
