"""Tokens drawn as coloured spans over the original text.

The text is shown as it is; each token's span of it gets a background box.
Work is split so that nothing big happens on the GUI thread:

* :func:`prepare` (pure Python, run in a worker) cuts the text into
  *segments* -- maximal runs covered by the same set of tokens -- and maps
  Python string offsets (code points) to ``QTextDocument`` positions (UTF-16
  units, and ``\\r\\n`` is one position there).
* :func:`make_document` (run in a worker too) builds the ``QTextDocument``;
  ``setPlainText`` on a megabyte takes far longer than a frame.
* :class:`TokenTextView` paints only the boxes of the lines on screen, so a
  long text costs no more to show than a short one.

Segments covered by more than one token, or by a token flagged ``partial``
(a byte-level piece of a multi-byte character), are hatched and outlined:
those tokens do not stand for whole characters and must be visible as such.
Text that no token covers (WordPiece drops spaces) is left unboxed.
"""
from __future__ import annotations

import html
import zlib
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, compress
from operator import le
from typing import Callable, Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QPainter,
    QPalette,
    QPen,
    QTextCursor,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import QPlainTextDocumentLayout, QPlainTextEdit, QToolTip, QWidget

from ...engines.base import Encoding

# Past this many characters the view shows the start of the text and says so;
# counts and ids always cover the whole text.
DISPLAY_LIMIT = 200_000
# make_document inserts a text in pieces of this size (each about 1 ms of the GIL).
DOCUMENT_PIECE_CHARS = 16_000
# prepare (run in a job thread) handles a text's items this many per C call:
# Python switches threads only between bytecodes, and one call over all of a
# 200 KB text held the GIL, and so the GUI thread, for 5-10 ms.
GIL_CHUNK = 16_384
# The objectName of every document make_document builds: who replaces one in a
# widget can tell it from the widget's own without asking Qt for its parent.
WORKER_DOCUMENT = "wubitok-worker-document"

# Pastel boxes behind dark text, deep ones behind light text (dark palettes).
LIGHT_COLOURS = ("#ffd6a5", "#caffbf", "#9bf6ff", "#bdb2ff", "#ffc6ff", "#fdffb6", "#a0c4ff", "#ffadad")
DARK_COLOURS = ("#7a4b12", "#2f6b2a", "#1f5f6b", "#4b3f8a", "#7a2f7a", "#6b6b1f", "#2b4f8a", "#8a2f2f")

COLOUR_MODES = ("alternate", "by-id")


@dataclass
class TokenizedText:
    """A text, its encoding and the segments to draw; built off the GUI thread."""

    text: str
    encoding: Encoding
    display: Callable[..., str] | None = None  # Tokenizer.display_token: (id, *, partial) -> readable form
    shown_chars: int = 0  # characters of ``text`` the view displays
    seg_start: list[int] = field(default_factory=list)  # code-point offsets
    seg_end: list[int] = field(default_factory=list)
    seg_tokens: list[tuple[int, ...]] = field(default_factory=list)  # token indices covering it
    seg_partial: list[bool] = field(default_factory=list)
    doc_start: list[int] = field(default_factory=list)  # the same spans in document positions
    doc_end: list[int] = field(default_factory=list)

    @property
    def truncated(self) -> bool:
        return self.shown_chars < len(self.text)

    def segment_texts(self) -> list[str]:
        return [self.text[a:b] for a, b in zip(self.seg_start, self.seg_end)]

    def token_segments(self) -> list[int]:
        """Indices of segments covered by at least one token."""
        return [i for i, toks in enumerate(self.seg_tokens) if toks]

    def display_token(self, index: int) -> str:
        tid = self.encoding.ids[index]
        if self.display is not None:
            partial = self.encoding.partial
            return self.display(tid, partial=index < len(partial) and bool(partial[index]))
        return self.encoding.tokens[index]


