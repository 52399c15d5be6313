"""The comparison as text: an aligned table, JSON, CSV or Markdown."""
from __future__ import annotations

import csv
import io
import json
import unicodedata
from typing import Any, Callable, Sequence

from .metrics import SCRIPTS, CompareResult

FORMATS = ("table", "json", "csv", "md")

_MISSING = "—"


def _num(digits: int) -> Callable[[Any], str]:
    return lambda v: f"{v:.{digits}f}"


def _pct(v: float) -> str:
    return f"{100 * v:.2f}%"


# (JSON key, column header, formatter) of the summary table.
COLUMNS: list[tuple[str, str, Callable[[Any], str]]] = [
    ("name", "tokenizer", str),
    ("kind", "kind", str),
    ("tokens", "tokens", str),
    ("chars_per_token", "chars/tok", _num(3)),
    ("bytes_per_token", "bytes/tok", _num(3)),
    ("tokens_per_han", "tok/Han", _num(3)),
    ("unk_rate", "unk", _pct),
    ("roundtrip_rate", "round-trip", _pct),
    ("vocab_size", "vocab", str),
    ("vocab_used", "used", str),
    ("renyi_efficiency", "Rényi(2.5)", _num(3)),
    ("encode_mb_per_s", "MB/s", _num(2)),
    ("train_seconds", "train s", _num(1)),
]


def _columns(results: Sequence[CompareResult]) -> list[tuple[str, str, Callable[[Any], str]]]:
    # The training time column only when something was trained.
    return [c for c in COLUMNS if c[0] != "train_seconds" or any(r.train_seconds is not None for r in results)]


def _cell(value: Any, fmt: Callable[[Any], str]) -> str:
    return _MISSING if value is None else fmt(value)


def _summary_rows(results: Sequence[CompareResult]) -> tuple[list[str], list[list[str]]]:
    cols = _columns(results)
    rows = []
    for r in results:
        data = r.to_json()
        rows.append([_cell(data[key], fmt) for key, _, fmt in cols])
    return [header for _, header, _ in cols], rows


def _length_rows(results: Sequence[CompareResult]) -> tuple[list[str], list[list[str]]]:
    header = ["token length"] + [label for label, _ in results[0].length_buckets()] if results else []
    rows = []
    for r in results:
        total = sum(n for _, n in r.length_buckets())
        rows.append([r.name] + [f"{100 * n / total:.1f}%" if total else _MISSING for _, n in r.length_buckets()])
    return header, rows


def _script_rows(results: Sequence[CompareResult]) -> tuple[list[str], list[list[str]]]:
    present = [k for k in SCRIPTS if any(r.script_chars.get(k) for r in results)]
    header = ["tokens per char"] + [f"{k} ({max(r.script_chars.get(k, 0) for r in results):,})" for k in present]
    rows = []
    for r in results:
        per = r.tokens_per_char_by_script
        rows.append([r.name] + [f"{per[k]:.3f}" if k in per else _MISSING for k in present])
    return header, rows


_SCRIPTS_NOTE = ("Tokens per character by script (tokens covering a character of the class, per character; "
                 "Han (other) = Han outside GB2312, the rare-character tail; characters in brackets):")


def _width(s: str) -> int:
    # Chinese names take two columns in a terminal.
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1 for c in s)


def _aligned(header: list[str], rows: list[list[str]], left: int = 1) -> str:
    widths = [max(_width(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        out = []
        for i, cell in enumerate(cells):
            pad = " " * (widths[i] - _width(cell))
            out.append(cell + pad if i < left else pad + cell)  # names left, numbers right
        return "  ".join(out).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def format_table(results: Sequence[CompareResult]) -> str:
    return (_aligned(*_summary_rows(results), left=2) + "\n\nShare of tokens by length in characters "
            "(part = a piece of one character, or no character):\n" + _aligned(*_length_rows(results))
            + "\n\n" + _SCRIPTS_NOTE + "\n" + _aligned(*_script_rows(results)) + "\n")


def format_markdown(results: Sequence[CompareResult]) -> str:
    def table(header: list[str], rows: list[list[str]], left: int = 1) -> str:
        esc = [[c.replace("|", "\\|") for c in row] for row in [header, *rows]]
        lines = [
            "| " + " | ".join(esc[0]) + " |",
            "|" + "|".join(["---"] * left + ["--:"] * (len(header) - left)) + "|",
        ]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in esc[1:]])

    return (table(*_summary_rows(results), left=2) + "\n\nShare of tokens by length in characters "
            "(part = a piece of one character, or no character):\n\n" + table(*_length_rows(results))
            + "\n\n" + _SCRIPTS_NOTE + "\n\n" + table(*_script_rows(results)) + "\n")


def json_records(results: Sequence[CompareResult]) -> list[dict[str, Any]]:
    return [r.to_json() for r in results]


def format_json(results: Sequence[CompareResult]) -> str:
    return json.dumps(json_records(results), ensure_ascii=False, indent=2) + "\n"


def format_csv(results: Sequence[CompareResult]) -> str:
    """Full-precision figures, one row each; token lengths as columns len_0 (partial), len_1, ...,
    tokens per character by script as columns tpc_<script>."""
    records = json_records(results)
    nested = ("token_lengths", "script_chars", "tokens_per_char_by_script")
    scalar = [k for k in records[0] if k not in nested] if records else []
    longest = max((max(r.token_lengths, default=0) for r in results), default=0)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(scalar + [f"len_{n}" for n in range(longest + 1)] + [f"tpc_{k}" for k in SCRIPTS])
    for rec, r in zip(records, results):
        per = r.tokens_per_char_by_script
        w.writerow(["" if rec[k] is None else rec[k] for k in scalar]
                   + [r.token_lengths.get(n, 0) for n in range(longest + 1)] + [per.get(k, "") for k in SCRIPTS])
    return buf.getvalue()


def format_results(results: Sequence[CompareResult], fmt: str) -> str:
    if fmt == "table":
        return format_table(results)
    if fmt == "json":
        return format_json(results)
    if fmt == "csv":
        return format_csv(results)
    if fmt == "md":
        return format_markdown(results)
    raise ValueError(f"unknown format {fmt!r}")
