"""The pad's learning aid: the last committed entry, its code, its keys on a Wubi keyboard, and the
split (字根) of the character one is stuck on (looked up by pinyin) or else of the last entry."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ....ime import ImeCandidate, ImeState
from ....wubi.convert import spelled_code
from ....wubi.query import verified_split
from ...support import theme
from ...support.fonts import han_font, monospace_font
from ...widgets.keyboard import WubiKeyboard
from ...widgets.split_row import SplitRow


class LearningAid(QWidget):
    """The last entry and its code on the left, with the pad's help; the keyboard on the right."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.last_title = QLabel()
        theme.make_heading(self.last_title)
        self.last_label = QLabel()
        self.last_label.setFont(han_font(22))
        self.last_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.last_code = QLabel()
        self.last_code.setFont(monospace_font(18))
        self.split_row = SplitRow(size=14, with_char=True)  # the roots of the character one is stuck on, or of the last
        self.help_label = QLabel()
        self.help_label.setWordWrap(True)
        self.keyboard = WubiKeyboard()
        self.keyboard.setMaximumWidth(560)
        self.keyboard.setMinimumWidth(WubiKeyboard.readable_width())  # labels of 10 px or more, at 800x600 too

        text = QVBoxLayout()
        text.addWidget(self.last_title)
        row = QHBoxLayout()
        row.addWidget(self.last_label)
        row.addSpacing(12)
        row.addWidget(self.last_code)
        row.addStretch(1)
        text.addLayout(row)
        text.addWidget(self.split_row)
        text.addWidget(self.help_label, 1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)  # the pane's spacing, which the nested layouts take
        layout.addLayout(text, 1)
        layout.addWidget(self.keyboard, 1)

    def retranslate_ui(self) -> None:
        self.last_title.setText(self.tr("Last entry and its code"))
        self.help_label.setText(self.tr(
            "Type Wubi codes: space takes the first candidate, 1–9 pick one, - and = turn pages. "
            "Start with z to look up by pinyin (zni). Shift switches Chinese/English. "
            "Right-click a candidate to forget or pin it; Ctrl+Delete forgets the first one."))

    def show_state(self, state: ImeState) -> None:
        """The keys of the code being typed, or else of the last entry; the last entry and its code."""
        last = state.last_commit
        stuck = stuck_on(state)
        hinted = stuck or (last.text if last is not None and len(last.text) == 1 else "")
        split = verified_split(hinted) if hinted else None
        self.split_row.set_split(hinted, split)
        roots = self.split_row.tile_texts()
        if state.composing:
            code = keyboard_code(state)
            self.keyboard.set_code(code, roots if stuck and split and split.code == code else None)
        else:
            code = last.code if last else None
            self.keyboard.set_code(code, roots if split and split.code == code else None)
        if last is None:
            self.last_label.setText("—")
            self.last_code.setText("")
        else:
            self.last_label.setText(last.text)
            self.last_code.setText(last_entry_code(last))


def keyboard_code(state: ImeState) -> str | None:
    """The code the keyboard diagram shows while a code is typed: the keys typed, or where they
    are not a code (a pinyin lookup, zni; a wildcard z) the code of the first candidate."""
    if not state.pinyin and "z" not in state.preedit:
        return state.preedit
    first = state.candidates[0] if state.candidates else None
    return first.code or None if first is not None else None


def stuck_on(state: ImeState) -> str:
    """The character a typist is stuck on: the first candidate of a pinyin lookup (zni) or a
    wildcard code, which is how one types a character whose code one does not know."""
    if not state.composing or (not state.pinyin and "z" not in state.preedit) or not state.candidates:
        return ""
    first = state.candidates[0].text
    return first if len(first) == 1 else ""


def last_entry_code(entry: ImeCandidate) -> str:
    """The keys that type ``entry`` again, its selector included (``ggtt2``), as Convert writes them;
    a user phrase's place depends on the typist's choices, so it has none."""
    if not entry.code or entry.user or entry.kind == "symbol":
        return entry.code
    return spelled_code(entry.code, entry.text)
