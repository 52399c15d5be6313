"""Light and dark palettes, following the system's colour scheme.

Fusion is used everywhere so both palettes look the same on every platform;
the colours are set explicitly rather than taken from the platform, which
may not offer a dark palette at all.

The style sheet (``resources/style/wubitok.qss``) is given only to the few
widgets it styles (:func:`use_style_sheet`), not to the application: an
application style sheet sends every widget through Qt's style sheet style,
which made building a pane up to 4 times slower on the GUI thread (Convert
47 -> 9-13 ms).  Headings are bold through their font (:func:`make_heading`).
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QLabel, QProxyStyle, QStyle, QStyleOption, QWidget

from ...paths import resources_dir

# The widgets given the style sheet, by id: its palette() colours are taken when it
# is set, so a theme switch sets it again on each.
_styled: dict[int, QWidget] = {}

_LIGHT = {
    "Window": "#f4f5f7", "WindowText": "#1d1f23", "Base": "#ffffff", "AlternateBase": "#f0f2f5",
    "Text": "#1d1f23", "Button": "#e9ebef", "ButtonText": "#1d1f23", "BrightText": "#ffffff",
    "Highlight": "#2f6fdb", "HighlightedText": "#ffffff", "ToolTipBase": "#ffffff", "ToolTipText": "#1d1f23",
    "Link": "#2a63c6", "PlaceholderText": "#6b7079", "Mid": "#c3c7ce", "Midlight": "#dde0e5",
    "Dark": "#9aa0a8", "Shadow": "#6b7078", "Light": "#ffffff",
}
_DARK = {
    "Window": "#24262b", "WindowText": "#e4e6ea", "Base": "#1b1d21", "AlternateBase": "#25282d",
    "Text": "#e4e6ea", "Button": "#33363c", "ButtonText": "#e4e6ea", "BrightText": "#ffffff",
    "Highlight": "#2f6fdb", "HighlightedText": "#ffffff", "ToolTipBase": "#33363c", "ToolTipText": "#e4e6ea",
    "Link": "#7eb0ff", "PlaceholderText": "#8a9099", "Mid": "#4a4e56", "Midlight": "#3b3e45",
    "Dark": "#15171a", "Shadow": "#0b0c0e", "Light": "#50545c",
}


class VisibleIndicators(QProxyStyle):
    """Fusion, with a clear outline round check boxes and radio buttons, and a
    focus mark on text views, tables and lists.

    Fusion outlines check boxes in a darker shade of the window colour, which on a
    dark window is nearly black on a nearly black box: an unchecked box
    vanished.  The outline here is the text colour, half transparent.

    Fusion marks the focus of a line edit with a highlight-coloured frame but
    not that of a multi-line text box, a table or a list: Tab into Tokenize's
    coloured view or a results table showed nothing.  They get the same frame,
    two pixels wide (their frames are 2 px here, Fusion's 1 px left only a
    hairline for the mark).  Unfocused, their border is :func:`border_colour`:
    Fusion's, a shade of the window colour, all but vanished in the dark theme
    (Convert's two editors had almost no border).
    """

    def pixelMetric(self, metric: QStyle.PixelMetric, option: QStyleOption | None = None,  # noqa: N802 (Qt name)
                    widget: QWidget | None = None) -> int:
        if metric == QStyle.PixelMetric.PM_DefaultFrameWidth and isinstance(widget, QAbstractScrollArea):
            return max(2, super().pixelMetric(metric, option, widget))
        return super().pixelMetric(metric, option, widget)

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption,  # noqa: N802 (Qt name)
                      painter: QPainter, widget: QWidget | None = None) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element == QStyle.PrimitiveElement.PE_Frame and isinstance(widget, QAbstractScrollArea):
            painter.save()
            painter.setBrush(Qt.BrushStyle.NoBrush)
            if option.state & QStyle.StateFlag.State_HasFocus:
                painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Highlight), 2))
                painter.drawRect(QRectF(option.rect).adjusted(1, 1, -1, -1))
            else:
                painter.setPen(QPen(border_colour(option.palette), 1))
                painter.drawRect(QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5))
            painter.restore()
            return
        radio = element == QStyle.PrimitiveElement.PE_IndicatorRadioButton
        if not radio and element != QStyle.PrimitiveElement.PE_IndicatorCheckBox:
            return
        colour = QColor(option.palette.color(QPalette.ColorRole.Text))
        colour.setAlpha(150)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(colour)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        box = QRectF(option.rect).adjusted(1.5, 1.5, -1.5, -1.5)
        if radio:
            painter.drawEllipse(box)
        else:
            painter.drawRoundedRect(box, 1.5, 1.5)
        painter.restore()


def system_prefers_dark() -> bool:
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None)  # Qt 6.5+
    if scheme is not None:
        return scheme() == Qt.ColorScheme.Dark
    return False


def palette(dark: bool) -> QPalette:
    pal = QPalette()
    for role_name, color in (_DARK if dark else _LIGHT).items():
        role = getattr(QPalette.ColorRole, role_name)
        pal.setColor(role, QColor(color))
    disabled = QColor("#6c717a") if dark else QColor("#a0a5ad")
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return pal


def border_colour(pal: QPalette) -> QColor:
    """The border of text boxes, tables and lists: at least 3:1 against the base and the
    window in both themes (WCAG's minimum for the edge of a control)."""
    base, text = pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Text)
    t = 0.55
    return QColor.fromRgbF(base.redF() + (text.redF() - base.redF()) * t,
                           base.greenF() + (text.greenF() - base.greenF()) * t,
                           base.blueF() + (text.blueF() - base.blueF()) * t)


def _luminance(c: QColor) -> float:
    """Relative luminance (WCAG 2)."""
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21; text needs 4.5."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable(colour: QColor | str, background: QColor, minimum: float = 4.5) -> QColor:
    """``colour`` (a tokenizer's, say), made lighter on a dark background or darker on a
    light one until text in it reaches ``minimum`` contrast; its hue stays."""
    c = QColor(colour)
    dark = background.lightness() < 128
    h, s, lightness, a = c.getHsl()
    while contrast_ratio(c, background) < minimum and 0 < lightness < 255:
        lightness = min(255, lightness + 8) if dark else max(0, lightness - 8)
        c = QColor.fromHsl(h, s, lightness, a)
    return c


def muted_colour(widget: QWidget, background: QPalette.ColorRole = QPalette.ColorRole.Window) -> str:
    """The colour of secondary text (candidate numbers, hints) in a widget's rich text, on the
    palette's ``background``: the placeholder colour, darkened or lightened until it reaches
    4.5:1 there (CSS ``gray`` is 3.9:1 on white)."""
    pal = widget.palette()
    return readable(pal.color(QPalette.ColorRole.PlaceholderText), pal.color(background)).name()


def is_dark(theme: str) -> bool:
    return theme == "dark" or (theme == "system" and system_prefers_dark())


def style_sheet() -> str:
    """The text of ``wubitok.qss`` ("" if it is missing)."""
    qss = resources_dir() / "style" / "wubitok.qss"
    return qss.read_text(encoding="utf-8") if qss.is_file() else ""


def use_style_sheet(widget: QWidget) -> None:
    """Give ``widget`` (and so its children) the app's style sheet, kept up to date across theme switches.

    Its selectors name what they style (``QListWidget#paneList``, ``QGroupBox``,
    ``QFrame#candidateBar``); call this on the widget they match.
    """
    key = id(widget)
    _styled[key] = widget
    widget.destroyed.connect(lambda *_: _styled.pop(key, None))
    widget.setStyleSheet(style_sheet())


def make_heading(label: QLabel) -> None:
    """Bold text over a section of a pane."""
    font = label.font()
    font.setBold(True)
    label.setFont(font)


def apply_theme(theme: str) -> bool:
    """Set style and palette for ``theme`` and restyle the styled widgets; returns True if dark."""
    app = QApplication.instance()
    if not isinstance(app.style(), VisibleIndicators):
        app.setStyle(VisibleIndicators("Fusion"))
    dark = is_dark(theme)
    app.setPalette(palette(dark))
    sheet = style_sheet()
    for widget in list(_styled.values()):
        widget.setStyleSheet(sheet)  # again: palette() in it is read now
    return dark