def build_segments(
    n_chars: int, offsets: Sequence[tuple[int, int]], partial: Sequence[bool]
) -> tuple[list[int], list[int], list[tuple[int, ...]], list[bool]]:
    """Cut ``[0, n_chars)`` at every token boundary.

    Returns parallel lists (start, end, covering token indices, partial); the
    segments tile ``[0, n_chars)`` exactly, so their texts join to the text.
    Spans reaching past ``n_chars`` are cut there.  Tokens with an empty span
    (an added special token) cover nothing and appear in no segment.
    """
    spans = [(s, min(e, n_chars), i) for i, (s, e) in enumerate(offsets) if 0 <= s < e and s < n_chars]
    # Every bundled engine gives its offsets in order: checked a chunk at a
    # time, as one sort is one C call holding the GIL (and so the GUI thread).
    if not ascending(spans):
        spans.sort()
    # The boundaries in order without a sort: marked in a bytearray, read back.
    marks = bytearray(n_chars + 1)
    marks[0] = marks[n_chars] = 1
    for s, e, _ in spans:
        marks[s] = marks[e] = 1
    bounds = marked(marks)
    starts: list[int] = []
    ends: list[int] = []
    covering: list[tuple[int, ...]] = []
    flags: list[bool] = []
    active: list[tuple[int, int]] = []  # (end, token index)
    j = 0
    for a, b in zip(bounds, bounds[1:]):
        while j < len(spans) and spans[j][0] <= a:
            active.append((spans[j][1], spans[j][2]))
            j += 1
        # Every active span starts at or before a and ends after it; as b is
        # the next boundary, each one covers all of [a, b).
        active = [t for t in active if t[0] > a]
        toks = tuple(i for _, i in active)
        starts.append(a)
        ends.append(b)
        covering.append(toks)
        flags.append(len(toks) > 1 or any(i < len(partial) and partial[i] for i in toks))
    return starts, ends, covering, flags


def ascending(items: Sequence, chunk: int = GIL_CHUNK) -> bool:
    """Whether ``items`` are in order, compared ``chunk`` pairs per C call."""
    return all(all(map(le, items[a : a + chunk], items[a + 1 : a + 1 + chunk])) for a in range(0, len(items), chunk))


def marked(marks: bytes | bytearray, chunk: int = GIL_CHUNK) -> list[int]:
    """The indices of the non-zero bytes of ``marks``, in order, ``chunk`` per C call."""
    found: list[int] = []
    for a in range(0, len(marks), chunk):
        found += compress(range(a, a + chunk), marks[a : a + chunk])
    return found


def document_positions(text: str) -> list[int] | None:
    """``pos[i]``: the QTextDocument position of code point ``i`` (None if equal).

    A document counts UTF-16 units (astral characters take two) and stores
    ``\\r\\n`` as one paragraph break.
    """
    # Not max(text): 10 ms of one C call on 200 KB; encoding is a copy (0.3 ms).
    if "\r\n" not in text and len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text):
        return None

    def width(i_c: tuple[int, str]) -> int:
        i, c = i_c
        if c == "\n" and i and text[i - 1] == "\r":
            return 0
        return 2 if c >= "\U00010000" else 1

    return list(accumulate(map(width, enumerate(text)), initial=0))


def prepare(
    text: str,
    encoding: Encoding,
    display: Callable[..., str] | None = None,
    limit: int = DISPLAY_LIMIT,
) -> TokenizedText:
    """Segments and document positions of ``text`` (call in a worker)."""
    shown = min(len(text), limit)
    starts, ends, covering, flags = build_segments(shown, encoding.offsets, encoding.partial)
    pos = document_positions(text[:shown])
    if pos is None:
        doc_start, doc_end = list(starts), list(ends)
    else:
        doc_start, doc_end = [pos[s] for s in starts], [pos[e] for e in ends]
    return TokenizedText(text, encoding, display, shown, starts, ends, covering, flags, doc_start, doc_end)


