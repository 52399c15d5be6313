"""A character's split (字根拆分) as a row of tiles: each root over the key that types it.

The split comes from :func:`wubitok.wubi.query.verified_split`, so a row is only
ever a split that gives the dictionary's own code; where there is none the row
says so rather than guess.  A 末笔识别码 tile shows the last stroke it stands for
and the structure, a 成字字根's stroke tiles their strokes.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ...wubi.roots import ROOT_NAMES
from ...wubi.splits import Split
from ..support import theme
from ..support.fonts import can_draw, han_font, monospace_font


def root_label(root: str) -> str:
    """``root`` as drawn: itself where a font here has it, else the name learners call it
    (龶 is 青头): a box would teach nothing."""
    if all(can_draw(ch) for ch in root):
        return root
    return ROOT_NAMES.get(root, root)


class SplitRow(QWidget):
    """Tiles of root and key; :meth:`set_split` shows one character's split, or that it has none."""

    def __init__(self, parent: QWidget | None = None, *, size: int = 20, with_char: bool = False):
        super().__init__(parent)
        self._with_char = with_char  # lead the tiles with the character (where nothing else shows it)
        self._split: Split | None = None
        self._char = ""
        self._size = size
        self._tiles = QHBoxLayout()
        self._tiles.setContentsMargins(0, 0, 0, 0)
        self._tiles.setSpacing(6)
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(self._tiles)
        layout.addWidget(self.note)
        self.set_split("", None)

    def split(self) -> Split | None:
        return self._split

    def tile_texts(self) -> list[tuple[str, str]]:
        """(root, key) of each tile shown, in order."""
        return [(p.root, p.key) for p in self._split.parts] if self._split else []

    def set_split(self, char: str, split: Split | None) -> None:
        self._char, self._split = char, split
        while self._tiles.count():
            item = self._tiles.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        muted = theme.muted_colour(self)
        if split is not None:
            if self._with_char:
                self._tiles.addWidget(self._tile(char, "=", "char", muted))
            for part in split.parts:
                self._tiles.addWidget(self._tile(part.root, part.key, part.role, muted))
            self._tiles.addStretch(1)
        self.retranslate_ui()

    def _tile(self, root: str, key: str, role: str, muted: str) -> QLabel:
        label = QLabel()
        label.setTextFormat(Qt.TextFormat.RichText)
        shown = root_label(root) if role not in ("pad", "char") else "·" if role == "pad" else f"<b>{root}</b>"
        if role == "identifier":
            shown = f"<span style='color:{muted}'>[{root}]</span>"
        font = han_font(self._size)
        label.setFont(font)
        label.setText(f"<div align='center'>{shown}<br><span style='font-family:{monospace_font(1).family()};"
                      f"font-size:{max(9, self._size // 2)}pt'>{key}</span></div>")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        return label

    def retranslate_ui(self) -> None:
        split = self._split
        if split is None:
            self.note.setText(self.tr("No verified split for {char}: none of the derived ones gives its code.")
                              .replace("{char}", self._char) if self._char else "")
            self.note.setVisible(bool(self._char))
            self.setAccessibleName(self.note.text())
            return
        notes = {"keyname": self.tr("key name (键名字): its key four times"),
                 "root": self.tr("a root that is a character (成字字根): its key, then its strokes")}
        note = notes.get(split.kind, "")
        if split.kind == "compound" and len(split.roots) < 4:
            note = self.tr("fewer than four roots: the last key is the 末笔识别码 ({stroke}, {structure})") \
                .replace("{stroke}", split.parts[-1].root).replace("{structure}", split.structure_name)
        elif split.kind == "compound" and len(split.roots) > 4:
            note = self.tr("all roots: {roots}; the code takes the first three and the last") \
                .replace("{roots}", " ".join(split.roots))
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.setAccessibleName(self.tr("Split of {char}: {parts}").replace("{char}", self._char).replace(
            "{parts}", ", ".join(f"{p.root or '·'} {p.key}" for p in split.parts)))
