"""DocumentText follows a document edit by edit: always its raw text, no-break spaces kept."""
from __future__ import annotations

import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from wubitok.gui.support.document_text import DocumentText, raw_text
from wubitok.gui.support.text_pieces import document_pieces

PIECES = st.one_of(st.sampled_from(["\n", "a", "明月", " ", "\u00a0", "\t", "\n\n", "\U0001F600", "e\u0301"]),
                   st.text(st.characters(blacklist_categories=("Cs",)), max_size=3))


def _units(text: str, at: int) -> int:
    return len(text[:at].encode("utf-16-le", "surrogatepass")) // 2


def _select(edit: QPlainTextEdit, cursor: QTextCursor, at: int, removed: int) -> None:
    """Select ``removed`` characters from character ``at`` (a document counts UTF-16 units)."""
    text = raw_text(edit.document())
    cursor.setPosition(_units(text, at))
    cursor.setPosition(_units(text, at + removed), QTextCursor.MoveMode.KeepAnchor)


def _kept_aside(qtbot, start: str, inserts: list[str]):
    """An editor holding ``start``, followed, with ``inserts`` typed one after another in its middle."""
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.setPlainText(start)
    follower = DocumentText(edit.document())
    cursor = edit.textCursor()
    cursor.setPosition(_units(start, len(start) // 2))
    for piece in inserts:
        cursor.insertText(piece)
    return edit, follower, cursor


def _long_edit(qtbot):
    """An empty LongPasteEdit and its follower."""
    from wubitok.gui.widgets.long_paste_edit import LongPasteEdit

    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    return edit, DocumentText(edit.document())


def _reads(monkeypatch) -> list[str]:
    """Every text read out of a document through a cursor's selection, from now on."""
    read: list[str] = []
    selected_text = QTextCursor.selectedText
    monkeypatch.setattr(QTextCursor, "selectedText", lambda self: read.append(selected_text(self)) or read[-1])
    return read


def test_no_break_spaces_are_kept(qtbot):
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    follower = DocumentText(edit.document())
    edit.setPlainText("a\u00a0b\nc")
    assert follower.text() == "a\u00a0b\nc"
    assert edit.toPlainText() == "a b\nc"  # why the pane does not ask toPlainText


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.lists(PIECES, max_size=8).map("".join),
       edits=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 5), st.lists(PIECES, max_size=4).map("".join)),
                      max_size=6))
def test_the_text_follows_every_edit(qtbot, start, edits):
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.setPlainText(start)
    follower = DocumentText(edit.document())
    rereads = []
    follower._reread = lambda: rereads.append(1)  # the document is never read whole again
    for at, removed, inserted in edits:
        cursor = edit.textCursor()
        _select(edit, cursor, at, removed)
        cursor.insertText(inserted)
        assert follower.text() == raw_text(edit.document())
    edit.undo()
    assert follower.text() == raw_text(edit.document())
    assert not rereads  # emoji and Ext-B included: each edit is spliced, not read again whole


def test_a_long_paste_is_read_a_piece_at_a_time(qtbot, monkeypatch):
    # LongPasteEdit puts each piece in an edit of its own: the document reports each one, and no
    # change is the whole text (reading 10 MB back out of a document held the GUI thread 240 ms).
    from wubitok.gui.support.text_pieces import DOCUMENT_PIECE_CHARS
    from wubitok.gui.widgets.long_paste_edit import LongPasteEdit

    edit = LongPasteEdit()
    qtbot.addWidget(edit)
    edit.setPlainText("before\nafter")
    follower = DocumentText(edit.document())
    read_back = _reads(monkeypatch)
    cursor = edit.textCursor()
    cursor.setPosition(3)
    cursor.setPosition(8, QTextCursor.MoveMode.KeepAnchor)
    pasted = "明月\r\n几时有\r把酒\u00a0问青天\U0001F600\U00020000\n" * 5_000  # astral ones too
    done = []
    edit.insert_long(cursor, document_pieces(pasted), then=lambda: done.append(1))
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)
    monkeypatch.undo()
    assert follower.text() == raw_text(edit.document())
    assert follower.text() == "bef" + pasted.replace("\r\n", "\n").replace("\r", "\n") + "fter"
    assert len(read_back) > 1 and max(map(len, read_back)) <= DOCUMENT_PIECE_CHARS + 1000


def test_an_expected_set_plain_text_is_not_read_back(qtbot, monkeypatch):
    # setPlainText reports two changes: everything removed, then the new text inserted.
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.setPlainText("before")
    follower = DocumentText(edit.document())
    read_back = _reads(monkeypatch)
    text = "明月\r\n几时有\r把酒\u00a0问青天\U0001F600\n" * 100
    follower.expect(text)
    edit.setPlainText(text)
    assert follower.text() == raw_text(edit.document()) == text.replace("\r\n", "\n").replace("\r", "\n")
    assert not "".join(read_back)
    edit.setPlainText("after")  # nothing expected: read
    assert follower.text() == "after"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.lists(PIECES, max_size=8).map("".join),
       edits=st.lists(st.tuples(st.booleans(), st.integers(0, 40), st.integers(0, 5),
                                st.lists(PIECES, max_size=4).map("".join)), max_size=10))
