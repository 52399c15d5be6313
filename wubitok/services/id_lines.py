"""The id list of a tokenized text: one line of ids per line of the text.

A line of the list holds the ids of the tokens that start in that line of the text, so an
edit changes only the lines of the list that its lines of the text are: the Tokenize pane
replaces those (:func:`id_lines_after`), never the whole list.  The list covers the lines
the token view shows (those that start in the first ``shown`` characters); a last line
says how many ids are left out (:class:`IdLines`).  A line of the list holds at most
:data:`IDS_PER_LINE` ids: a text widget lays out a paragraph whole.
"""
from __future__ import annotations

from dataclasses import dataclass

from .tokenized import EncodedRange, PackedEncoding

IDS_PER_LINE = 2_000


@dataclass(frozen=True)
class IdLines:
    """What an id list holds: ``lines`` lines, one per line of the text shown, then a line
    saying ``more`` ids are left out if any are."""

    lines: int
    more: int
    text_lines: int  # lines of the whole text


@dataclass(frozen=True)
class LinesReplaced:
    """Lines ``[first, first + removed)`` of a list replaced by ``lines``."""

    first: int
    removed: int
    lines: list[str]


def more_line(more: int) -> str:
    return f"… (+{more:,})"


def shown_lines(text: str, shown: int) -> int:
    """Lines of ``text`` that start in its first ``shown`` characters (the whole text: all of them)."""
    if shown >= len(text):
        return text.count("\n") + 1
    return text.count("\n", 0, max(shown - 1, 0)) + 1


def _line_starts(text: str, at: int, n: int) -> list[int]:
    """The starts of the ``n`` lines from the one that starts at ``at``, and where the last ends."""
    out = [at]
    for _ in range(n):
        newline = text.find("\n", out[-1])
        out.append(len(text) + 1 if newline < 0 else newline + 1)
    return out


def _ids_of_lines(text: str, enc: PackedEncoding, at: int, n: int) -> list[str]:
    """The id lines of the ``n`` lines of ``text`` from the one that starts at ``at``."""
    import numpy as np

    if n <= 0:
        return []
    starts = _line_starts(text, at, n)
    if n > 256:  # the whole list: one numpy search (it copies the strided starts once)
        bounds = np.searchsorted(enc.starts(), starts, "left").tolist()
    else:
        bounds = [enc.tokens_before(s) for s in starts]
    ids = enc.ids
    out = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        line = " ".join(map(str, ids[a:min(b, a + IDS_PER_LINE)]))
        out.append(line + " …" if b - a > IDS_PER_LINE else line)
    return out


def _ids_before(text: str, enc: PackedEncoding, lines: int, total: int) -> int:
    """Tokens that start in the first ``lines`` lines of ``text`` (``total`` lines)."""
    if lines >= total:
        return len(enc)
    end = _nth_line_start(text, lines)
    return enc.tokens_before(end)


def _nth_line_start(text: str, k: int) -> int:
    at = -1
    for _ in range(k):
        at = text.find("\n", at + 1)
    return at + 1


def id_lines_of(text: str, enc: PackedEncoding, shown: int) -> tuple[IdLines, list[str]]:
    """The whole id list of ``text`` (its first ``shown`` characters shown)."""
    n = shown_lines(text, shown)
    lines = _ids_of_lines(text, enc, 0, n)
    total = text.count("\n") + 1
    more = len(enc) - _ids_before(text, enc, n, total)
    return IdLines(n, more, total), lines + ([more_line(more)] if more else [])


def id_lines_after(old: IdLines, old_text: str, text: str, enc: PackedEncoding, shown: int, where: EncodedRange
                   ) -> tuple[IdLines, list[LinesReplaced]]:
    """The id list of ``text`` as changes of ``old``'s (the list of ``old_text``), after an edit
    that encoded ``where`` again: to be made in order, each on the list the one before it left.
    The lines are counted in the edited piece, not in the whole text (at 10 MB, five counts of
    every line were 16-34 ms of a key's work)."""
    edited = text.count("\n", where.start, where.new_end)
    total = old.text_lines + edited - old_text.count("\n", where.start, where.old_end)
    n = shown_lines(text, shown)
    first = text.count("\n", 0, where.start)  # where.start is a line's start
    end_new = first + edited if where.new_end < len(text) else total
    end_old = end_new - (total - old.text_lines)
    changes: list[LinesReplaced] = []
    if old.more:
        changes.append(LinesReplaced(old.lines, 1, []))
    # The list is then the old lines: those before the edit, the edit's, those after it.
    if first < old.lines:
        prefix = min(end_new, n)
        changes.append(LinesReplaced(first, min(end_old, old.lines) - first,
                                     _ids_of_lines(text, enc, where.start, prefix - first)))
        moved = max(0, old.lines - end_old)  # the old lines after the edit: new lines [end_new, end_new + moved)
    else:
        prefix, moved = old.lines, 0
    # Now new lines [0, prefix), then `moved` lines that are new lines from end_new on: make it [0, n).
    if prefix < end_new:
        if moved:
            changes.append(LinesReplaced(prefix, moved, []))
        have = prefix
    else:
        have = prefix + moved
    if have > n:
        changes.append(LinesReplaced(n, have - n, []))
    elif have < n:
        changes.append(LinesReplaced(have, 0, _ids_of_lines(text, enc, _nth_line_start(text, have), n - have)))
    more = len(enc) - _ids_before(text, enc, n, total)
    if more:
        changes.append(LinesReplaced(n, 0, [more_line(more)]))
    return IdLines(n, more, total), changes


def applied(lines: list[str], changes: list[LinesReplaced]) -> list[str]:
    """``lines`` with ``changes`` made (tests; the pane makes them in its document)."""
    out = list(lines)
    for c in changes:
        out[c.first:c.first + c.removed] = c.lines
    return out
