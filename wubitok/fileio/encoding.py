"""Text encodings: the names users see and choose, and encoding text back.

Text files come in UTF-8, UTF-16 (with a byte-order mark), GB18030 (and its
subsets GBK and GB2312) or Big5; the encoding is detected (:mod:`.detection`)
or given, reported back, and used again when the file is saved.
"""
from __future__ import annotations

import codecs
import os

from ..errors import FileError, InputError, excerpt

_LABELS = {"utf-8": "UTF-8", "utf-16-le": "UTF-16LE", "utf-16-be": "UTF-16BE", "gb18030": "GB18030", "cp950": "Big5",
           "big5": "Big5", "big5hkscs": "Big5-HKSCS"}
# What the app offers to read or save a text in: everything detected.  Big5 is read and
# written as CP950, Windows' Big5: the same for every Big5 byte, and 裏, 恒, € besides.
TEXT_ENCODINGS = ("utf-8", "gb18030", "cp950", "big5hkscs", "utf-16-le", "utf-16-be")


def encoding_label(encoding: str) -> str:
    """How an encoding is shown to users: ``gb18030`` -> ``GB18030``."""
    if encoding in _LABELS:
        # Already a codec's own name: no lookup, which imports the codec's module
        # (the CJK ones took 10-15 ms of the GUI thread when a pane was built).
        return _LABELS[encoding]
    name = codecs.lookup(encoding).name
    return _LABELS.get(name, name.upper())


def normalize_encoding(encoding: str | None) -> str | None:
    """A user's encoding choice as a codec name; ``None`` or ``"auto"`` -> ``None`` (detect).

    GBK and GB2312 are read as GB18030, their superset (same bytes, same text); Big5 as CP950.
    """
    if encoding is None or encoding.strip().lower() in ("", "auto"):
        return None
    try:
        name = codecs.lookup(encoding.strip()).name
    except LookupError:
        raise InputError(f"unknown encoding {excerpt(encoding)}", code="encoding.unknown", encoding=encoding) from None
    if name in ("gbk", "gb2312"):
        return "gb18030"
    if name == "big5":
        return "cp950"
    if name == "utf-8-sig":
        return "utf-8"  # the BOM is kept as text (see the module docstring)
    return name


def encode_text(text: str, encoding: str = "utf-8", *, path: str | os.PathLike = "") -> bytes:
    """``text`` in ``encoding``; a character it cannot hold is a clear error."""
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        label, char = encoding_label(encoding), text[exc.start]
        where = f"{path}: " if str(path) else ""
        raise FileError(f"{where}cannot save as {label}: it has no {char!r} (U+{ord(char):04X}, character {exc.start})",
                        code="file.unencodable", path=str(path), encoding=label, char=char,
                        position=exc.start) from None
