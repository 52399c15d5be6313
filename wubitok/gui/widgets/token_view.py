"""Tokens drawn as coloured spans over the original text.

The text is shown as it is; each token's span of it gets a background box.
Work is split so that nothing big happens on the GUI thread:

* The encode worker process that encodes the text also cuts it into
  *segments* -- maximal runs covered by the same set of tokens -- with their
  ``QTextDocument`` positions (:class:`wubitok.services.tokenized.Spans`); this process
  reads them in place.
* :func:`make_document` (run in a job thread) builds the ``QTextDocument``;
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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

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

from ...services.incremental_encode import find_edit
from ...services.readable_tokens import Part, TokenForms, format_parts, hex_bytes, readable_parts, visible
from ...services.tokenized import PackedEncoding, Spans
from ..support.text_pieces import document_pieces
from ..support.thread_move import move_to_thread

if TYPE_CHECKING:  # the app imports the pool where it starts one, not with every view
    from ...services.encode_pool import ModelSummary

# The objectName of every document make_document builds: who replaces one in a
# widget can tell it from the widget's own without asking Qt for its parent.
WORKER_DOCUMENT = "wubitok-worker-document"

# Pastel boxes behind dark text, deep ones behind light text (dark palettes).
LIGHT_COLOURS = ("#ffd6a5", "#caffbf", "#9bf6ff", "#bdb2ff", "#ffc6ff", "#fdffb6", "#a0c4ff", "#ffadad")
DARK_COLOURS = ("#7a4b12", "#2f6b2a", "#1f5f6b", "#4b3f8a", "#7a2f7a", "#6b6b1f", "#2b4f8a", "#8a2f2f")

COLOUR_MODES = ("alternate", "by-id")


@dataclass
class TokenizedText:
    """A text, its encoding and the segments to draw, as an encode worker made them
    (:mod:`wubitok.services.tokenized`: read in place, never unpacked in this process)."""

    text: str
    encoding: PackedEncoding
    spans: Spans
    display: Callable[..., str] | None = None  # Tokenizer.display_token: (id, *, partial) -> its form
    forms: TokenForms | None = None  # the model's spellings and byte pieces (for readable forms)

    @classmethod
    def of_model(cls, text: str, encoding: PackedEncoding, spans: Spans, model: ModelSummary) -> TokenizedText:
        """What a pane shows of ``model``'s encoding: its token forms and its readable ones alike."""
        return cls(text, encoding, spans, model.display_token, model.forms)

    @property
    def shown_chars(self) -> int:
        """Characters of ``text`` the view displays."""
        return self.spans.shown_chars

    @property
    def truncated(self) -> bool:
        return self.shown_chars < len(self.text)

    def segment_texts(self) -> list[str]:
        return [self.text[a:b] for a, b in zip(self.spans.seg_start, self.spans.seg_end)]

    def token_segments(self) -> list[int]:
        """Indices of segments covered by at least one token."""
        return [i for i, toks in enumerate(self.spans.seg_tokens) if toks]

    def display_token(self, index: int) -> str:
        enc = self.encoding
        shown = self.forms.display_at(enc.ids, enc.offsets, index) if self.forms is not None else None
        if shown is not None:
            return shown
        if self.display is not None:
            return self.display(enc.ids[index], partial=enc.partial_at(index))
        return enc.tokens[index]

    def readable(self, index: int) -> list[Part]:
        """Token ``index`` as a person reads it: the text it covers (:mod:`~wubitok.services.readable_tokens`)."""
        enc = self.encoding
        return readable_parts(self.text, enc.ids, enc.offsets, enc.partial, index, self.forms)

    def spelling(self, index: int) -> str:
        """Token ``index`` as the model spells it (Wubi keys, byte letters, ``##``)."""
        if self.forms is not None:
            return self.forms.spelling_at(self.encoding.ids, self.encoding.offsets, index)
        return self.display_token(index)


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
        move_to_thread(doc, app.thread())
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


def _document_units_differ(text: str) -> bool:
    """A document's positions are not ``text``'s code points (astral characters, CRLF, CR)."""
    return "\r" in text or len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)


def readable_token(data: TokenizedText, index: int) -> str:
    """Token ``index`` as a person reads it, in the app's language: ``民 (1 of 2)``, ``<E6 97>``, ``␣``."""
    return format_parts(
        data.readable(index),
        piece_form=QCoreApplication.translate("ReadableToken", "{char} ({k} of {n})"),
        special_form=QCoreApplication.translate("ReadableToken", "{token} for {text}"))


def readable_note(data: TokenizedText, index: int) -> str:
    """What a partial token's readable form means, in a sentence (a tooltip); "" for a whole one."""
    parts = data.readable(index)
    s, e = data.encoding.offsets[index]
    chars = data.text[s:e]
    if any(p.kind == "bytes" for p in parts):
        return QCoreApplication.translate(
            "ReadableToken", "Bytes that are part of a character: {chars} is {hex} in UTF-8").replace(
            "{chars}", visible(chars)).replace("{hex}", hex_bytes(chars.encode("utf-8", "surrogatepass")))
    piece = next((p for p in parts if p.kind == "piece"), None)
    if piece is not None:
        return QCoreApplication.translate(
            "ReadableToken", "Piece {k} of the {n} tokens that together spell {char}").replace(
            "{k}", str(piece.k)).replace("{n}", str(piece.n)).replace("{char}", piece.text)
    return ""


def _hash_index(token_id: int, n: int) -> int:
    return zlib.crc32(token_id.to_bytes(8, "little", signed=True)) % n


