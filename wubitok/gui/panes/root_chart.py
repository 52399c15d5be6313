"""The root chart (字根表): the 25 keys in their five areas, with their roots and 口诀.

Typing in the search box finds a root, a key or a character: the keys that hold
it are marked, and a character shows its verified split.  Clicking a root (or
pressing it with Space/Enter) lists the characters whose verified split uses
it, most used first.  The chart is :data:`wubitok.wubi.roots.CHART`; the
characters come from :mod:`wubitok.wubi.splits`.
"""
from __future__ import annotations

from typing import Iterator

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...wubi.dictionary import default_dictionary
from ...wubi.query import verified_split
from ...wubi.roots import CHART, KEY_CHART, ROOT_KEYS, ROOT_NAMES, KeyChart
from ...wubi.splits import chars_with_root
from ..support import theme
from ..support.fonts import han_font
from ..widgets.keyboard import ZONE_STROKES, zone_color
from ..widgets.split_row import SplitRow, root_label
from .base import Pane

# What a search can be: a root, a key, a character (or a few, the first one found).
SEARCH_MAX_CHARS = 100


class KeyCard(QFrame):
    """One key: letter, area code, key name, its roots as buttons, its 口诀."""

    def __init__(self, chart: KeyChart, on_root, parent: QWidget | None = None):
        super().__init__(parent)
        self.chart = chart
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.title = QLabel(f"<b>{chart.key.upper()}</b> {chart.area}{chart.position} "
                            f"<span style='font-size:15pt'>{chart.key_name}</span>")
        self.title.setFont(han_font(11))
        self.buttons: dict[str, QPushButton] = {}
        roots = QGridLayout()
        roots.setSpacing(2)
        shown = list(dict.fromkeys(root_label(r) for r, _ in chart.roots))  # ⺁ drawn as 厂: once
        for root, _strokes in chart.roots:
            label = root_label(root)
            if label in [b.text() for b in self.buttons.values()]:
                continue
            i = shown.index(label)
            b = QPushButton(label)
            b.setFont(han_font(13 if len(label) == 1 else 9))
            b.setFlat(True)
            b.setMinimumWidth(0)
            # 130 roots are no Tab stops: from the keyboard, the search box finds a root by
            # itself or by its name (青头) and lists its characters.
            b.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
            b.setStyleSheet("padding: 1px 2px")  # roots, not buttons to read: 5 keys fit in 800 pixels
            b.clicked.connect(lambda _checked=False, r=root: on_root(r))
            self.buttons[root] = b
            roots.addWidget(b, i // 3, i % 3)
        self.verse = QLabel(chart.verse)
        self.verse.setFont(han_font(10))
        self.verse.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addLayout(roots)
        layout.addWidget(self.verse)
        layout.addStretch(1)

    def mark(self, on: bool) -> None:
        self.setFrameShape(QFrame.Shape.Box if on else QFrame.Shape.StyledPanel)
        self.setLineWidth(3 if on else 1)


class RootChartPane(Pane):
    """Search box, the chart by area, and the characters of the chosen root."""

    def __init__(self, parent=None, *, in_steps: bool = False):
        super().__init__(parent)
        self._root = ""
        self._chars: list[str] = []
        self.build(self._parts(), in_steps)

    def _parts(self) -> Iterator[None]:
        self._build_search()
        yield
        yield from self._build_chart()  # an area a turn: the 25 cards at once were 50 ms of start-up
        self._build_layout()
        self.search_box.textChanged.connect(self._search)
        self.set_main_input(self.search_box)
        self.retranslate_ui()

    def _build_search(self) -> None:
        self.search_box = QLineEdit()
        self.search_box.setMaxLength(SEARCH_MAX_CHARS)  # a root, a key or a character; a pasted page froze it
        self.search_box.setFont(han_font(14))
        self.search_box.setClearButtonEnabled(True)
        self.found = QLabel()
        self.found.setWordWrap(True)
        self.split_row = SplitRow(size=16)
        self.chars_title = QLabel()
        theme.make_heading(self.chars_title)
        self.chars_label = QLabel()
        self.chars_label.setFont(han_font(15))
        self.chars_label.setWordWrap(True)
        self.chars_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                                 | Qt.TextInteractionFlag.TextSelectableByKeyboard)

    def _build_chart(self) -> Iterator[None]:
        self.cards: dict[str, KeyCard] = {}
        self.area_titles: list[QLabel] = []
        self.chart = QWidget()
        grid = QGridLayout(self.chart)
        grid.setSpacing(3)
        grid.setContentsMargins(0, 0, 0, 0)
        dark = self.palette().color(self.backgroundRole()).lightness() < 128
        for area in range(1, 6):
            title = QLabel()
            theme.make_heading(title)
            self.area_titles.append(title)
            grid.addWidget(title, area - 1, 0)
            for chart in (c for c in CHART if c.area == area):
                card = KeyCard(chart, self.show_root)
                pal = card.palette()
                pal.setColor(card.backgroundRole(), zone_color(area, dark=dark))
                card.setPalette(pal)
                self.cards[chart.key] = card
                grid.addWidget(card, area - 1, chart.position)
            yield
        for col in range(1, 6):
            grid.setColumnStretch(col, 1)

    def _build_layout(self) -> None:
        layout = self.scrolling_layout()
        layout.setContentsMargins(16, 12, 16, 12)
        top = QHBoxLayout()
        top.addWidget(self.search_box, 1)
        layout.addLayout(top)
        layout.addWidget(self.found)
        layout.addWidget(self.split_row)
        layout.addWidget(self.chart)
        layout.addWidget(self.chars_title)
        layout.addWidget(self.chars_label)
        layout.addStretch(1)

    # -- behaviour ------------------------------------------------------------
    def set_sample_text(self, text: str) -> None:
        self.search_box.setText(text)

    def marked_keys(self) -> list[str]:
        return [k for k, card in self.cards.items() if card.lineWidth() > 1]

    def _search(self, text: str) -> None:
        """Mark the keys that hold what was typed: a root, a key letter, or a character's roots."""
        text = text.strip()
        keys: set[str] = set()
        self.split_row.set_split("", None)
        root = text if text in ROOT_KEYS else next((r for r, name in ROOT_NAMES.items() if name == text), "")
        if root:
            keys = {ROOT_KEYS[root]}
            self.show_root(root)
        elif len(text) == 1 and text.lower() in KEY_CHART:
            keys = {text.lower()}
        elif len(text) == 1:
            split = verified_split(text)
            self.split_row.set_split(text, split)
            keys = {p.key for p in split.parts if p.role == "root"} if split else set()
        for key, card in self.cards.items():
            card.mark(key in keys)
        self._say_found(text, keys)

    def _say_found(self, text: str, keys: set[str]) -> None:
        if not text:
            self.found.setText(self.tr("Type a root, a key letter or a character; click a root to see "
                                       "the characters that use it."))
        elif keys:
            self.found.setText(self.tr("On {keys}").replace("{keys}", " ".join(sorted(k.upper() for k in keys))))
        else:
            self.found.setText(self.tr("{text} is no root, key or character with a verified split")
                               .replace("{text}", text))

    def show_root(self, root: str) -> None:
        """List the characters whose verified split uses ``root``."""
        self._root = root
        chars = self._chars = chars_with_root(root, default_dictionary())
        note = ROOT_NAMES.get(root, "")  # the learners' name, a term of the scheme in either language
        self.chars_title.setText(self.tr("Characters with {root} (key {key})").replace("{root}", root_label(root))
                                 .replace("{key}", ROOT_KEYS[root].upper()) + (f" — {note}" if note else ""))
        self.chars_label.setText(" ".join(chars) if chars else self.tr("No verified split uses this root."))
        self.chars_label.setAccessibleName(self.chars_title.text())

    def listed_chars(self) -> list[str]:
        return list(self._chars)

    def retranslate_ui(self) -> None:
        self.search_box.setPlaceholderText(self.tr("Find a root, a key or a character: 钅, q, 键"))
        self.search_box.setAccessibleName(self.tr("Find in the root chart"))
        for area, title in enumerate(self.area_titles, 1):
            title.setText(self.tr("{n} {stroke}").replace("{n}", str(area)).replace("{stroke}", ZONE_STROKES[area - 1]))
        for card in self.cards.values():
            for root, b in card.buttons.items():
                b.setAccessibleName(self.tr("Root {root} on key {key}").replace("{root}", root)
                                    .replace("{key}", card.chart.key.upper()))
                b.setToolTip(ROOT_NAMES.get(root, ""))
        if not self._root:
            self.chars_title.setText(self.tr("Characters with a root"))
            self.chars_label.setText(self.tr("Click a root to list the characters whose split uses it."))
        else:
            self.show_root(self._root)
        self._search(self.search_box.text())