def document_pieces(text: str, size: int = DOCUMENT_PIECE_CHARS) -> list[str]:
    """``text`` cut into pieces of about ``size`` characters, each ending after a
    line break where there is one (never between a CR and its LF, which a
    document reads as one line break)."""
    pieces = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            newline = text.rfind("\n", start, end)
            if newline >= 0:
                end = newline + 1
            elif text[end - 1] == "\r" and text[end] == "\n":
                end = end - 1 if end - 1 > start else end + 1  # the pair goes to one piece
        pieces.append(text[start:end])
        start = end
    return pieces


def make_document(text: str, font: QFont) -> QTextDocument:
    """A plain-text document for :class:`QPlainTextEdit`, built in any thread.

    It is moved to the GUI thread so the widget that receives it can own it.
    """
    doc = QTextDocument()
    doc.setObjectName(WORKER_DOCUMENT)
    doc.setDocumentLayout(QPlainTextDocumentLayout(doc))
    doc.setDefaultFont(font)
    doc.setUndoRedoEnabled(False)
    # In pieces: one setPlainText of 200 KB holds the GIL for 13-30 ms (the GUI
    # thread waits that long); between two pieces Python can switch threads.
    # setPlainText is this same insertText on an empty document.
    cursor = QTextCursor(doc)
    for piece in document_pieces(text):
        cursor.insertText(piece)
    doc.setUndoRedoEnabled(True)
    app = QCoreApplication.instance()
    if app is not None:
        doc.moveToThread(app.thread())
    return doc


def replace_document(edit: QPlainTextEdit, doc: QTextDocument) -> None:
    """Give ``edit`` a document :func:`make_document` built; the widget owns it from now on."""
    old = edit.document()
    # The widget deletes its own initial document itself; ours it does not.
    # Not old.parent(): that is a Qt-private class, and wrapping it makes
    # shiboken create dozens of unrelated enum types (~45 ms on the GUI thread).
    ours = old.objectName() == WORKER_DOCUMENT
    doc.setParent(edit)
    edit.setDocument(doc)
    if ours:
        old.deleteLater()


def _hash_index(token_id: int, n: int) -> int:
    return zlib.crc32(token_id.to_bytes(8, "little", signed=True)) % n


def wubi_keys(chars: str) -> str:
    """Full Wubi codes of the Han characters in ``chars`` (for tooltips)."""
    from ...dictionary import default_dictionary

    d = default_dictionary()
    codes = (d.full_code(c) for c in chars if not c.isascii())
    return " ".join(c for c in codes if c)


