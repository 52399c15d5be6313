"""What the engine process loads after it has taken its bus name, while keys wait in a queue.

On the first start for a dictionary (no candidate index yet: after an install, a cleared
cache) the index is built by another process meanwhile, and the keys are typed from the
dictionary itself until it is there (``CandidateIndex.interim``: Wubi codes, ``zz`` symbols
and the ``z`` pinyin of single characters; only pinyin phrases such as ``znihao`` wait):
the first commit does not wait for the seconds of the build.

ibus-daemon passes every key of a context to the application until the engine it
selected exists (``_ic_process_key_event`` in the daemon's inputcontext.c answers
False while the context has no engine).  So the process takes its bus name and
answers ``CreateEngine`` at once, and loads the rest (the user database, the
candidate index) in a thread; each engine queues the keys it gets meanwhile and
handles them in order once :class:`Loading` says it is ready (:mod:`.engine`).
"""
from __future__ import annotations

import gc
import subprocess
import sys
import threading
import traceback
from typing import Any, Callable

from ...errors import WubitokError
from ...ime import ImeEngine
from .learning import EngineUserDatabase
from .settings import SavedOptions


def open_user_db(options: dict[str, Any]) -> EngineUserDatabase | None:
    """The user database, opened whether learning is on or not (the typist may switch it on
    in the panel; own phrases show either way).  Problems go to the log (the daemon's
    stderr) and never stop the typing: a damaged file is moved aside (said once), an
    unusable one turns learning off in ``options``."""
    try:
        user = EngineUserDatabase()
    except WubitokError as exc:
        print(f"wubitok ibus engine: {exc}; typing without learning", file=sys.stderr)
        options["learning"] = False
        return None
    if user.notice:
        print(f"wubitok ibus engine: {user.notice}", file=sys.stderr)
    return user


def _build_index_aside() -> None:
    """Build the candidate index (the first start for a dictionary) in a process of its own,
    so that this resident one never holds the build's heap (54 MB resident after building it
    here, 33 MB after opening it).  Frozen, there is no Python to run: it is built here."""
    if getattr(sys, "frozen", False):
        return
    subprocess.run([sys.executable, "-c", "from wubitok.ime import ImeEngine; ImeEngine(learning=False).preload()"],
                   stdin=subprocess.DEVNULL, check=False)


class Loading:
    """The process's shared parts, loaded by a thread; ``when_ready`` callbacks run in the
    main loop's thread (``call_soon``: GLib.idle_add there) once they are in place."""

    def __init__(self, saved: SavedOptions, call_soon: Callable[[Callable[[], Any]], Any]):
        self._saved = saved
        self._call_soon = call_soon
        self.user: EngineUserDatabase | None = None
        self.ready = False
        self.failed = ""  # why typing is impossible (a bug; said on the log): keys then pass through
        self._notices: list[str] = []  # for the typist, from the first engine (take_notices)
        self._waiting: list[Callable[[], None]] = []

    def start(self) -> None:
        """Load in a thread of its own."""
        threading.Thread(target=self.load, name="wubitok-engine-load", daemon=True).start()

    def load(self) -> None:
        """Load in this thread, then (through ``call_soon``) run the callbacks."""
        try:
            options = self._saved.current().to_dict()
            self.user = open_user_db(options)
            first = ImeEngine(user_frequencies=self.user, **options)
            if first.index.built():
                first.preload()  # opens the index: milliseconds
            else:
                # The first start for this dictionary: the index is built aside (seconds) while the
                # keys are typed from the dictionary itself, so that the first commit need not wait.
                first.index.interim = True
                threading.Thread(target=self._build_index, args=(first,), name="wubitok-index-build",
                                 daemon=True).start()
            # What is loaded now lives as long as the process: out of the collector's sight, so that
            # a full collection while typing walks only what typing made (bench/bench_key_tail.py).
            gc.freeze()
            self._notices = first.take_notices()  # a setting that cannot be in force (shown once)
        except Exception as exc:  # never leave the queued keys waiting for good
            traceback.print_exc()
            self.failed = f"{type(exc).__name__}: {exc}"
        self._call_soon(self._done)

    @staticmethod
    def _build_index(first: ImeEngine) -> None:
        try:
            _build_index_aside()
            first.preload()  # opens the index (builds it here if the other process could not)
        except Exception:  # the typing goes on from the dictionary; said on the log
            traceback.print_exc()
            return
        first.index.interim = False

    def _done(self) -> bool:
        self.ready = True
        waiting, self._waiting = self._waiting, []
        for callback in waiting:
            callback()
        return False  # as a GLib idle source: once

    def when_ready(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` now if everything is loaded, else (in the main thread) once it is."""
        if self.ready:
            callback()
        else:
            self._waiting.append(callback)

    def take_notices(self) -> list[str]:
        """What the load found the typist should be told (each returned once, to one engine)."""
        notices, self._notices = self._notices, []
        return notices

    def new_ime(self) -> ImeEngine:
        """A typing session with the settings as saved now (call once ready)."""
        current = self._saved.current().to_dict()
        if self.user is None:
            current["learning"] = False  # the database could not be opened
        return ImeEngine(user_frequencies=self.user, **current)

    def close(self) -> None:
        if self.user is not None:
            self.user.close()
