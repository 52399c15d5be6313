"""The user database as the engine process writes it: a key's learning after the key's signals.

ImeEngine records a choice while it handles the key that commits it, so its transactions
(a WAL write each, and up to the 5 s busy timeout while the app writes to the same file)
would come before the adapter sends commit-text: between the key and the text in the
application.  While a key is handled (:meth:`EngineUserDatabase.held`) they are held and
run, one transaction each as always, once the adapter has sent what the key changed and
before the engine answers the key: the learning is as durable as before (written before
the answer; a kill can lose it only where it could lose the key itself), the text no
longer waits for it.  The in-memory counts that order candidates change at once, as before.
"""
from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

from ...errors import FileError
from ...ime import UserFrequencies


class EngineUserDatabase(UserFrequencies):
    """:class:`UserFrequencies` whose writes can be held for the length of a key."""

    def __init__(self, *args: Any, **kwargs: Any):
        self._held: list[tuple[str, Callable[[sqlite3.Connection], Any]]] | None = None
        super().__init__(*args, **kwargs)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the writes made inside the block and run them, in order, as it ends.  A write
        that fails then is said on the log (the daemon's stderr) and the typing goes on."""
        self._held = []
        try:
            yield
        finally:
            held, self._held = self._held, None
            for what, change in held:
                try:
                    super()._write(what, change)
                except FileError as exc:
                    print(f"wubitok ibus engine: {exc}", file=sys.stderr)

    def _write(self, what: str, change: Callable[[sqlite3.Connection], Any]) -> Any:
        if self._held is None:
            return super()._write(what, change)
        self._held.append((what, change))
        return None
