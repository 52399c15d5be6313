"""Large blocks of memory as their own mappings, always (glibc's malloc, on Linux).

glibc serves an allocation of at least its mmap threshold (128 KB at first) with a mapping of its
own, which ``realloc`` grows without copying (``mremap``) and ``free`` gives back to the system.
But freeing such a block raises the threshold to the block's size (up to 32 MB), so after the app
has freed one big text, the next ones come from the heap, where growing one copies it whole into
memory touched for the first time.  Convert's 10 MB result going into its editor grew Qt's
buffer of the document's text that way: turns of 50-100 ms, each one copy of 30-40 MB
(bench/bench_gui_stalls.py, ``convert_paste_10m``: worst 101.6 ms with the moving threshold,
33.4 ms with it fixed).  Setting the threshold once fixes it where it is.
"""
from __future__ import annotations

import ctypes
import os

M_MMAP_THRESHOLD = -3  # mallopt's parameter (malloc.h)
THRESHOLD = 1 << 20  # blocks from 1 MB up: texts and their copies, not the small objects of a program


def on_glibc() -> bool:
    """Whether the C library is glibc (Linux's usual one; not musl, macOS or Windows)."""
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (ValueError, OSError):  # no such name to confstr (not Linux)
        return False


def fix_mmap_threshold() -> bool:
    """Fix glibc's mmap threshold at :data:`THRESHOLD`; False where the C library is not glibc."""
    if not on_glibc():
        return False
    try:
        return bool(ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, THRESHOLD))
    except (OSError, AttributeError):  # no mallopt
        return False
