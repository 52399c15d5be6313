"""The one corpus reader every trainer uses, and counts of pre-tokens.

Training text comes as ``texts`` (strings, a list or any iterable), ``files``
(UTF-8) or both.  ``Corpus.blocks`` hands it to a counter in blocks: each text
whole, files in blocks of about ``BLOCK_CHARS`` cut only where no pre-token
of any engine can span the cut (see ``last_safe_cut``), so counting block by
block, in one process or many, counts exactly the pre-tokens of the whole
text.

Counts are plain ``pre-token -> int`` mappings (``collections.Counter``), and
merging counts is adding them (``merge_counts``): the counting step is a pure
function of one block, so blocks may be counted in any order, anywhere, and
the sum is the same.  Each engine family has such a function and
``Engine.train_from_counts`` learns from the sum.
"""
from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Generator
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from ..errors import InputError
from ..fileio import TextPath, check_readable_text, iter_text_chunks
from ..processes import run_in_processes
from ..progress import ProgressCallback, check_cancel

# File text goes to the counters in blocks of about this many characters;
# a block with no place to cut it safely is cut anyway at MAX_BLOCK_CHARS.
BLOCK_CHARS = 1 << 20
MAX_BLOCK_CHARS = 1 << 24

# One block's counts: pre-token -> how often it occurs.
BlockCounter = Callable[[str], Mapping[str, int]]


class Corpus:
    """Checked training input: ``texts`` (None, one str or an iterable of str) and readable ``paths``.

    Files are checked at once (missing, not UTF-8, empty -> ``FileError``)
    so that a bad corpus fails before any work is done; the texts are
    checked as they are read (an iterator is read once).  ``size`` is the
    corpus's size in UTF-8 bytes, as far as it is known ahead (an iterator
    of texts is not: ``size_known`` is then False).
    """

    def __init__(self, texts: Iterable[str] | str | None = None, files: Sequence[str | os.PathLike] | None = None):
        if texts is None and files is None:
            raise InputError("nothing to train on: give texts or files")
        if isinstance(files, (str, os.PathLike)):
            files = [files]
        self.texts: Iterable[str] | None = [texts] if isinstance(texts, str) else texts
        self.paths: list[TextPath] = check_readable_text(files) if files is not None else []
        self.size = sum(os.path.getsize(p) for p in self.paths)
        self.size_known = True
        if isinstance(self.texts, (list, tuple)):
            self.size += sum(_utf8_len(t) for t in self.texts if isinstance(t, str))
        elif self.texts is not None:
            self.size_known = False

    def blocks(self, progress: ProgressCallback | None = None,
               cancel: threading.Event | None = None) -> Iterator[str]:
        """The corpus as blocks: every non-empty text whole, then the files cut at safe places.

        ``progress("counting", bytes done, bytes in all)`` follows the UTF-8
        bytes read; the total is 0 (unknown) while the size is not known.
        """
        done = 0

        def report(n: int) -> None:
            nonlocal done
            done += n
            if progress is not None:
                progress("counting", done, max(self.size, done) if self.size_known else 0)

        report(0)
        for text in self.texts if self.texts is not None else ():
            check_cancel(cancel)
            if not isinstance(text, str):
                raise InputError(f"training texts must be str, not {type(text).__name__}")
            if text:
                yield text
            report(_utf8_len(text))
        for path in self.paths:
            yield from safe_blocks(iter_text_chunks(path, BLOCK_CHARS), max_chars=MAX_BLOCK_CHARS,
                                   on_chunk=lambda chunk: report(_utf8_len(chunk)), cancel=cancel)
        if progress is not None:
            # Everything is counted once the consumer asks past the last block.
            progress("counting", done, done)


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def last_safe_cut(text: str) -> int:
    """Just after the last line break that a non-space character follows, or 0.

    No engine's pre-token goes on past a line break into a non-space
    character (Wubi-BPE's runs, GPT-4's regex, BERT words and Unigram words
    all end there), so a cut there splits no pre-token.  A cut before
    whitespace could: GPT-4 keeps a run of blank lines together.
    """
    pos = text.rfind("\n", 0, len(text) - 1)
    while pos >= 0:
        if not text[pos + 1].isspace():
            return pos + 1
        pos = text.rfind("\n", 0, pos)
    return 0