def test_the_text_follows_edits_read_only_at_the_end(qtbot, start, edits):
    # Insertions one after another are kept aside until the text is asked for: edits of any kind
    # in between, and only the last read.
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.setPlainText(start)
    follower = DocumentText(edit.document())
    cursor = edit.textCursor()
    for after_the_last, at, removed, inserted in edits:
        if not after_the_last:  # else where the cursor is: after what it inserted last
            _select(edit, cursor, at, removed)
        cursor.insertText(inserted)
    assert follower.text() == raw_text(edit.document())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.lists(PIECES, max_size=6).map("".join),
       inserts=st.lists(st.lists(PIECES, min_size=1, max_size=4).map("".join), min_size=1, max_size=6),
       cuts=st.lists(st.integers(1, 6), max_size=8), then=st.lists(PIECES, max_size=3).map("".join))
def test_removals_from_the_end_of_what_went_in_are_followed(qtbot, start, inserts, cuts, then):
    # Insertions kept aside, then taken off from their end in pieces of any size (as LongPasteEdit
    # removes a long text), more typed after: the text is the document's, read once at the end.
    edit, follower, cursor = _kept_aside(qtbot, start, inserts)
    for cut in cuts:
        end = cursor.position()
        text = raw_text(edit.document())
        at = len(text.encode("utf-16-le", "surrogatepass")[:2 * end].decode("utf-16-le", "surrogatepass"))
        _select(edit, cursor, max(0, at - cut), min(cut, at))
        cursor.removeSelectedText()
    cursor.insertText(then)
    assert follower.text() == raw_text(edit.document())


def _peak(change) -> int:
    """The most memory Python held beyond what it held before, while ``change()`` ran."""
    import tracemalloc

    tracemalloc.start()
    try:
        change()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_text_replaced_in_pieces_is_not_copied_per_piece(qtbot):
    # Convert's result replaced by the next one: the old text goes a piece at a time from its end, the
    # new one comes in a piece at a time.  Cutting each piece off the whole text copied all of it
    # (40 MB at 10 MB of codes) per piece.  Whether the old text was read or not, nothing of it is
    # copied: what is held is the new text's pieces, and the text is put together once, when asked for.
    edit, follower = _long_edit(qtbot)
    texts = ["明月几时有\U0001F600\n" * 30_000, "把酒问青天\n" * 25_000, "不知天上宫阙\n" * 5_000]
    for n, text in enumerate(texts):
        done: list[int] = []

        def replace(text=text, done=done) -> None:
            cursor = QTextCursor(edit.document())
            cursor.select(QTextCursor.SelectionType.Document)
            edit.insert_long(cursor, document_pieces(text), then=lambda: done.append(1))
            qtbot.waitUntil(lambda: bool(done), timeout=20_000)

        peak = _peak(replace)
        if n:  # the old text, unread then read, is not copied: the new one's pieces, not a copy of the old
            assert peak < 0.7 * sys.getsizeof(texts[n - 1])
        if n:  # the first text is left unread
            assert follower.text() == text == raw_text(edit.document())
            assert follower.text() is follower.text()  # put together once


def test_keys_and_removals_in_a_long_text_copy_none_of_it(qtbot):
    # A key or a Backspace in the middle of a 10 MB text copied all of it (two slices and their join,
    # 40 MB of new memory: 72-122 ms on the GUI thread); a long text just put in stays in its pieces.
    for read_first in (False, True):
        edit, follower = _long_edit(qtbot)
        text = "明月几时有\U0001F600\n" * 30_000
        done: list[int] = []
        edit.insert_long(QTextCursor(edit.document()), document_pieces(text), then=lambda d=done: d.append(1))
        qtbot.waitUntil(lambda d=done: bool(d), timeout=20_000)
        if read_first:
            assert follower.text() == text

        units = _units(text, len(text))

        def keys(edit=edit, units=units) -> None:  # positions in UTF-16 units: the test reads no text either
            cursor = edit.textCursor()
            for at, removed, typed in ((units // 2, 0, "把酒"), (units // 3, 4, ""), (units // 3, 1, "问")):
                cursor.setPosition(at)
                cursor.setPosition(at + removed, QTextCursor.MoveMode.KeepAnchor)
                cursor.insertText(typed)

        assert _peak(keys) < sys.getsizeof(text) // 20
        assert follower.text() == raw_text(edit.document())
        assert [whole[start:end] for whole, start, end in follower.slices()] == [follower.text()]


def test_what_is_left_of_a_long_text_does_not_keep_it(qtbot):
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    follower = DocumentText(edit.document())
    text = "明月\U0001F600几时有\n" * 20_000
    edit.setPlainText(text)
    cursor = edit.textCursor()
    _select(edit, cursor, 3, len(text) - 10)  # all but 3 characters at the start, 7 at the end
    cursor.removeSelectedText()
    cursor.setPosition(4)  # and a key among what is left
    cursor.insertText("酒")
    assert sum(len(whole) for whole, _, _ in follower.slices()) < 100  # read before text() joins them
    assert follower.text() == raw_text(edit.document()) == text[:3] + "酒" + text[-7:]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.lists(PIECES, max_size=6).map("".join),
       inserts=st.lists(st.lists(PIECES, min_size=1, max_size=4).map("".join), min_size=1, max_size=6),
       typed=st.lists(st.tuples(st.integers(0, 60), st.lists(PIECES, min_size=1, max_size=2).map("".join)),
                      max_size=5))
def test_typing_inside_what_went_in_is_followed(qtbot, start, inserts, typed):
    # Insertions kept aside, then text typed anywhere among them (a key in a long text just pasted):
    # the text is the document's, read once at the end.
    edit, follower, cursor = _kept_aside(qtbot, start, inserts)
    for at, text in typed:
        _select(edit, cursor, min(at, len(raw_text(edit.document()))), 0)
        cursor.insertText(text)
    assert follower.text() == raw_text(edit.document())
