"""The text of a token as a person reads it, for tables and tooltips.

A tokenizer's own form of a token is for the tokenizer: Wubi-BPE's keys
(``g#13``, ``n#27``: keys as typed, the index as ``#``), byte-level BPE's byte letters (``ï¼Į`` for ``，``),
WordPiece's ``##``, SentencePiece's ``▁``.  Right after opening a Chinese file
those look like a file read in the wrong encoding.  What a reader wants is the
text the token covers, and where a token is only part of a character, which
part:

* a whole stretch of text: its characters, whitespace as marks (``␣`` ``↵``);
* a piece of a character spelled in Wubi keys: that character and which piece
  (``民`` 1 of 2) -- never the character its keys alone would spell (the first
  piece of 民 alone spells 性);
* raw bytes that are not a whole character: in hex (``<E6 97>``);
* a special token (``[UNK]``): its name and the text it stands for.

:func:`readable_parts` works from the text, the offsets and ``partial`` flags
of an encoding and two facts per id that the model gives
(:meth:`~wubitok.engines.base.Tokenizer.byte_piece`, the special ids), so it
serves every engine and the libraries' tokenizers alike.  A front end turns
the parts into words of its own language (:func:`format_parts`).
"""
from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from ..engines.base import Tokenizer
from ..wubi.byte_reading import ByteReading, begins_inside
from .tokenized import Joined, ints

# Whitespace and the ideographic space made visible; controls show as \xNN.
VISIBLE = {" ": "␣", "\t": "⇥", "\n": "↵", "\r": "␍", "\u3000": "□"}
PIECE_FORM = "{char} ({k} of {n})"
SPECIAL_FORM = "{token} ({text})"


def visible(s: str) -> str:
    """``s`` with whitespace as marks and control characters as ``\\xNN``."""
    out = []
    for c in s:
        if c in VISIBLE:
            out.append(VISIBLE[c])
        elif c < " " or "\x7f" <= c < "\xa0":
            out.append(f"\\x{ord(c):02x}")
        else:
            out.append(c)
    return "".join(out)


@dataclass(frozen=True)
class Part:
    """One stretch of a token's readable form.

    ``kind`` is ``text`` (``text``: characters, made visible), ``piece``
    (the token is piece ``k`` of the ``n`` tokens that spell the character
    ``text``), ``bytes`` (``text``: hex bytes, ``E6 97``) or ``special``
    (``text``: the token's name; ``covers``: what it stands for, made visible).
    """

    kind: str
    text: str
    k: int = 0
    n: int = 0
    covers: str = ""


def hex_bytes(data: bytes) -> str:
    return " ".join(f"{b:02X}" for b in data)


def byte_parts(data: bytes) -> list[Part]:
    """Bytes as text where they are whole UTF-8 characters, in hex where they are not."""
    parts: list[Part] = []
    text = data.decode("utf-8", "surrogateescape")
    run: list[str] = []
    raw = bytearray()

    def flush() -> None:
        if run:
            parts.append(Part("text", visible("".join(run))))
            run.clear()
        if raw:
            parts.append(Part("bytes", hex_bytes(bytes(raw))))
            raw.clear()

    for c in text:
        if "\udc80" <= c <= "\udcff":
            if run:
                flush()
            raw.append(ord(c) - 0xDC00)
        else:
            if raw:
                flush()
            run.append(c)
    flush()
    return parts


def _covering(offsets: Sequence[tuple[int, int]], i: int, pos: int) -> tuple[int, int]:
    """(which, of how many): token ``i``'s place among the tokens whose spans hold ``pos``.
    Tokens come in text order, so those tokens are neighbours of ``i``."""
    first = i
    while first > 0 and offsets[first - 1][0] <= pos < offsets[first - 1][1]:
        first -= 1
    last = i
    while last + 1 < len(offsets) and offsets[last + 1][0] <= pos < offsets[last + 1][1]:
        last += 1
    return i - first + 1, last - first + 1


