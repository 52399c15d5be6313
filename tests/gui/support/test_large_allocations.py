"""glibc's mmap threshold stays where the app fixes it (gui/support/large_allocations.py)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

# A block of 8 MB freed, then one of 4 MB: is the second a mapping of its own (mallinfo2's hblkhd,
# the bytes in mappings, grows by it), or in the heap, where growing it copies it?
_SCRIPT = """
import ctypes, sys
from wubitok.gui.support.large_allocations import fix_mmap_threshold

class MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                               "fsmblks", "uordblks", "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo2
if sys.argv[1] == "fixed":
    assert fix_mmap_threshold()
elif sys.argv[1] == "app":
    from wubitok.gui.app import create_app
    create_app(language="en", theme_name="light")
big = bytearray(8 << 20)
del big
before = libc.mallinfo2().hblkhd
block = bytearray(4 << 20)
print(libc.mallinfo2().hblkhd - before)
"""


def _mapped(mode: str) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MALLOC_", "GLIBC_TUNABLES"))}  # glibc's own way
    done = subprocess.run([sys.executable, "-c", _SCRIPT, mode], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.mark.system("glibc")
def test_a_large_block_is_a_mapping_after_a_larger_one_was_freed():
    assert _mapped("moving") == 0  # glibc's own way: the freed 8 MB raised the threshold
    assert _mapped("fixed") >= 4 << 20


@pytest.mark.system("glibc")
def test_the_app_fixes_the_threshold_as_it_starts():
    assert _mapped("app") >= 4 << 20
