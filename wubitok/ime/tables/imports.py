"""User dictionaries read into the user's phrases: a Rime ``.dict.yaml`` (its
``columns`` header; ``text`` and ``code``, other columns ignored) or a plain list
of ``word<TAB>code`` lines.  A line without a code gets the standard phrase code.

The whole file is checked first (the first bad line is the error, with its
number; with ``skip_invalid`` such lines are counted and left out: a Rime
dictionary may hold symbols and codes a Wubi-86 phrase cannot have); then the
new phrases are added in one transaction, source "import".
Entries the table already has under the same code are not added.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ...errors import FileError, InputError, UnknownCodeError
from ...fileio import read_text
from ...wubi.dictionary import WubiDictionary
from ..phrases import phrase_entry, typed_by_table
from ..userdb import UserFrequencies

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
    lines = read_text(p).splitlines()
    start, columns = _rime_header(p, lines)
    entries: list[tuple[str, str]] = []
    skipped = 0
    for number, line in enumerate(lines[start:], start + 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.rstrip("\r").split("\t")
        row = dict(zip(columns, fields))
        text, code = row.get("text", "").strip(), row.get("code", "").strip() or None
        try:
            entries.append(phrase_entry(dictionary, text, code))
        except (InputError, UnknownCodeError) as exc:
            if not skip_invalid:
                raise FileError(f"{p}, line {number}: {exc}") from None
            skipped += 1
    if not entries:
        raise FileError(f"{p}: no entries (expected word<TAB>code lines or a Rime .dict.yaml)")
    return entries, skipped


def _rime_header(p: Path, lines: list[str]) -> tuple[int, tuple[str, ...]]:
    """(index of the first data line, column names): a Rime file's header is the YAML
    document between ``---`` and ``...``; a plain list has none."""
    first = next((i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")), len(lines))
    if first == len(lines) or lines[first].rstrip() != "---":
        return 0, ("text", "code")
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
