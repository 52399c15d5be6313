"""shared_text: a long text reaches worker processes through one shared memory block, which goes
when the text does, when a worker dies with it, and when the app dies."""
from __future__ import annotations

import errno
import gc
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from multiprocessing import shared_memory
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.errors import Cancelled, WubitokError
from wubitok.services import shared_text as shared_mod
from wubitok.services.encode_pool import EncodePool
from wubitok.services.encoded_versions import EditedText
from wubitok.services.shared_text import SHARE_FROM, SharedText, shared_text

LONG = ("床前明月光，疑是地上霜。😀𠀀 English\n" * (SHARE_FROM // 20 + 1))
# Any code point, lone surrogates too: what pickle carries a str with (surrogatepass) is carried here.
ANY_CHAR = st.characters(codec=None, blacklist_categories=())


def block_exists(name: str) -> bool:
    try:
        block = shared_memory.SharedMemory(name)
    except FileNotFoundError:
        return False
    block.close()
    return True


def gone_soon(name: str, seconds: float = 60.0) -> bool:
    """Whether block ``name`` is gone within ``seconds`` (a bound for a broken build, not a timing)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        gc.collect()
        if not block_exists(name):
            return True
        time.sleep(0.05)
    return False


@settings(max_examples=300, deadline=None)
@given(st.text(ANY_CHAR, max_size=60) | st.text(max_size=60), st.integers(1, 7))
def test_any_text_crosses_as_itself_in_pieces_of_any_size(text, piece):
    with mock.patch.object(shared_mod, "SHARE_FROM", 1), mock.patch.object(shared_mod, "PIECE", piece):
        shared = shared_text(text)
    assert shared == text
    if text:
        assert isinstance(shared, SharedText)
        crossed = pickle.loads(pickle.dumps(shared))
        assert type(crossed) is str and crossed == text


def test_what_is_pickled_is_a_handle_not_the_text():
    shared = shared_text(LONG * 4)
    assert isinstance(shared, SharedText)
    assert len(pickle.dumps(shared)) < 200 < len(pickle.dumps(str(shared)))


def test_short_texts_and_texts_with_nowhere_to_go_are_sent_as_they_are():
    short = LONG[: SHARE_FROM - 1]
    assert shared_text(short) is short
    with mock.patch.object(shared_memory, "SharedMemory", side_effect=OSError(errno.ENOENT, "no /dev/shm")):
        assert shared_text(LONG) is LONG


@pytest.mark.system("linux")  # posix_fallocate on a tmpfs /dev/shm
def test_a_full_dev_shm_leaves_no_block_and_sends_the_text():
    made: list[str] = []
    real = shared_memory.SharedMemory

    def recorded(*args, **kwargs):
        block = real(*args, **kwargs)
        made.append(block.name)
        return block

    with mock.patch.object(shared_memory, "SharedMemory", side_effect=recorded), \
            mock.patch.object(os, "posix_fallocate", side_effect=OSError(errno.ENOSPC, "full")):
        assert shared_text(LONG) is LONG
    assert len(made) == 1 and not block_exists(made[0])


def test_cancel_stops_the_encoding():
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        shared_text(LONG, cancel=cancel)


def test_the_block_goes_with_the_text():
    shared = shared_text(LONG)
    name = shared.block_name
    assert block_exists(name)
    del shared
    assert gone_soon(name)


@pytest.fixture(scope="module")
def pool():
    p = EncodePool(workers=1, processes=True)
    p.start()
    yield p
    p.shutdown()


def test_a_worker_reads_the_text_itself_and_the_block_goes_after_the_call(pool):
    shared = pool.share(LONG)
    assert isinstance(shared, SharedText)
    name = shared.block_name
    assert pool.call_all([(str, shared), (len, shared)]) == [LONG, len(LONG)]
    assert pool.call(type, shared) is str  # a plain str there, not a handle
    del shared
    assert gone_soon(name)


def test_inside_another_argument_it_crosses_as_the_text_too(pool):
    # Tokenize sends its text inside an EditedText: EditedText.whole(pool.share(text)) is all it takes.
    edited = EditedText.whole(pool.share(LONG))
    assert isinstance(edited.inserted, SharedText)
    assert pool.call(getattr, edited, "inserted") == LONG


def test_the_block_goes_when_the_worker_reading_it_dies():
    p = EncodePool(workers=1, processes=True)
    try:
        p.start()
        shared = p.share(LONG)
        name = shared.block_name
        with pytest.raises(WubitokError, match="worker process died"):
            p.call(exec, "import os; os._exit(1)", {"text": shared})  # the worker has the text, then dies
        del shared
        assert gone_soon(name)
        assert p.call(len, p.share(LONG)) == len(LONG)  # and the next pool reads the next text
    finally:
        p.shutdown()


def test_without_processes_the_text_is_not_shared(monkeypatch):
    monkeypatch.setenv("WUBITOK_WORKER_PROCESSES", "0")
    assert EncodePool().share(LONG) is LONG


APP = """
import os, signal, sys
from wubitok.services.shared_text import SHARE_FROM, shared_text
shared = shared_text("字" * SHARE_FROM)
print(shared.block_name, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.system("linux")  # POSIX shared memory and its resource tracker
def test_the_block_goes_when_the_app_dies():
    # The resource tracker, a process of its own, unlinks what a killed app left.
    done = subprocess.run([sys.executable, "-c", APP], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == -signal.SIGKILL
    name = done.stdout.strip()
    assert name and gone_soon(name)
