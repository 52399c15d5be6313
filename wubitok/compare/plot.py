"""What the comparison chart shows, computed without Qt.

One row per tokenizer: its characters per token (the bar) and the share of
its tokens of each length (a small histogram beside the bar, on a scale
shared by all rows so that rows compare at a glance).  The drawing itself is
``wubitok.gui.widgets.report_chart`` (the core never imports Qt).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .metrics import CompareResult

BAR_TITLE = "Characters per token"
HIST_TITLE = "Share of tokens by length (characters)"
PART_NOTE = "part = a token that is a piece of one character (byte-level) or covers no character"


@dataclass(frozen=True)
class ChartRow:
    name: str
    chars_per_token: float
    length_shares: list[float]  # one per bucket, summing to 1 (or all 0 with no tokens)


@dataclass(frozen=True)
class ChartData:
    rows: list[ChartRow]
    bucket_labels: list[str]
    max_chars_per_token: float
    max_share: float
    caption: str  # what was measured, e.g. "2,345 lines, 98,765 characters"


def chart_data(results: Sequence[CompareResult], top: int = 8) -> ChartData:
    rows, labels = [], []
    for r in results:
        buckets = r.length_buckets(top)
        labels = [label for label, _ in buckets]
        total = sum(n for _, n in buckets)
        rows.append(ChartRow(r.name, r.chars_per_token or 0.0, [n / total if total else 0.0 for _, n in buckets]))
    first = results[0] if results else None
    caption = f"{first.lines:,} lines, {first.chars:,} characters" if first else ""
    return ChartData(
        rows=rows,
        bucket_labels=labels,
        max_chars_per_token=max((row.chars_per_token for row in rows), default=0.0),
        max_share=max((s for row in rows for s in row.length_shares), default=0.0),
        caption=caption,
    )
