"""The token table as a file: CSV or JSON, one row per token, every column the table has.

The cells are the table's own (:meth:`TokenTableModel.cell`), the spelling and Wubi columns
included whether or not they are shown; offsets are two numbers, ``start`` and ``end``.
Made in a job thread (a megabyte of text is hundreds of thousands of rows), written atomically.
"""
from __future__ import annotations

import csv
import io
import json
import threading
from pathlib import Path

from ...fileio import atomic_write_text
from ...progress import check_cancel
from .token_table import COLUMNS, TokenTableModel
from .token_view import TokenizedText

FORMATS = ("csv", "json")
FIELDS = ("index", "id", "token", "spelling", "wubi", "bytes", "start", "end")
_NUMBERS = ("index", "id", "bytes", "start", "end")


def table_rows(data: TokenizedText, cancel: threading.Event | None = None) -> list[dict[str, object]]:
    """Every row of the table of ``data``: its cells, numbers as numbers."""
    model = TokenTableModel()  # its own, in this thread: only cell() is used
    model.set_tokenized(data)
    rows = []
    for row in range(model.rowCount()):
        if row % 10_000 == 0:
            check_cancel(cancel)
        cells: dict[str, object] = {c: model.cell(row, c) for c in COLUMNS if c != "offsets"}
        cells["start"], cells["end"] = data.encoding.offsets[row]
        for name in ("index", "id", "bytes"):
            cells[name] = int(str(cells[name]))
        rows.append({name: cells[name] for name in FIELDS})
    return rows


def table_text(data: TokenizedText, fmt: str, cancel: threading.Event | None = None) -> str:
    """The table of ``data`` as CSV (a header row, then the rows) or JSON (a list of objects)."""
    rows = table_rows(data, cancel)
    if fmt == "json":
        return json.dumps(rows, ensure_ascii=False, indent=1) + "\n"
    out = io.StringIO()
    writer = csv.DictWriter(out, FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def export_table(data: TokenizedText, path: str | Path, fmt: str, cancel: threading.Event | None = None) -> Path:
    """Write the table of ``data`` to ``path`` as ``fmt`` (csv or json), atomically."""
    atomic_write_text(path, table_text(data, fmt, cancel))
    return Path(path)
