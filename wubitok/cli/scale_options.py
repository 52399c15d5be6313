"""Options and output shared by the commands that work at corpus scale (count, train, encode)."""
from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from typing import Iterator

from .common import ProgressLine


def add_scale_options(p: argparse.ArgumentParser) -> None:
    """--workers, --cluster and --max-words: how counting is spread and bounded (count and train)."""
    p.add_argument("--workers", type=int, default=1, metavar="N", help="processes to count with (default 1)")
    p.add_argument("--cluster", metavar="WHERE",
                   help="count on Dask: local:N (a LocalCluster of N processes) or tcp://HOST:PORT "
                        "(pip install 'wubitok[cluster]')")
    p.add_argument("--max-words", type=int, metavar="N",
                   help="bound memory: past N distinct pre-tokens, drop the rarest down to N/2 (lossy counting: "
                        "frequent pre-tokens stay nearly exact, rare ones go; a model trained from them is then "
                        "approximate, the same for any --workers)")


@contextmanager
def stderr_progress(enabled: bool) -> Iterator[ProgressLine | None]:
    """A ProgressLine on stderr (None when not ``enabled``), ended when the block ends.

    On an error the stage is not summed up in a log: the error is the one line
    to read (on a terminal the line drawn so far is only ended)."""
    bar = ProgressLine(sys.stderr) if enabled else None
    try:
        yield bar
    except BaseException:
        if bar is not None and bar.tty:
            bar.finish()
        raise
    if bar is not None:
        bar.finish()


def add_quiet_progress(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    p.add_argument("--quiet", "-q", action="store_true", help="no progress or summary on stderr")
    p.add_argument("--progress", action="store_true",
                   help="draw progress on stderr even when it is not a terminal (a log, a pipe)")
