"""Ctrl+C and SIGTERM quit the app as File > Quit does.

Python runs a signal handler only when the interpreter next runs Python code; inside
Qt's event loop that is the next slot, which may be minutes away (and the handler's
exception then landed in the error hook as a traceback, the window staying open).
So the C-level handler writes the signal's number to a socket (``signal.set_wakeup_fd``)
that a ``QSocketNotifier`` watches: the event loop wakes at once, and the callback runs
on the GUI thread between events, where closing the window is safe.
"""
from __future__ import annotations

import signal
import socket
from contextlib import contextmanager
from typing import Callable, Iterator

from PySide6.QtCore import QSocketNotifier

SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def quit_on_signals(on_signal: Callable[[int], None]) -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM call ``on_signal(signum)`` on the GUI thread,
    from the event loop; afterwards the previous handlers are back."""
    # A socket pair rather than a pipe: set_wakeup_fd takes only sockets on Windows.
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)

    def readable() -> None:
        try:
            data = reader.recv(64)
        except BlockingIOError:
            return
        for signum in data:
            on_signal(signum)

    notifier.activated.connect(readable)
    # A Python handler must be set for the C handler to write to the socket; its own
    # work is done through the socket, so it does nothing.
    previous = {s: signal.signal(s, lambda *_: None) for s in SIGNALS}
    old_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    try:
        yield
    finally:
        signal.set_wakeup_fd(old_fd)
        for s, handler in previous.items():
            signal.signal(s, handler)
        notifier.setEnabled(False)
        notifier.deleteLater()
        reader.close()
        writer.close()