@dataclass(frozen=True)
class TokenForms:
    """What the readable form needs of a model, per id, kept flat (it crosses from an
    encode worker to the app's process with the model's summary): the model's own
    spelling, the bytes of byte pieces, the special ids."""

    spellings: Joined
    # Each id's bytes run together: a byte piece's, or with a ``reading`` every id's byte values
    piece_bytes: bytes
    piece_ends: array  # where each id's bytes end in piece_bytes
    is_piece: bytes  # 1 where the id is a byte piece
    special_ids: frozenset[int]
    reading: ByteReading | None = None  # Wubi-BPE's shared-bytes: how a token reads where it stands

    def _bytes_of(self, tid: int) -> bytes:
        return self.piece_bytes[self.piece_ends[tid - 1] if tid else 0 : self.piece_ends[tid]]

    def spelling_at(self, ids: Sequence[int], offsets: Sequence[tuple[int, int]], i: int) -> str:
        """The model's spelling of token ``i`` where it stands (a piece of a character read on
        from the pieces before it, ``Tokenizer.byte_reading``)."""
        if self.reading is None or not begins_inside(offsets, i):
            return self.spelling(ids[i])
        return self.reading.spelling_at(self._bytes_of, ids, offsets, i)

    def display_at(self, ids: Sequence[int], offsets: Sequence[tuple[int, int]], i: int) -> str | None:
        """``Tokenizer.display_at`` where the id alone does not say it; else None (the model's own)."""
        if self.reading is None or not begins_inside(offsets, i):
            return None
        return self.reading.display_at(self._bytes_of, ids, offsets, i)

    @classmethod
    def of(cls, tok: Tokenizer) -> "TokenForms":
        n = tok.vocab_size
        pieces = [tok.byte_piece(i) for i in range(n)]
        specials = {tok.token_to_id(t) for t in getattr(tok, "special_tokens", None) or ()}
        unk = getattr(tok, "unk_id", None)
        reading = tok.byte_reading
        stored = [p or b"" for p in pieces] if reading is None else [bytes(tok.byte_values(i)) for i in range(n)]
        return cls(Joined.of([tok.spelling(i) for i in range(n)]), b"".join(stored),
                   ints(accumulate(map(len, stored))), bytes(p is not None for p in pieces),
                   frozenset(i for i in (*specials, unk) if i is not None), reading)

    def spelling(self, tid: int) -> str:
        return self.spellings[tid] if 0 <= tid < len(self.spellings) else ""

    def byte_piece(self, tid: int) -> bytes | None:
        if not 0 <= tid < len(self.is_piece) or not self.is_piece[tid]:
            return None
        return self._bytes_of(tid)


def readable_parts(
    text: str,
    ids: Sequence[int],
    offsets: Sequence[tuple[int, int]],
    partial: Sequence[int] | bytes,
    i: int,
    forms: TokenForms | None = None,
) -> list[Part]:
    """Token ``i`` of an encoding of ``text`` as parts a reader understands (see the module).
    Without ``forms`` no token is taken for bytes or a special token."""
    start, end = offsets[i]
    tid = ids[i]
    covered = text[start:end]
    if forms is not None and tid in forms.special_ids:
        return [Part("special", forms.spelling(tid), covers=visible(covered))]
    if not (i < len(partial) and partial[i]):
        return [Part("text", visible(covered))]
    data = forms.byte_piece(tid) if forms is not None else None
    if data is not None:
        return byte_parts(data)
    parts: list[Part] = []
    for pos in range(start, end):
        k, n = _covering(offsets, i, pos)
        if n > 1:
            parts.append(Part("piece", visible(text[pos]), k, n))
        elif parts and parts[-1].kind == "text":
            parts[-1] = Part("text", parts[-1].text + visible(text[pos]))
        else:
            parts.append(Part("text", visible(text[pos])))
    return parts


def format_parts(parts: Sequence[Part], *, piece_form: str = PIECE_FORM, special_form: str = SPECIAL_FORM) -> str:
    """Parts as one line: ``piece_form`` with {char} {k} {n}, ``special_form`` with {token} {text}
    (in a front end's language); bytes as ``<E6 97>``."""
    out = []
    for p in parts:
        if p.kind == "piece":
            out.append(piece_form.replace("{char}", p.text).replace("{k}", str(p.k)).replace("{n}", str(p.n)))
        elif p.kind == "bytes":
            out.append(f"<{p.text}>")
        elif p.kind == "special":
            out.append(special_form.replace("{token}", p.text).replace("{text}", p.covers)
                       if p.covers and p.covers != p.text else p.text)
        else:
            out.append(p.text)
    return " ".join(out) if any(p.kind != "text" for p in parts) and len(parts) > 1 else "".join(out)
