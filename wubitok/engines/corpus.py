"""Training text as large blocks that end at line breaks.

Trainers count pre-tokens with C-level regex and ``Counter`` calls over big
strings, which is far faster than line by line.  A block never ends inside a
line, so no pre-token is cut in two (no pre-tokenizer here joins across a
newline).
"""
from __future__ import annotations

import os
import threading
from typing import Iterable, Iterator, Sequence

from ..errors import InputError
from ..fileio import check_readable_text, iter_text_chunks
from .base import check_cancel


def iter_corpus_blocks(
    texts: Iterable[str] | None,
    files: Sequence[str | os.PathLike] | None,
    cancel: threading.Event | None = None,
) -> Iterator[str]:
    """Yield the training text: every string of ``texts``, then every file.

    Files are checked first (missing, not UTF-8, empty -> ``FileError``) so
    that a bad corpus fails before any work is done.
    """
    if texts is None and files is None:
        raise InputError("nothing to train on: give texts or files")
    paths = check_readable_text(files) if files is not None else []
    if texts is not None:
        if isinstance(texts, str):
            texts = [texts]
        for text in texts:
            check_cancel(cancel)
            if not isinstance(text, str):
                raise InputError(f"training texts must be str, not {type(text).__name__}")
            if text:
                yield text
    for path in paths:
        tail = ""
        for chunk in iter_text_chunks(path):
            check_cancel(cancel)
            cut = chunk.rfind("\n") + 1
            if cut == 0:
                tail += chunk
                continue
            yield tail + chunk[:cut]
            tail = chunk[cut:]
        if tail:
            yield tail