class TokenTextView(QPlainTextEdit):
    """Read-only text with a coloured box per token; hover for details."""

    tokenHovered = Signal(int)  # token index, -1 when none

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setTabChangesFocus(True)  # Tab leaves the view (keyboard users are not trapped)
        self.setMouseTracking(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self._data: TokenizedText | None = None
        self._own_document: QTextDocument | None = None
        self._whitespace = False
        self._colour_mode = COLOUR_MODES[0]
        self._highlighted = -1  # a token index outlined (hovered in the token table)

    # -- contents ------------------------------------------------------------
    def tokenized(self) -> TokenizedText | None:
        return self._data

    def set_tokenized(self, data: TokenizedText | None, document: QTextDocument | None = None) -> None:
        """Show ``data``; ``document`` (from :func:`make_document`) avoids building it here."""
        self._data = data
        self._highlighted = -1
        shown = "" if data is None else data.text[: data.shown_chars]
        if document is None:
            document = make_document(shown, self.font())
        document.setParent(self)
        old = self._own_document
        self.setDocument(document)
        self._own_document = document
        if old is not None:
            old.deleteLater()
        self._apply_whitespace()
        self.viewport().update()

    def clear_tokens(self) -> None:
        self.set_tokenized(None)

    # -- options ---------------------------------------------------------------
    def set_whitespace_visible(self, visible: bool) -> None:
        self._whitespace = visible
        self._apply_whitespace()

    def _apply_whitespace(self) -> None:
        opt = self.document().defaultTextOption()
        flags = opt.flags()
        show = QTextOption.Flag.ShowTabsAndSpaces | QTextOption.Flag.ShowLineAndParagraphSeparators
        opt.setFlags(flags | show if self._whitespace else flags & ~show)
        self.document().setDefaultTextOption(opt)
        self.viewport().update()

    def set_colour_mode(self, mode: str) -> None:
        if mode not in COLOUR_MODES:
            raise ValueError(mode)
        self._colour_mode = mode
        self.viewport().update()

    def highlighted_token(self) -> int:
        return self._highlighted

    def highlight_token(self, index: int, *, scroll: bool = True) -> None:
        """Outline token ``index`` (-1: none); ``scroll`` brings it into view."""
        self._highlighted = index
        data = self._data
        if scroll and data is not None and 0 <= index < len(data.encoding.offsets):
            seg = bisect_right(data.seg_start, data.encoding.offsets[index][0]) - 1
            if 0 <= seg < len(data.doc_start):
                cursor = self.textCursor()
                cursor.setPosition(min(data.doc_start[seg], self.document().characterCount() - 1))
                self.setTextCursor(cursor)
                self.ensureCursorVisible()
        self.viewport().update()

    # -- colours -------------------------------------------------------------
    def _dark(self) -> bool:
        return self.palette().color(QPalette.ColorRole.Base).lightness() < 128

    def segment_colour(self, seg: int, colours: Sequence[QColor] | None = None) -> QColor | None:
        """The box colour of segment ``seg``, from ``colours`` (the palette's, when not given)."""
        data = self._data
        if data is None or not data.seg_tokens[seg]:
            return None
        if colours is None:
            colours = self._colours()
        first = data.seg_tokens[seg][0]
        if self._colour_mode == "by-id":
            return colours[_hash_index(data.encoding.ids[first], len(colours))]
        return colours[first % len(colours)]

    def _colours(self) -> list[QColor]:
        return [QColor(c) for c in (DARK_COLOURS if self._dark() else LIGHT_COLOURS)]

    # -- painting ------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if self._data is not None and self._data.seg_start:
            painter = QPainter(self.viewport())
            try:
                self._paint_boxes(painter, event.rect())
            finally:
                painter.end()
        super().paintEvent(event)

    def _paint_boxes(self, painter: QPainter, clip) -> None:
        data = self._data
        assert data is not None
        dark = self._dark()
        # Looked up once per paint, not per box: palette() copies the palette
        # each call (a quarter of the paint's time on a screen of small tokens).
        colours = self._colours()
        outline = QPen(QColor("#e0e0e0" if dark else "#404040"))
        outline.setWidthF(1.0)
        # Faint enough that the character under the hatching stays readable.
        hatch = QColor(outline.color())
        hatch.setAlpha(90)
        marker = QPen(self.palette().color(QPalette.ColorRole.Highlight))
        marker.setWidthF(2.0)
        offset = self.contentOffset()
        block = self.firstVisibleBlock()
        bottom = clip.bottom()
        while block.isValid():
            geom = self.blockBoundingGeometry(block).translated(offset)
            if geom.top() > bottom:
                break
            if block.isVisible():
                layout = block.layout()
                base = block.position()
                for li in range(layout.lineCount()):
                    line = layout.lineAt(li)
                    rect = line.rect().translated(geom.topLeft())
                    if rect.bottom() < clip.top() or rect.top() > bottom:
                        continue
                    ls = base + line.textStart()
                    le = ls + line.textLength()
                    seg = bisect_right(data.doc_end, ls)
                    while seg < len(data.doc_start) and data.doc_start[seg] < le:
                        colour = self.segment_colour(seg, colours)
                        if colour is not None:
                            a = max(data.doc_start[seg], ls) - base
                            b = min(data.doc_end[seg], le) - base
                            x1 = line.cursorToX(a)[0] + rect.left()
                            x2 = line.cursorToX(b)[0] + rect.left()
                            # One pixel of gap so adjacent boxes of similar colour stay apart.
                            box = QRectF(QPointF(x1, rect.top()), QPointF(max(x1 + 1, x2 - 1), rect.bottom()))
                            painter.fillRect(box, colour)
                            if data.seg_partial[seg]:
                                painter.fillRect(box, QBrush(hatch, Qt.BrushStyle.BDiagPattern))
                                painter.setPen(outline)
                                painter.drawRect(box.adjusted(0.5, 0.5, -0.5, -0.5))
                            if self._highlighted in data.seg_tokens[seg]:
                                painter.setPen(marker)
                                painter.drawRect(box.adjusted(1, 1, -1, -1))
                        seg += 1
            block = block.next()

    # -- hover ---------------------------------------------------------------
    def segment_at(self, pos) -> int | None:
        """The segment under a viewport point, or None."""
        data = self._data
        if data is None:
            return None
        cur = self.cursorForPosition(pos)
        p = cur.position()
        # The cursor sits between characters; the character under the mouse
        # is the one after it if the mouse is right of the cursor.
        if self.cursorRect(cur).center().x() > pos.x() and p > cur.block().position():
            p -= 1
        seg = bisect_right(data.doc_start, p) - 1
        if 0 <= seg < len(data.doc_start) and data.doc_start[seg] <= p < data.doc_end[seg]:
            return seg
        return None

    def tooltip_html(self, seg: int) -> str:
        data = self._data
        assert data is not None
        chars = data.text[data.seg_start[seg] : data.seg_end[seg]]
        rows = []
        for i in data.seg_tokens[seg]:
            s, e = data.encoding.offsets[i]
            span = data.text[s:e]
            bits = [
                f"<b>#{i}</b> " + self.tr("id") + f" <b>{data.encoding.ids[i]}</b>",
                self.tr("token") + f" <code>{html.escape(_visible(data.display_token(i)))}</code>",
                self.tr("characters") + f" <b>{html.escape(_visible(span))}</b>",
            ]
            keys = wubi_keys(span)
            if keys:
                bits.append(self.tr("Wubi") + f" <code>{html.escape(keys)}</code>")
            if i < len(data.encoding.partial) and data.encoding.partial[i]:
                bits.append("<i>" + self.tr("part of a character") + "</i>")
            rows.append(" · ".join(bits))
        if not rows:
            return "<i>" + self.tr("not covered by any token") + f"</i>: {html.escape(_visible(chars))}"
        return "<br>".join(rows)

    def event(self, e) -> bool:
        if e.type() == QEvent.Type.ToolTip:
            seg = self.segment_at(self.viewport().mapFromGlobal(e.globalPos()))
            if seg is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(e.globalPos(), self.tooltip_html(seg), self)
            return True
        return super().event(e)

    def mouseMoveEvent(self, e) -> None:  # noqa: N802
        seg = self.segment_at(e.position().toPoint())
        toks = self._data.seg_tokens[seg] if seg is not None and self._data is not None else ()
        self.tokenHovered.emit(toks[0] if toks else -1)
        super().mouseMoveEvent(e)


_VISIBLE = {" ": "␣", "\t": "⇥", "\n": "↵", "\r": "␍", "\u3000": "□"}


def _visible(s: str) -> str:
    """Whitespace and controls made visible for tooltips."""
    out = []
    for c in s:
        if c in _VISIBLE:
            out.append(_VISIBLE[c])
        elif c < " " or "\x7f" <= c < "\xa0":
            out.append(f"\\x{ord(c):02x}")
        else:
            out.append(c)
    return "".join(out)
