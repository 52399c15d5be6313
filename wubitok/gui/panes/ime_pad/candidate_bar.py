"""The candidate bar: the current page of candidates, floating under the pad's cursor."""
from __future__ import annotations

import html

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel

from ....ime import ImeState
from ...support import theme
from ...support.fonts import drawable, han_font


class CandidateBar(QFrame):
    """The current page of candidates: number, text and key hint; click to choose."""

    chosen = Signal(int)
    page = Signal(str)  # "pageup" / "pagedown"
    menu_requested = Signal(int, QPoint)  # a right click on candidate i, at a global position

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("candidateBar")
        theme.use_style_sheet(self)  # resources/style/wubitok.qss: a rounded, tinted box
        self.label = QLabel()
        self.label.setFont(han_font(15))
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.linkActivated.connect(self._link)
        self.label.linkHovered.connect(self._hover)
        self._hovered: int | None = None  # the candidate under the mouse: a right click's target
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 10, 4)
        layout.addWidget(self.label)
        self._texts: list[str] = []

    def texts(self) -> list[str]:
        """The candidate texts shown, in order."""
        return list(self._texts)

    def show_state(self, state: ImeState) -> None:
        self._texts = [c.text for c in state.candidates]
        # Candidates are links (clickable) but should read as text.
        text_color = self.palette().color(QPalette.ColorRole.Text).name()
        muted = theme.muted_colour(self, QPalette.ColorRole.AlternateBase)  # the bar's tint (wubitok.qss)
        parts = []
        for i, cand in enumerate(state.candidates):
            hint = (f"&nbsp;<span style='color:{muted}; font-size:10pt'>{html.escape(cand.hint)}</span>"
                    if cand.hint else "")
            parts.append(f"<a href='{i}' style='text-decoration:none; color:{text_color}'>"
                         f"<span style='color:{muted}'>{i + 1}</span>&nbsp;"
                         f"{html.escape(drawable(cand.text))}</a>{hint}")
        if not parts:
            none = self.tr("no candidates")
            parts.append(f"<span style='color:{muted}'>{html.escape(none)}</span>")
        if state.page_count > 1:
            prev = "<a href='pageup' style='text-decoration:none'>◀</a>" if state.page > 0 else "◁"
            nxt = "<a href='pagedown' style='text-decoration:none'>▶</a>" \
                if state.page + 1 < state.page_count else "▷"
            parts.append(f"<span style='font-size:10pt'>{prev} {state.page + 1}/{state.page_count} {nxt}</span>")
        self.label.setText("&nbsp;&nbsp;&nbsp;".join(parts))
        self.adjustSize()

    def _link(self, link: str) -> None:
        if link in ("pageup", "pagedown"):
            self.page.emit(link)
        else:
            self.chosen.emit(int(link))

    def _hover(self, link: str) -> None:
        self._hovered = int(link) if link.isdigit() else None

    def contextMenuEvent(self, event) -> None:  # noqa: N802 (Qt API)
        if self._hovered is not None and self._hovered < len(self._texts):
            self.menu_requested.emit(self._hovered, event.globalPos())
        event.accept()
