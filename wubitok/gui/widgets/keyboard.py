"""A Wubi-86 keyboard diagram: the five stroke zones, keys of a code in order.

Wubi-86 splits the 25 letter keys into five zones by the first stroke of
their components: 1 横 G F D S A, 2 竖 H J K L M, 3 撇 T R E W Q, 4 捺
Y U I O P, 5 折 N B V C X; within a zone keys are numbered from the centre
outwards (G = 11, A = 15).  Each key shows its letter, its key-name
character (键名字) and its zone number; the keys of a code are outlined and
carry the position(s) at which they are typed, and, given a split, show the
roots (字根) typed on them instead of the key name.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ..support.fonts import han_font
from .split_row import root_label

ZONES = ("GFDSA", "HJKLM", "TREWQ", "YUIOP", "NBVCX")
KEY_NAMES = dict(zip("GFDSAHJKLMTREWQYUIOPNBVCX", "王土大木工目日口田山禾白月人金言立水火之已子女又纟"))
ROWS = ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")
# Row indents in key widths, as on a real keyboard.
ROW_OFFSETS = (0.0, 0.3, 0.8)
# Hues of the five zones (red, amber, green, blue, violet): distinct in both palettes.
ZONE_HUES = (2, 38, 130, 210, 275)
# The smallest type drawn (key letters, numbers, badges, legend), and the key size it fits in:
# a panel that must stay readable keeps the keyboard at least readable_width() wide.
MIN_LABEL_PX = 10
MIN_KEY_PX = 36
ZONE_STROKES = ("横", "竖", "撇", "捺", "折")


def zone_of(key: str) -> tuple[int, int] | None:
    """(zone 1-5, position 1-5) of a letter key; None for Z and non-keys."""
    k = key.upper()
    for z, keys in enumerate(ZONES, 1):
        if k in keys:
            return z, keys.index(k) + 1
    return None


def zone_color(zone: int, *, dark: bool, strong: bool = False) -> QColor:
    hue = ZONE_HUES[zone - 1]
    if strong:
        return QColor.fromHsl(hue, 200, 105 if not dark else 150)
    return QColor.fromHsl(hue, 150, 228) if not dark else QColor.fromHsl(hue, 90, 60)


class WubiKeyboard(QWidget):
    """Paints the keyboard; :meth:`set_code` highlights the keys of a code."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._code = ""
        self._roots: dict[str, str] = {}  # key -> the roots of a split typed on it
        self._keys_bottom = 0.0
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMinimumSize(300, 130)  # keys of 28 px still read; Lookup at 800x600 needs the room

    def code(self) -> str:
        return self._code

    def set_code(self, code: str | None, roots: list[tuple[str, str]] | None = None) -> None:
        """Highlight the keys of ``code``; with ``roots`` ((root, key) pairs of its split), each
        key shows its roots in place of its key name."""
        self._code = (code or "").lower()
        self._roots = {}
        for root, key in roots or ():
            if root and root not in self._roots.get(key.upper(), ""):
                self._roots[key.upper()] = self._roots.get(key.upper(), "") + root_label(root)
        self.setToolTip(" ".join(self._code.upper()))
        self.update()

    def roots(self) -> dict[str, str]:
        """Key -> the roots drawn on it."""
        return dict(self._roots)

    def positions(self) -> dict[str, list[int]]:
        """Key -> the 1-based positions at which it is typed in the current code."""
        out: dict[str, list[int]] = {}
        for i, ch in enumerate(self._code, 1):
            out.setdefault(ch.upper(), []).append(i)
        return out

    # -- geometry ------------------------------------------------------------
    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt API)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return int(width / (10 + ROW_OFFSETS[1] + 0.2) * 3.15 + 30)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(520, 218)

    @staticmethod
    def readable_width() -> int:
        """The width at which a key is MIN_KEY_PX: its labels (MIN_LABEL_PX) fit it."""
        return int(MIN_KEY_PX * (10 + ROW_OFFSETS[1] + 0.2)) + 1

    def _key_rects(self) -> dict[str, QRectF]:
        legend_h = 30.0
        cols = 10 + ROW_OFFSETS[1]
        unit = min(self.width() / (cols + 0.2), (self.height() - legend_h) / 3.15)
        gap = unit * 0.08
        x0 = (self.width() - unit * cols) / 2
        rects = {}
        for r, (row, off) in enumerate(zip(ROWS, ROW_OFFSETS)):
            for c, key in enumerate(row):
                rects[key] = QRectF(x0 + (off + c) * unit + gap / 2, r * unit * 1.05 + gap / 2,
                                    unit - gap, unit - gap)
        self._keys_bottom = max(r.bottom() for r in rects.values())
        return rects

    # -- painting ------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        dark = pal.color(QPalette.ColorRole.Window).lightness() < 128
        text = pal.color(QPalette.ColorRole.WindowText)
        positions = self.positions()
        rects = self._key_rects()
        unit = next(iter(rects.values())).width() if rects else 40
        fonts = self._key_fonts(unit)
        for key, rect in rects.items():
            zp = zone_of(key)
            hit = key in positions
            if zp is None:
                fill = pal.color(QPalette.ColorRole.Button)
            else:
                fill = zone_color(zp[0], dark=dark, strong=hit)
            path = QPainterPath()
            path.addRoundedRect(rect, unit * 0.14, unit * 0.14)
            p.fillPath(path, fill)
            if hit:
                p.setPen(QPen(text, max(2.0, unit * 0.06)))
                p.drawPath(path)
            else:
                p.setPen(QPen(pal.color(QPalette.ColorRole.Mid), 1))
                p.drawPath(path)
            fg = QColor("white") if hit and zp else text
            self._paint_key(p, key, rect, zp, fg, unit, fonts)
            if hit:
                self._paint_badge(p, rect, positions[key], unit, text, pal)
        self._paint_legend(p, dark, text)
        p.end()

    def _key_fonts(self, unit: float) -> dict[str, QFont]:
        """The fonts of every key at this size, made once per paint, not three per key:
        a repaint (one per keystroke) 5.2 -> 4.0 ms of CPU."""
        letter = QFont(self.font())
        letter.setPixelSize(max(MIN_LABEL_PX, int(unit * 0.24)))
        letter.setBold(True)
        small = QFont(self.font())
        small.setPixelSize(max(MIN_LABEL_PX, int(unit * 0.16)))
        name = han_font(1)
        name.setPixelSize(max(MIN_LABEL_PX + 2, int(unit * 0.4)))
        number = QFont(self.font())
        number.setPixelSize(max(MIN_LABEL_PX, int(unit * 0.17)))
        return {"letter": letter, "small": small, "name": name, "number": number}

    def _paint_key(self, p: QPainter, key: str, rect: QRectF, zp, fg: QColor, unit: float,
                   fonts: dict[str, QFont]) -> None:
        pad = unit * 0.08
        p.setFont(fonts["letter"])
        p.setPen(fg)
        p.drawText(
            rect.adjusted(pad, pad * 0.6, -pad, -pad), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, key
        )
        if zp is None:
            p.setFont(fonts["small"])
            # Below the key's letter, which a small key's text would otherwise run into.
            p.drawText(rect.adjusted(pad, unit * 0.26, -pad, -pad / 2), Qt.AlignmentFlag.AlignCenter,
                       QCoreApplication.translate("WubiKeyboard", "any\nkey"))
            return
        roots = self._roots.get(key)
        name = fonts["name"]
        if roots and len(roots) > 1:  # two roots on one key (彐 and 二 are not; 日 and 曰 may be)
            name = QFont(name)
            name.setPixelSize(max(8, int(unit * 0.8 / len(roots))))
        p.setFont(name)
        p.drawText(rect.adjusted(0, unit * 0.12, 0, 0), Qt.AlignmentFlag.AlignCenter, roots or KEY_NAMES[key])
        p.setFont(fonts["number"])
        p.drawText(rect.adjusted(pad, pad * 0.6, -pad, -pad), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
                   f"{zp[0]}{zp[1]}")

    def _paint_badge(self, p: QPainter, rect: QRectF, order: list[int], unit: float, text: QColor,
                     pal: QPalette) -> None:
        label = "·".join(str(i) for i in order)
        font = QFont(self.font())
        font.setPixelSize(max(MIN_LABEL_PX, int(unit * 0.22)))
        font.setBold(True)
        p.setFont(font)
        w = max(unit * 0.34, p.fontMetrics().horizontalAdvance(label) + unit * 0.14)
        h = unit * 0.32
        badge = QRectF(rect.right() - w + unit * 0.08, rect.bottom() - h + unit * 0.08, w, h)
        path = QPainterPath()
        path.addRoundedRect(badge, h / 2, h / 2)
        p.fillPath(path, text)
        p.setPen(pal.color(QPalette.ColorRole.Window))
        p.drawText(badge, Qt.AlignmentFlag.AlignCenter, label)

    def _paint_legend(self, p: QPainter, dark: bool, text: QColor) -> None:
        font = han_font(1)
        sw, gap, spacing = 12, 5, 16
        # Largest type that fits; when even the smallest does not, drop the key letters.
        attempts = [(px, True) for px in (13, 12, 11, 10)] + [(11, False), (MIN_LABEL_PX, False)]
        for px, with_keys in attempts:
            items = [f"{z} {ZONE_STROKES[z - 1]}" + (f" {ZONES[z - 1]}" if with_keys else "") for z in range(1, 6)]
            font.setPixelSize(px)
            p.setFont(font)
            fm = p.fontMetrics()
            widths = [sw + gap + fm.horizontalAdvance(s) for s in items]
            total = sum(widths) + spacing * (len(items) - 1)
            if total <= self.width():
                break
        x = max(0.0, (self.width() - total) / 2)
        y = min(self.height() - 20.0, self._keys_bottom + 8)
        for z, (s, w) in enumerate(zip(items, widths), 1):
            path = QPainterPath()
            path.addRoundedRect(QRectF(x, y + 4, sw, sw), 3, 3)
            p.fillPath(path, zone_color(z, dark=dark, strong=True))
            p.setPen(text)
            p.drawText(QRectF(x + sw + gap, y, w, 20), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, s)
            x += w + spacing