def wubi_keys(chars: str) -> str:
    """Full Wubi codes of the Han characters in ``chars`` (for tooltips)."""
    from ...wubi.dictionary import default_dictionary

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
        document.setUndoRedoEnabled(False)  # edits (set_tokenized_edited) are never undone
        document.setParent(self)
        old = self._own_document
        self.setDocument(document)
        self._own_document = document
        if old is not None:
            old.deleteLater()
        self._apply_whitespace()
        self.viewport().update()

    def set_tokenized_edited(self, data: TokenizedText) -> None:
        """Show ``data``, the text shown with an edit: only the characters that differ are
        replaced in the document (no document is built), the boxes come from ``data``."""
        old = self._data
        new_text = data.text[: data.shown_chars]
        if old is None or _document_units_differ(new_text):
            self.set_tokenized(data)
            return
        old_text = old.text[: old.shown_chars]
        if _document_units_differ(old_text):
            self.set_tokenized(data)
            return
        edit = find_edit(old_text, new_text)
        cursor = QTextCursor(self.document())
        cursor.setPosition(edit.start)
        cursor.setPosition(edit.old_end, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(new_text[edit.start:edit.new_end])
        self._data = data
        self._highlighted = -1
        self.viewport().update()

    def clear_tokens(self) -> None:
        self.set_tokenized(None)

    # -- options ---------------------------------------------------------------
    def set_whitespace_visible(self, shown: bool) -> None:
        self._whitespace = shown
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
            seg = bisect_right(data.spans.seg_start, data.encoding.offsets[index][0]) - 1
            if 0 <= seg < len(data.spans.doc_start):
                cursor = self.textCursor()
                cursor.setPosition(min(data.spans.doc_start[seg], self.document().characterCount() - 1))
                self.setTextCursor(cursor)
                self.ensureCursorVisible()
        self.viewport().update()

    # -- colours -------------------------------------------------------------
    def _dark(self) -> bool:
        return self.palette().color(QPalette.ColorRole.Base).lightness() < 128

    def segment_colour(self, seg: int, colours: Sequence[QColor] | None = None) -> QColor | None:
        """The box colour of segment ``seg``, from ``colours`` (the palette's, when not given)."""
        data = self._data
        if data is None or not data.spans.seg_tokens[seg]:
            return None
        if colours is None:
            colours = self._colours()
        first = data.spans.seg_tokens[seg][0]
        if self._colour_mode == "by-id":
            return colours[_hash_index(data.encoding.ids[first], len(colours))]
        return colours[first % len(colours)]

    def _colours(self) -> list[QColor]:
        return [QColor(c) for c in (DARK_COLOURS if self._dark() else LIGHT_COLOURS)]

    # -- painting ------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if self._data is not None and self._data.spans.seg_start:
            painter = QPainter(self.viewport())
            try:
                self._paint_boxes(painter, event.rect())
            finally:
                painter.end()
        super().paintEvent(event)

    def _paint_boxes(self, painter: QPainter, clip) -> None:
        data = self._data
        assert data is not None
        spans = data.spans
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
                    seg = bisect_right(spans.doc_end, ls)
                    while seg < len(spans.doc_start) and spans.doc_start[seg] < le:
                        colour = self.segment_colour(seg, colours)
                        if colour is not None:
                            a = max(spans.doc_start[seg], ls) - base
                            b = min(spans.doc_end[seg], le) - base
                            x1 = line.cursorToX(a)[0] + rect.left()
                            x2 = line.cursorToX(b)[0] + rect.left()
                            # One pixel of gap so adjacent boxes of similar colour stay apart.
                            box = QRectF(QPointF(x1, rect.top()), QPointF(max(x1 + 1, x2 - 1), rect.bottom()))
                            painter.fillRect(box, colour)
                            if spans.seg_partial[seg]:
                                painter.fillRect(box, QBrush(hatch, Qt.BrushStyle.BDiagPattern))
                                painter.setPen(outline)
                                painter.drawRect(box.adjusted(0.5, 0.5, -0.5, -0.5))
                            if self._highlighted in spans.seg_tokens[seg]:
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
        seg = bisect_right(data.spans.doc_start, p) - 1
        if 0 <= seg < len(data.spans.doc_start) and data.spans.doc_start[seg] <= p < data.spans.doc_end[seg]:
            return seg
        return None

    def tooltip_html(self, seg: int) -> str:
        data = self._data
        assert data is not None
        chars = data.text[data.spans.seg_start[seg] : data.spans.seg_end[seg]]
        rows = []
        for i in data.spans.seg_tokens[seg]:
            s, e = data.encoding.offsets[i]
            span = data.text[s:e]
            bits = [
                f"<b>#{i}</b> " + self.tr("id") + f" <b>{data.encoding.ids[i]}</b>",
                self.tr("token") + f" <b>{html.escape(readable_token(data, i))}</b>",
                self.tr("spelled") + f" <code>{html.escape(visible(data.spelling(i)))}</code>",
            ]
            keys = wubi_keys(span)
            if keys:
                bits.append(self.tr("Wubi") + f" <code>{html.escape(keys)}</code>")
            if data.encoding.partial_at(i):
                bits.append("<i>" + self.tr("part of a character") + "</i>")
            rows.append(" · ".join(bits))
        if not rows:
            return "<i>" + self.tr("not covered by any token") + f"</i>: {html.escape(visible(chars))}"
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
        toks = self._data.spans.seg_tokens[seg] if seg is not None and self._data is not None else ()
        self.tokenHovered.emit(toks[0] if toks else -1)
        super().mouseMoveEvent(e)
