"""A big result's lists are emptied a slice per turn of the event loop, from their end."""
from __future__ import annotations

import time

from PySide6.QtCore import QObject

from wubitok.gui.support.release import SLICE, release_later


def test_long_lists_go_a_slice_per_turn_short_ones_at_once(qapp):
    owner = QObject()
    long, other, short = list(range(2 * SLICE + 7)), list(range(SLICE)), [object()]
    release_later(owner, long, other)
    assert len(long) == 2 * SLICE + 7 and len(other) == SLICE  # nothing in the call itself
    deadline = time.monotonic() + 10
    while (long or other) and time.monotonic() < deadline:
        before = len(long) + len(other)
        qapp.processEvents()  # one pass of the event loop
        assert before - (len(long) + len(other)) <= SLICE
        time.sleep(0.002)
    assert long == [] == other
    release_later(owner, short)
    assert short == []