def last_space_cut(text: str, specials: Sequence[str] = ()) -> int:
    """Just before the last space (U+0020) that follows a character that is not whitespace, or 0:
    the place to cut a line too long to hold whole, where it has one (issue #37, 5).

    Every engine's pre-tokenizer ends a pre-token there and starts the next one from there alone:
    GPT-4's and the joined pattern's letter, number and punctuation runs stop at a space, and a
    space starts " word", " (" or a run of spaces (no pattern looks behind); Wubi-BPE's clause cut
    ends a run at a space and holds the space for what follows; BERT splits at whitespace; a
    Unigram word starts with its space (runs of spaces too).  So a cut there splits no pre-token
    and the ids of the two parts are the ids of the whole (tests/engines/test_long_lines.py).
    Only what counts followers is not cut-free: Unigram's counts key the word before the cut
    with the end of a line instead of a space.  A special token written with a space in it
    (``specials``) is never cut: it is matched before any pre-tokenizer runs.
    """
    spaced = [t for t in specials if " " in t]
    # Not so near the end that a special token around the place could go on past the text.
    end = len(text) - max(map(len, spaced), default=0)
    pos = text.rfind(" ", 1, max(end, 0))
    while pos > 0:
        if not text[pos - 1].isspace() and not any(_inside(text, t, pos) for t in spaced):
            return pos
        pos = text.rfind(" ", 1, pos)
    return 0


def _inside(text: str, token: str, pos: int) -> bool:
    """Whether an occurrence of ``token`` in ``text`` has ``pos`` strictly inside it."""
    start = text.find(token, max(0, pos - len(token) + 1), pos + len(token) - 1)
    while start != -1 and start < pos:
        if start + len(token) > pos:
            return True
        start = text.find(token, start + 1, pos + len(token) - 1)
    return False


def safe_blocks(chunks: Iterable[str], block_chars: int | None = None, *, min_chars: int = 0,
                max_chars: int | None = None, specials: Sequence[str] = (),
                on_chunk: Callable[[str], None] | None = None,
                cancel: threading.Event | None = None) -> Iterator[str]:
    """The text of ``chunks`` again, in blocks cut only at safe places (``last_safe_cut``).

    A block ends at the last safe place in what has come so far, taken
    ``block_chars`` at a time (None: a chunk at a time); the rest waits for
    the next piece.  With ``min_chars``, a place to cut is looked for only
    once that much has come (fewer, bigger blocks: the cut is still the last
    safe place, so a block may be shorter).  So a text with no safe place is
    held whole, unless ``max_chars`` is given: a block that long with no safe
    place is cut before its last space that ends a word (``last_space_cut``, which splits no
    pre-token either, nor any of ``specials``), and one with no such space is cut anyway (a bound
    on memory that may split a pre-token; only an absurd text has neither for that long).
    ``on_chunk(chunk)`` is called once a chunk is used up (for progress), and a set ``cancel`` raises
    ``errors.Cancelled`` before each chunk.
    """
    tail = ""
    for chunk in chunks:
        check_cancel(cancel)
        step = block_chars or len(chunk) or 1
        for i in range(0, len(chunk), step):
            buf = tail + chunk[i:i + step]
            cut = last_safe_cut(buf) if len(buf) >= min_chars else 0
            if not cut and max_chars is not None and len(buf) >= max_chars:
                cut = last_space_cut(buf, specials) or len(buf)
            if cut:
                yield buf[:cut]
                tail = buf[cut:]
            else:
                tail = buf
        if on_chunk is not None:
            on_chunk(chunk)
    if tail:
        yield tail


def merge_counts(*parts: Mapping[str, int]) -> Counter[str]:
    """The sum of several counts (a new Counter; the inputs are not changed):
    associative and commutative, so shards merge in any order."""
    total: Counter[str] = Counter()
    for part in parts:
        total.update(part)
    return total


def count_corpus(
    count_block: BlockCounter,
    corpus: Corpus,
    *,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    workers: int = 1,
) -> Counter[str]:
    """``count_block`` over the corpus's blocks, summed.

    ``workers`` > 1 counts in that many processes
    (:func:`wubitok.processes.run_in_processes`; ``count_block`` must then be
    picklable: a module-level function or a ``functools.partial`` of one).
    The result does not depend on it.
    """
    blocks = corpus.blocks(progress, cancel)
    if workers <= 1:
        parts: Iterator[Mapping[str, int]] = map(count_block, blocks)
    else:
        parts = run_in_processes(_count, count_block, blocks, workers)
    counts: Counter[str] = Counter()
    try:
        for part in parts:
            counts.update(part)
            check_cancel(cancel)
    finally:
        if isinstance(parts, Generator):  # the workers end now, not when the error is let go
            parts.close()
    return counts


def _count(count_block: BlockCounter, block: str) -> Mapping[str, int]:
    return count_block(block)
