"""Encoding one long text as a stream: memory bounded by a block, output written as it comes.

``wubitok encode --file F`` treats the file as one text.  Reading it whole
and encoding it at once keeps the text and every token object in memory
(about 100 times the file).  Here the text comes in chunks and is encoded in
blocks cut just before a line whose first character is not whitespace
(``engines.corpus.safe_blocks``): no pre-token of any engine spans such a
cut, so the blocks' encodings, offsets shifted, are the encoding of the whole
text (tested on every engine).  Memory holds one block: a chunk plus the rest
of the line it ends in, up to ``MAX_BLOCK_CHARS``; a longer line is cut before a space that ends
a word, which splits no pre-token either (``engines.corpus.last_space_cut``), or, with none,
anyway (issue #37, 5).

The writers put out exactly what printing the whole encoding gives: ids
separated by spaces, or the JSON object ``{"ids", "tokens", "offsets"}``
indented by two spaces.  JSON needs the three lists one after the other, so
the tokens and offsets of the blocks wait in temporary files (on disk, not
in memory) until the ids are out.
"""
from __future__ import annotations

import json.encoder
import shutil
import tempfile
from typing import Callable, Iterable, Iterator, TextIO

from ..engines.base import Encoding, Tokenizer
from ..engines.corpus import safe_blocks

# Characters encoded at a time: the token objects of a block take about 100
# bytes per character, so this keeps a block's encoding to a few MB.
BLOCK_CHARS = 1 << 16
# A block with no line to cut at is cut before a space that ends a word once it is this long, or
# anyway with no such space (``safe_blocks``): a 10 MB line is encoded in bounded memory.
MAX_BLOCK_CHARS = 1 << 18

# A str as JSON with ensure_ascii=False (json's own C encoder).
_json_string: Callable[[str], str] = json.encoder.encode_basestring

# progress(characters done)
CharProgress = Callable[[int], None]


def encode_blocks(tokenizer: Tokenizer, chunks: Iterable[str], block_chars: int = BLOCK_CHARS,
                  progress: CharProgress | None = None) -> Iterator[Encoding]:
    """The encoding of the text of ``chunks``, a block at a time, offsets counted from the text's start."""
    start = 0
    for block in safe_blocks(chunks, block_chars, max_chars=max(block_chars, MAX_BLOCK_CHARS),
                             specials=tokenizer.special_tokens):
        enc = tokenizer.encode(block)
        if start:
            enc = Encoding(enc.ids, enc.tokens, [(a + start, b + start) for a, b in enc.offsets], enc.partial)
        yield enc
        start += len(block)
        if progress is not None:
            progress(start)


def write_ids(encodings: Iterable[Encoding], out: TextIO) -> None:
    """The ids on one line, separated by spaces (as ``encode`` prints them)."""
    first = True
    for enc in encodings:
        if enc.ids:
            out.write(("" if first else " ") + " ".join(map(str, enc.ids)))
            first = False
    out.write("\n")


class _JsonList:
    """One list of the JSON object, written a block at a time as ``json.dumps(indent=2)`` lays it out."""

    def __init__(self, out: TextIO, key: str):
        self.out, self.key, self.empty = out, key, True

    def extend(self, items: list[str]) -> None:
        """Add items already in JSON (a block's worth: one write, not one per item)."""
        if items:
            self.out.write((f'  "{self.key}": [\n    ' if self.empty else ",\n    ") + ",\n    ".join(items))
            self.empty = False

    def close(self, last: bool) -> None:
        end = "" if last else ","
        self.out.write(f'  "{self.key}": []{end}\n' if self.empty else f"\n  ]{end}\n")


def write_json(encodings: Iterable[Encoding], out: TextIO) -> None:
    """``{"ids", "tokens", "offsets"}`` as ``print_json(Encoding.to_json())`` prints it, written incrementally."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as tokens_file, \
            tempfile.TemporaryFile("w+", encoding="utf-8") as offsets_file:
        ids, tokens, offsets = _JsonList(out, "ids"), _JsonList(tokens_file, "tokens"), \
            _JsonList(offsets_file, "offsets")
        out.write("{\n")
        for enc in encodings:
            ids.extend(list(map(str, enc.ids)))
            tokens.extend(list(map(_json_string, enc.tokens)))
            offsets.extend([f"[\n      {a},\n      {b}\n    ]" for a, b in enc.offsets])
        ids.close(last=False)
        tokens.close(last=False)
        offsets.close(last=True)
        for spooled in (tokens_file, offsets_file):
            spooled.seek(0)
            shutil.copyfileobj(spooled, out)
        out.write("}\n")
