"""A long text in pieces: the pieces are the text, and a cut never splits a CR LF or a character."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.gui.support.text_pieces import Utf8Pieces, document_pieces

# Line breaks of every kind, Han, an Ext B character (two UTF-16 units, four UTF-8 bytes), Latin.
CHUNKS = st.lists(st.sampled_from(["\n", "\r", "\r\n", "中", "文", "\U00020000", "a", " ", "\u2029"]), max_size=120)


def _no_crlf_split(pieces) -> bool:
    return not any(a.endswith("\r") and b.startswith("\n") for a, b in zip(pieces, pieces[1:]))


@settings(max_examples=200, deadline=None)
@given(parts=CHUNKS, size=st.integers(1, 12))
def test_the_pieces_are_the_text_and_never_split_a_crlf(parts, size):
    text = "".join(parts)
    pieces = document_pieces(text, size)
    assert "".join(pieces) == text
    assert all(pieces)
    assert _no_crlf_split(pieces)
    assert all(len(a) <= size + 1 for a in pieces[:-1])


@settings(max_examples=300, deadline=None)
@given(parts=CHUNKS, size=st.integers(1, 16))
def test_utf8_pieces_are_the_text_whole_characters_each(parts, size):
    text = "".join(parts)
    pieces = Utf8Pieces(text.encode("utf-8"), size)
    decoded = list(pieces)
    assert "".join(decoded) == text
    assert "\ufffd" not in "".join(decoded)  # no character was cut in two
    assert all(decoded) and _no_crlf_split(decoded)
    assert len(pieces) >= len(text.encode("utf-8")) // (size + 3)  # pieces of about ``size`` bytes


@settings(max_examples=500, deadline=None)
@given(raw=st.binary(max_size=200), size=st.integers(1, 16))
def test_utf8_pieces_of_any_bytes_decode_as_the_whole_does(raw, size):
    # Bad UTF-8 too (a clipboard's owner may send anything): U+FFFD where the whole decoding has it.
    assert "".join(Utf8Pieces(raw, size)) == raw.decode("utf-8", "replace")


@given(text=st.text(max_size=300), size=st.integers(1, 40))
def test_utf8_pieces_of_any_text(text, size):
    raw = text.encode("utf-8", "surrogatepass")
    assert "".join(Utf8Pieces(raw, size)) == raw.decode("utf-8", "replace")


def test_a_piece_is_copied_out_only_when_asked_for():
    """Cutting 19 million characters is no copy of them (Convert's 10 MB result: 103 ms in one turn)."""
    import tracemalloc

    text = "中文 abc\n" * 2_500_000
    tracemalloc.start()
    try:
        pieces = document_pieces(text)
        cut = tracemalloc.get_traced_memory()[1]
        first = pieces[0]
    finally:
        tracemalloc.stop()
    assert cut < len(text) // 10
    assert first == text[:len(first)] and len(pieces) > 1000
    assert pieces[-1] == text[-len(pieces[-1]):]


@settings(max_examples=200, deadline=None)
@given(chunks=st.lists(CHUNKS, max_size=6), size=st.integers(1, 12))
def test_the_pieces_of_a_text_in_parts_are_the_text_and_never_split_a_crlf(chunks, size):
    from wubitok.text.builder import text_parts

    strings = ["".join(chunk) for chunk in chunks]
    parts = text_parts(strings, 7)
    pieces = document_pieces(parts, size)
    assert "".join(pieces) == "".join(strings)
    assert all(pieces) and _no_crlf_split(pieces)
    assert all(len(a) <= size + 1 for a in pieces[:-1])
    assert list(pieces[::-1]) == [pieces[-1 - k] for k in range(len(pieces))]
