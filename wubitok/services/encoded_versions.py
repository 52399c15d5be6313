"""Versions of one text's encoding, kept in an encode worker: an edit is sent, not the text.

The Tokenize pane shows the tokens of a text of up to megabytes as it is typed.  Sending
the whole text to the worker and its whole encoding back costs per token, whatever the
edit (pickling, unpickling, the app's views rebuilt): 1-2 s at 1 MB.  So the worker keeps
the last :data:`KEEP_VERSIONS` versions of the text with their encodings, the app sends an
:class:`EditedText` against the version it shows, and :func:`encode_since` answers with
only the tokens that changed (:class:`EncodedSince`), which the app splices into its own
copy (:meth:`~wubitok.services.tokenized.PackedEncoding.spliced`).

Versions live in one process: their pool has one worker (:func:`versions_pool`).  A
worker without the base version (started afresh, another model) answers None and the
app sends the whole text.

Whether decoding gives the text back is known per line piece (the pieces every engine
encodes alone: :mod:`~wubitok.services.incremental_encode`): only the pieces an edit
touched are decoded again.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..engines.base import Tokenizer
from .incremental_encode import Edit, find_edit, line_pieces, reencode_packed
from .tokenized import DISPLAY_LIMIT, EncodedRange, PackedEncoding, Spans

KEEP_VERSIONS = 3  # the app may drop a result it no longer wants: the version before it stays here
# Tokens per answer: the rest of a longer run of changed tokens (a paste) is asked for a part at a
# time (:func:`kept_part`).  The app unpickles an answer in one call holding its GIL: at 10 MB the
# whole encoding, 96 MB, was a 70-120 ms freeze of the window; a part of this many is about 5 MB.
PART_TOKENS = 200_000


@dataclass(frozen=True)
class EditedText:
    """``text[start:start + removed]`` replaced by ``inserted`` in version ``base`` of a text
    (None: no base, ``inserted`` is the whole text)."""

    start: int
    removed: int
    inserted: str
    base: int | None

    @classmethod
    def whole(cls, text: str) -> "EditedText":
        return cls(0, 0, text, None)

    @classmethod
    def between(cls, old: str, new: str, base: int) -> "EditedText":
        """The edit that makes ``new`` of ``old`` (version ``base``): what the texts share left out."""
        edit = find_edit(old, new)
        return cls(edit.start, edit.old_end - edit.start, new[edit.start:edit.new_end], base)

    def applied_to(self, text: str) -> str:
        return text[:self.start] + self.inserted + text[self.start + self.removed:]


@dataclass(frozen=True)
class EncodedSince:
    """The encoding of version ``version`` as a change of its base: ``where`` says which
    tokens replace ``[where.first, where.stop)``: ``tokens`` holds the first :data:`PART_TOKENS`
    of them, :func:`kept_part` gives the others.  ``spans`` only for a whole text
    (``where.first == 0``); ``roundtrip``: whether the whole text decodes back."""

    version: int
    where: EncodedRange
    tokens: PackedEncoding
    roundtrip: bool
    spans: Spans | None = None


@dataclass(frozen=True)
class LossyPieces:
    """The line pieces of a text that do not decode back, in text order (numpy: WordPiece has
    every piece here, tens of thousands at 1 MB, moved by every edit)."""

    starts: Any
    ends: Any

    @classmethod
    def of(cls, pieces: list[tuple[int, int]]) -> "LossyPieces":
        import numpy as np

        return cls(np.array([a for a, _ in pieces], dtype=np.int64), np.array([b for _, b in pieces], dtype=np.int64))

    def __bool__(self) -> bool:
        return len(self.starts) > 0

    def after(self, where: EncodedRange, edited: list[tuple[int, int]]) -> "LossyPieces":
        """The pieces after an edit that encoded ``where`` again, ``edited`` those of it that are lossy."""
        import numpy as np

        before = int(np.searchsorted(self.ends, where.start, "right"))
        after = int(np.searchsorted(self.starts, where.old_end, "left"))
        middle = LossyPieces.of(edited)
        shift = where.char_shift
        return LossyPieces(np.concatenate([self.starts[:before], middle.starts, self.starts[after:] + shift]),
                           np.concatenate([self.ends[:before], middle.ends, self.ends[after:] + shift]))


@dataclass(frozen=True)
class _Kept:
    text: str
    spliced: PackedEncoding | Future[PackedEncoding]
    lossy: LossyPieces

    @property
    def encoding(self) -> PackedEncoding:
        return self.spliced.result() if isinstance(self.spliced, Future) else self.spliced


_kept: OrderedDict[tuple[object, int], _Kept] = OrderedDict()
_lock = threading.Lock()
_splicing: ThreadPoolExecutor | None = None


def _spliced_later(base: PackedEncoding, where: EncodedRange, middle: PackedEncoding) -> Future[PackedEncoding]:
    """The encoding after an edit, made in a thread of this process after the answer has gone:
    the app waits for the changed tokens only, and the next edit comes 200 ms later at the
    soonest (the pane's debounce).  At 10 MB the splice copies 96 MB: 50-80 ms."""
    global _splicing
    with _lock:
        if _splicing is None:
            _splicing = ThreadPoolExecutor(1, thread_name_prefix="splice")
        return _splicing.submit(base.spliced, where.first, where.stop, middle, where.char_shift)


def _lossy_pieces(tok: Tokenizer, text: str, enc: PackedEncoding, start: int, end: int) -> list[tuple[int, int]]:
    """The pieces of ``text[start:end]`` whose tokens, ``enc`` (its tokens from ``start`` on), do not
    decode back to them."""
    if tok.decode(list(enc.ids[:_count_before(enc, end)])) == text[start:end]:
        return []  # every piece, as far as an engine's decoding runs piece after piece
    out = []
    for a, b in line_pieces(text, start, end):
        lo, hi = _count_before(enc, a), _count_before(enc, b)
        if tok.decode(list(enc.ids[lo:hi])) != text[a:b]:
            out.append((a, b))
    return out


def _count_before(enc: PackedEncoding, position: int) -> int:

    return enc.tokens_before(position)


def encode_since(ref, tok: Tokenizer, edited: EditedText, version: int, shown: int = DISPLAY_LIMIT
                 ) -> EncodedSince | None:
    """Version ``version`` of the text: ``edited`` applied to its base, encoded (see the module
    doc); None when the base is not kept here."""
    if edited.base is None:
        text = edited.inserted
        full = tok.encode(text)
        enc = PackedEncoding.pack(full)
        lossy = LossyPieces.of(_lossy_pieces(tok, text, enc, 0, len(text)))
        where = EncodedRange(0, 0, len(text), 0, 0, len(enc))
        _keep(ref, version, _Kept(text, enc, lossy))
        return EncodedSince(version, where, enc.head(PART_TOKENS), not lossy, Spans.of(text, full, shown))
    with _lock:
        base = _kept.get((ref, edited.base))
    if base is None:
        return None
    text = edited.applied_to(base.text)
    end = edited.start + len(edited.inserted)
    base_encoding = base.encoding
    middle, where = reencode_packed(tok, base_encoding, text, Edit(edited.start, edited.start + edited.removed, end))
    lossy = base.lossy.after(where, _lossy_pieces(tok, text, middle, where.start, where.new_end))
    _keep(ref, version, _Kept(text, _spliced_later(base_encoding, where, middle), lossy))
    return EncodedSince(version, where, middle.head(PART_TOKENS), not lossy)


def kept_part(ref, version: int, start: int, stop: int) -> PackedEncoding | None:
    """Tokens ``[start, stop)`` of version ``version``'s encoding (None: no longer kept)."""
    with _lock:
        kept = _kept.get((ref, version))
    return None if kept is None else kept.encoding.part(start, stop)


def _keep(ref, version: int, kept: _Kept) -> None:
    with _lock:
        for key in [k for k in _kept if k[0] != ref]:  # one text's versions: another model starts afresh
            del _kept[key]
        _kept[(ref, version)] = kept
        while len(_kept) > KEEP_VERSIONS:
            _kept.popitem(last=False)
