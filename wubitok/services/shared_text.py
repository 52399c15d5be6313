"""A long text handed to worker processes once, as a block of shared memory, not pickled per task.

A task's arguments reach a worker of a ``ProcessPoolExecutor`` pickled by the pool's feeder thread
in the app's process, one task at a time.  Pickling a ``str`` is encoding it to UTF-8 in one C
call that holds the GIL: 10 MB of Chinese text is ~70 ms (30 MB of UTF-8), once per task, so
Compare with four models froze the window that long four times, the GUI thread asleep waiting for
the GIL (``bench/probe_gui_turns.py --only compare_paste_10m``).

:func:`shared_text` encodes the text once, a piece of :data:`PIECE` characters per C call (under
a millisecond each; between two, Python lets the GUI thread have the GIL), into a
``multiprocessing.shared_memory`` block, and returns a :class:`SharedText`: a ``str`` equal to the
text that pickles as the block's name and length.  A worker unpickles it as a plain ``str``
decoded from the block (its own GIL; the app's process only sends a few bytes).  Being a ``str``,
it goes wherever the text went, inside other arguments too (an ``EditedText``), and a task run in
the calling thread (the pool's fallback) just uses it.

The block lives as long as the ``SharedText`` does: a pool keeps a task's arguments until the
task is done, so every worker that unpickles it finds the block, and it is unlinked as the last
reference goes (the call has ended, its tasks run or dropped, a worker dead or not).  If the app
itself dies, ``multiprocessing``'s resource tracker, which every block is registered with, unlinks
it as it ends (docs/worker-processes.md).  Where no block can be made (no ``/dev/shm``, or too
little room in it: the room is taken before anything is written, since writing to a full one is
a SIGBUS), the text is returned as it is and pickled as before.
"""
from __future__ import annotations

import os
import threading
import weakref
from multiprocessing import shared_memory
from typing import Any

from ..progress import check_cancel

SHARE_FROM = 1 << 18  # characters; shorter texts pickle in ~2 ms and are sent as they are
PIECE = 1 << 16  # characters encoded per C call: 0.2-0.7 ms (at most 192 KB of UTF-8)
# What pickle does to a str, so that a shared text is the same str on the other side, lone
# surrogates included.
ERRORS = "surrogatepass"


class SharedText(str):
    """A ``str`` that pickles as the name of a shared memory block holding it (see the module doc)."""

    _block: shared_memory.SharedMemory
    _nbytes: int

    def __reduce_ex__(self, protocol: Any) -> tuple:
        return _attach, (self._block.name, self._nbytes)

    @property
    def block_name(self) -> str:
        """The shared memory block's name (tests)."""
        return self._block.name


def shared_text(text: str, *, cancel: threading.Event | None = None) -> str:
    """``text`` as a :class:`SharedText` when it has :data:`SHARE_FROM` characters or more, else
    (or where no shared memory block can be made) ``text`` itself.  Call it outside the GUI thread:
    it encodes the text (tens of milliseconds on 10 MB, in pieces) and copies it (one call, ~10 ms
    on 10 MB).  Raises :class:`~wubitok.errors.Cancelled` when ``cancel`` is set meanwhile."""
    if len(text) < SHARE_FROM or isinstance(text, SharedText):
        return text
    pieces = []
    for start in range(0, len(text), PIECE):
        check_cancel(cancel)
        pieces.append(text[start:start + PIECE].encode("utf-8", ERRORS))
    nbytes = sum(map(len, pieces))
    block = _new_block(nbytes)
    if block is None:
        return text
    try:
        buf, at = block.buf, 0
        assert buf is not None  # None only once closed
        pieces.reverse()
        while pieces:
            piece = pieces.pop()  # freed as it goes: the UTF-8 never lives twice
            buf[at:at + len(piece)] = piece
            at += len(piece)
        shared = SharedText(text)
    except BaseException:
        _release(block)
        raise
    shared._block, shared._nbytes = block, nbytes
    weakref.finalize(shared, _release, block)
    return shared


def _new_block(nbytes: int) -> shared_memory.SharedMemory | None:
    """A block of ``nbytes`` with its memory taken, or None where there is no room or no block."""
    try:
        block = shared_memory.SharedMemory(create=True, size=max(1, nbytes))
    except (OSError, ValueError):  # no /dev/shm, no permission, no memory
        return None
    fd = getattr(block, "_fd", -1)  # POSIX only; Windows maps memory that is there
    if fd >= 0 and hasattr(os, "posix_fallocate"):
        try:
            # A tmpfs (/dev/shm) without room for a page written through the mapping kills the
            # process with SIGBUS; fallocate says ENOSPC instead, before anything is written.
            os.posix_fallocate(fd, 0, max(1, nbytes))
        except OSError:
            _release(block)
            return None
    return block


def _release(block: shared_memory.SharedMemory) -> None:
    """Close and unlink ``block`` (each at most once; a block already gone is no error)."""
    try:
        block.close()
    except BufferError:  # a view of it is still out: the mapping goes with the process
        pass
    try:
        block.unlink()
    except FileNotFoundError:
        pass


def _attach(name: str, nbytes: int) -> str:
    """The text in block ``name``, decoded; what a worker unpickles a :class:`SharedText` as."""
    try:
        block = shared_memory.SharedMemory(name, track=False)  # type: ignore[call-arg]  # Python 3.13+
    except TypeError:
        # Before 3.13 attaching registers the block with the resource tracker too, which the app
        # shares with its workers: one entry, removed by the app's unlink after this task is done.
        block = shared_memory.SharedMemory(name)
    try:
        buf = block.buf
        assert buf is not None  # None only once closed
        with buf[:nbytes] as view:
            return str(view, "utf-8", ERRORS)
    finally:
        block.close()
