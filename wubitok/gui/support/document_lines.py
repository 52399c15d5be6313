"""Lines of a plain-text document replaced in place: the id list after an edit
(:mod:`wubitok.services.id_lines`) changes a few of its lines, not the document."""
from __future__ import annotations

from PySide6.QtGui import QTextCursor, QTextDocument

from ...services.id_lines import LinesReplaced


def replace_lines(doc: QTextDocument, change: LinesReplaced) -> None:
    """Lines ``[first, first + removed)`` of ``doc`` (its blocks) replaced by ``change.lines``."""
    first, removed, lines = change.first, change.removed, change.lines
    blocks = doc.blockCount()
    cursor = QTextCursor(doc)
    if first + removed < blocks:
        cursor.setPosition(doc.findBlockByNumber(first).position())
        cursor.setPosition(doc.findBlockByNumber(first + removed).position(), QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText("".join(line + "\n" for line in lines))
    elif first > 0:  # the lines up to the end: from the line break before them
        at = doc.findBlockByNumber(first).position() - 1 if first < blocks else doc.characterCount() - 1
        cursor.setPosition(at)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText("".join("\n" + line for line in lines))
    else:
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText("\n".join(lines))
