"""User dictionaries read into the user's phrases, in the formats Wubi input methods keep them:

- a Rime ``.dict.yaml`` (its ``columns`` header; ``text`` and ``code``, other columns
  ignored), as ``wubitok table export --to rime`` writes it;
- ``code phrase`` lines: fcitx5 / libime text tables (``wubitok table export --to
  fcitx5``; what comes before ``[Data]`` is the table's header), fcitx 4 tables
  (``[数据]``), ibus-table sources (``code<TAB>phrase<TAB>freq`` between ``BEGIN_TABLE``
  and ``END_TABLE``), 极点's ``code phrase phrase ...``, ``wubitok phrase list``;
- Microsoft's ``code,pos=phrase`` lines;
- ``word<TAB>code`` lines, or a word alone: it gets the standard phrase code.

Which field is the code is read from each line: a first field of ASCII letters followed by
Chinese is a code (its other ASCII fields, weights and sources, are ignored); else the first
field is the phrase and the second its code.  Comments start with ``#`` or ``;``.

The whole file is checked first (the first bad line is the error, with its
number; with ``skip_invalid`` such lines are counted and left out: a Rime
dictionary may hold symbols and codes a Wubi-86 phrase cannot have); then the
new phrases are added in one transaction, source "import".
Entries the table already has under the same code are not added.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from ...errors import FileError, InputError, UnknownCodeError
from ...fileio import read_text
from ...wubi.dictionary import WubiDictionary
from ..phrases import phrase_entry, typed_by_table
from ..userdb import UserFrequencies
from .rime import COMPLETIONS_MARK

RIME_DEFAULT_COLUMNS = ("text", "code", "weight", "stem")


class PhraseImport(NamedTuple):
    entries: list[tuple[str, str]]  # (code, text), checked, in file order
    added: int  # new user phrases
    known: int  # already in the table or the user's phrases
    skipped: int  # lines left out with skip_invalid


def read_phrase_file(path: str | Path, dictionary: WubiDictionary, *,
                     skip_invalid: bool = False) -> tuple[list[tuple[str, str]], int]:
    """(code, text) of every entry of a Rime dictionary or a word<TAB>code list, checked,
    and the number of invalid lines skipped."""
    p = Path(path)
    lines = read_text(p).removeprefix("\ufeff").splitlines()  # Windows tools start with a byte-order mark
    start, columns = _rime_header(p, lines)
    # wubitok's Rime export ends with completions listed under their prefixes: not phrases.
    end = next((i for i, line in enumerate(lines) if line == COMPLETIONS_MARK), len(lines))
    if columns is None:
        start, end = _table_body(lines)
    entries: list[tuple[str, str]] = []
    skipped = 0
    found: list[tuple[str | None, str]]
    for number, line in enumerate(lines[start:end], start + 1):
        if not line.strip() or line.startswith(("#", ";")):
            continue
        line = line.rstrip("\r")
        if columns is None:
            found = _plain_line(line)
        else:
            row = dict(zip(columns, line.split("\t")))
            found = [(row.get("code", "").strip() or None, row.get("text", "").strip())]
        try:
            for code, text in found:
                # The table's own entries (卡拉OK, symbols) come back in an exported table: known, not invalid.
                if code is not None and typed_by_table(dictionary, code, text):
                    entries.append((code, text))
                else:
                    entries.append(phrase_entry(dictionary, text, code))
        except (InputError, UnknownCodeError) as exc:
            if not skip_invalid:
                raise FileError(f"{p}, line {number}: {exc}") from None
            skipped += 1
    if not entries:
        raise FileError(f"{p}: no entries (expected code phrase, word<TAB>code or code,pos=phrase lines,"
                        " or a Rime .dict.yaml)")
    return entries, skipped


_MICROSOFT = re.compile(r"([A-Za-z]+),\d+=(.*)")
# Where the entries of a table with a header begin: fcitx5/libime, fcitx 4, ibus-table.
_DATA_MARKS = ("[Data]", "[数据]", "BEGIN_TABLE")


def _table_body(lines: list[str]) -> tuple[int, int]:
    """(first, end) line index of the entries: after a table header's data mark, up to
    ibus-table's END_TABLE; the whole file when it has no header."""
    start = next((i + 1 for i, line in enumerate(lines) if line.strip() in _DATA_MARKS), 0)
    end = next((i for i in range(start, len(lines)) if lines[i].strip() == "END_TABLE"), len(lines))
    return start, end


def _plain_line(line: str) -> list[tuple[str | None, str]]:
    """(code or None, phrase) of one line of a plain list, whichever order its fields are in."""
    microsoft = _MICROSOFT.fullmatch(line.strip())
    if microsoft:
        return [(microsoft[1], microsoft[2].strip())]
    fields = line.split("\t") if "\t" in line else line.split()
    first = fields[0].strip()
    rest = [f.strip() for f in fields[1:]]
    if first.isascii() and first.isalpha() and any(not f.isascii() for f in rest):
        return [(first, f) for f in rest if not f.isascii()]  # code phrase [phrase...] [weight]
    return [(rest[0] if rest and rest[0] else None, first)]  # word<TAB>code, or a word alone


def _rime_header(p: Path, lines: list[str]) -> tuple[int, tuple[str, ...] | None]:
    """(index of the first data line, column names): a Rime file's header is the YAML
    document between ``---`` and ``...``; a plain list has none (None)."""
    first = next((i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")), len(lines))
    if first == len(lines) or lines[first].rstrip() != "---":
        return 0, None
    end = next((i for i in range(first + 1, len(lines)) if lines[i].rstrip() == "..."), None)
    if end is None:
        raise FileError(f"{p}: a Rime dictionary header ('---') without its end ('...')")
    columns: list[str] = []
    header = lines[first + 1:end]
    for i, line in enumerate(header):
        if line.startswith("columns:"):
            inline = line.partition(":")[2].strip()
            if inline.startswith("["):  # columns: [text, code]
                columns = [c.strip() for c in inline.strip("[]").split(",") if c.strip()]
            else:
                for item in header[i + 1:]:
                    if not item.lstrip().startswith("- "):
                        break
                    columns.append(item.split("-", 1)[1].strip())
    if columns and "text" not in columns:
        raise FileError(f"{p}: the Rime dictionary has no text column ({', '.join(columns)})")
    return end + 1, tuple(columns) or RIME_DEFAULT_COLUMNS


def import_phrases(path: str | Path, dictionary: WubiDictionary, db: UserFrequencies, *,
                   skip_invalid: bool = False) -> PhraseImport:
    """Add the entries of ``path`` to the user's phrases (one transaction)."""
    entries, skipped = read_phrase_file(path, dictionary, skip_invalid=skip_invalid)
    known = {(c, t) for c, t, _ in db.phrases()}
    new: dict[tuple[str, str], None] = {}
    for code, text in entries:
        if (code, text) in known or (code, text) in new:
            continue
        if typed_by_table(dictionary, code, text):
            continue
        new[(code, text)] = None
    db.import_data([], [(c, t, "import") for c, t in new], [])
    return PhraseImport(entries, len(new), len(entries) - len(new), skipped)
