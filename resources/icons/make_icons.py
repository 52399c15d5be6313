"""Draw the app icon: 五 on a red rounded square, with the five Wubi zone colours.

    .venv/bin/python resources/icons/make_icons.py

Writes ``wubitok.svg`` (the glyph as an outline path, so the SVG needs no
font), ``wubitok-{16..512}.png``, ``wubitok.ico`` (Windows) and
``wubitok.icns`` (macOS) next to this script.  The glyph comes from the
bundled Droid Sans Fallback, so the icon looks the same on every machine.
"""
from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt  # noqa: E402
from PySide6.QtGui import (  # noqa: E402
    QColor,
    QFont,
    QFontDatabase,
    QGuiApplication,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
)

HERE = Path(__file__).resolve().parent
FONT = HERE.parent / "fonts" / "DroidSansFallbackFull.ttf"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# icns entry types holding PNG data, by pixel size.
ICNS_TYPES = ((16, b"icp4"), (32, b"icp5"), (64, b"icp6"), (128, b"ic07"), (256, b"ic08"), (512, b"ic09"))

UNIT = 512.0  # the design is drawn on a 512 x 512 canvas and scaled
TOP, BOTTOM = "#de4a3a", "#a8261c"
ZONES = ("#e0584a", "#f0a830", "#3fb950", "#3b82f6", "#9b5de5")  # as on the in-app keyboard, brighter


def glyph_path() -> QPainterPath:
    font_id = QFontDatabase.addApplicationFont(str(FONT))
    family = QFontDatabase.applicationFontFamilies(font_id)[0]
    font = QFont(family)
    font.setPixelSize(330)
    path = QPainterPath()
    path.addText(QPointF(0, 0), font, "五")
    # Centre the glyph's ink (not its advance box) a little above the middle.
    box = path.boundingRect()
    return path.translated(UNIT / 2 - box.center().x(), UNIT * 0.46 - box.center().y())


def square_path() -> QPainterPath:
    p = QPainterPath()
    p.addRoundedRect(QRectF(16, 16, UNIT - 32, UNIT - 32), 104, 104)
    return p


def stripe_rects() -> list[QRectF]:
    width = (UNIT - 2 * 120) / len(ZONES)
    return [QRectF(120 + i * width, 398, width - 8, 26) for i in range(len(ZONES))]


def render(size: int, glyph: QPainterPath) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.scale(size / UNIT, size / UNIT)
    gradient = QLinearGradient(0, 16, 0, UNIT - 16)
    gradient.setColorAt(0, QColor(TOP))
    gradient.setColorAt(1, QColor(BOTTOM))
    p.fillPath(square_path(), gradient)
    p.fillPath(glyph, QColor("white"))
    if size >= 32:  # at 16 and 24 px the stripe is a blur; the glyph alone reads better
        for rect, color in zip(stripe_rects(), ZONES):
            bar = QPainterPath()
            bar.addRoundedRect(rect, 8, 8)
            p.fillPath(bar, QColor(color))
    p.end()
    return image


def svg_path_data(path: QPainterPath) -> str:
    out, i = [], 0
    while i < path.elementCount():
        e = path.elementAt(i)
        if e.isMoveTo():
            out.append(f"M{e.x:.1f} {e.y:.1f}")
            i += 1
        elif e.isLineTo():
            out.append(f"L{e.x:.1f} {e.y:.1f}")
            i += 1
        else:  # a cubic curve: this element and two CurveToData elements
            c2, end = path.elementAt(i + 1), path.elementAt(i + 2)
            out.append(f"C{e.x:.1f} {e.y:.1f} {c2.x:.1f} {c2.y:.1f} {end.x:.1f} {end.y:.1f}")
            i += 3
    return " ".join(out) + " Z"


def svg(glyph: QPainterPath) -> str:
    bars = "\n".join(
        f'  <rect x="{r.x():.1f}" y="{r.y():.1f}" width="{r.width():.1f}" height="{r.height():.1f}" '
        f'rx="8" fill="{c}"/>' for r, c in zip(stripe_rects(), ZONES))
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <title>wubitok</title>
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="{TOP}"/>
      <stop offset="1" stop-color="{BOTTOM}"/>
    </linearGradient>
  </defs>
  <rect x="16" y="16" width="480" height="480" rx="104" fill="url(#bg)"/>
  <path fill="#ffffff" fill-rule="nonzero" d="{svg_path_data(glyph)}"/>
{bars}
</svg>
"""


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data)


def ico(images: dict[int, bytes]) -> bytes:
    """A Windows .ico with PNG-compressed entries (Vista and later read these)."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, blobs = b"", b""
    for size, data in images.items():
        side = 0 if size >= 256 else size  # 0 means 256
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset + len(blobs))
        blobs += data
    return header + entries + blobs


def icns(images: dict[int, bytes]) -> bytes:
    body = b"".join(kind + struct.pack(">I", 8 + len(images[size])) + images[size] for size, kind in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (Qt needs it)
    glyph = glyph_path()
    (HERE / "wubitok.svg").write_text(svg(glyph), encoding="utf-8")
    pngs = {size: png_bytes(render(size, glyph)) for size in SIZES}
    for size, data in pngs.items():
        (HERE / f"wubitok-{size}.png").write_bytes(data)
    (HERE / "wubitok.ico").write_bytes(ico({s: pngs[s] for s in ICO_SIZES}))
    (HERE / "wubitok.icns").write_bytes(icns(pngs))
    print(f"wrote {len(SIZES)} PNGs, wubitok.svg, wubitok.ico and wubitok.icns in {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
