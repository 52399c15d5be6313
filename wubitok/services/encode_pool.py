"""Encoding in worker processes that keep their models: heavy work off the GUI's GIL.

The GUI encodes, measures and compares texts of hundreds of kilobytes as the
user types.  In a thread of the GUI's own process that work shares one GIL
with the GUI thread, which then waits for it: pauses of 0.1-0.3 s
(``bench/bench_gui_stalls.py``, GUI thread busy ~0 ms during them).  A
worker process has a GIL of its own; the GUI process only waits on a pipe.

* :meth:`EncodePool.start` spawns the workers (the ``spawn`` context: a
  process with Qt's threads must not ``fork``); call it once the window is up.
* Tasks name their model by :class:`ModelRef` (path, kind, file time); each
  worker loads a model once and keeps the last :data:`KEEP_MODELS`.
* The app's own process loads no model: it asks a worker for a
  :class:`ModelSummary` (display forms of the tokens, vocabulary size...).
* Encodings come back packed, with the segments a view draws made here too
  (:mod:`wubitok.services.tokenized`: a few arrays and one string): unpickling them in
  the GUI process is a copy of bytes, and the app reads them in place, never
  creating hundreds of thousands of objects while holding the GIL.
* A long text goes to the workers once, through shared memory (:meth:`EncodePool.share`).
* :meth:`EncodePool.call_all` and :meth:`EncodePool.map` wait in the calling
  thread (a GUI worker thread), and drop tasks not yet started once
  ``cancel`` is set; a task already running ends on its own and its result is
  dropped.  Only the newest request of a pane is ever shown.
* Where processes cannot work (the pool fails to start, or the environment
  variable ``WUBITOK_WORKER_PROCESSES=0``) tasks run in the calling thread,
  as they did before this module.

Workers run at a lower priority (``nice`` +5, set as they are spawned), so
that on a busy machine the GUI process gets a core before they do.  They are
started, ended and tied to the app's life by :mod:`wubitok.processes`, as
every worker is; this pool is not :func:`~wubitok.processes.run_in_processes`
because it outlives its tasks: it keeps models loaded between requests, and
drops tasks not yet started on cancel.
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from ..compare.run import Batch, Figures, Measured, measure_batch, measure_document
from ..engines.base import Encoding, Tokenizer, engine_class
from ..errors import Cancelled, FileError
from ..processes import (
    available_cores,
    broke_under_submit,
    executor_pids,
    lower_priority,
    new_executor,
    stop_executor,
    worker_died,
)
from ..progress import check_cancel
from .encoded_versions import PART_TOKENS, EditedText, EncodedSince, encode_since, kept_part
from .incremental_encode import reencode
from .model_files import load_model_file
from .readable_tokens import TokenForms
from .shared_text import shared_text
from .tokenized import DISPLAY_LIMIT, Joined, PackedEncoding, Spans
from .training import trained_by

R = TypeVar("R")
KEEP_MODELS = 8  # per worker: Compare shows 4, Tokenize 1, and switching back is common
AHEAD = 2  # corpus batches in flight per worker
WAIT_STEP = 0.05  # seconds between looks at ``cancel`` while waiting
ENV_PROCESSES = "WUBITOK_WORKER_PROCESSES"


@dataclass(frozen=True)
class ModelRef:
    """A model file as a worker loads it; a new file time means a new model."""

    path: str
    kind: str
    mtime: float

    @classmethod
    def of(cls, path: str | os.PathLike, kind: str) -> "ModelRef":
        try:
            mtime = os.stat(path).st_mtime
        except OSError:
            raise FileError(f"{path}: no such file") from None
        return cls(str(path), kind, mtime)


@dataclass(frozen=True)
class ModelSummary:
    """What the app's own process needs of a model, made by a worker that has it loaded:
    the app's process then loads no model.  Loading one there is up to 0.3 s of
    Python (a byte-level BPE's merges, the Wubi codec's tables) in a job thread,
    holding the GIL in turns with the GUI thread: with Tokenize and Compare loading
    theirs at once, clicking a pane then froze the window 55-85 ms
    (``bench/bench_gui_stalls.py --only open_tokenize``).

    Stands in for the tokenizer wherever the app shows one: :meth:`display_token`,
    and what :class:`~wubitok.compare.metrics.Tally` needs (``model_type``, ``vocab_size``).
    """

    model_type: str
    vocab_size: int
    trained_by: str | None  # engines that can be trained two ways say which (WordPiece, Unigram)
    displays: Joined  # every id's display form
    # Where a piece of a character shows differently (Wubi-BPE): the same for partial=True.
    partial_displays: Joined | None
    forms: TokenForms  # what the text of a token as a person reads it needs (readable_tokens)

    @classmethod
    def of(cls, tok: Tokenizer) -> "ModelSummary":
        full = [tok.display_token(i) for i in range(tok.vocab_size)]
        partial = [tok.display_token(i, partial=True) for i in range(tok.vocab_size)]
        return cls(tok.model_type or type(tok).__name__, tok.vocab_size, trained_by(tok), Joined.of(full),
                   Joined.of(partial) if partial != full else None, TokenForms.of(tok))

    def display_token(self, id: int, *, partial: bool = False) -> str:  # noqa: A002 (Tokenizer's name)
        """:meth:`Tokenizer.display_token` of the model summarised; "" for an id it does not have."""
        forms = self.partial_displays if partial and self.partial_displays is not None else self.displays
        return forms[id] if 0 <= id < len(forms) else ""


# -- what runs in a worker ------------------------------------------------------
_models: OrderedDict[ModelRef, Tokenizer] = OrderedDict()
_models_lock = threading.Lock()  # the thread fallback may load from several threads


def model(ref: ModelRef) -> Tokenizer:
    """The tokenizer of ``ref``, loaded once per process (the last KEEP_MODELS kept)."""
    with _models_lock:
        tok = _models.get(ref)
        if tok is not None:
            _models.move_to_end(ref)
            return tok
    tok = load_model_file(Path(ref.path), ref.kind)
    with _models_lock:
        _models[ref] = tok
        while len(_models) > KEEP_MODELS:
            _models.popitem(last=False)
    return tok


def summarize_model(ref: ModelRef) -> ModelSummary:
    """``ref``'s model loaded in a worker (kept for its next tasks), summarised for the app."""
    return ModelSummary.of(model(ref))


# The last text encode_text encoded in this worker, with its model and encoding: the next
# text, often that one with a keystroke more, is encoded again only where it differs
# (incremental_encode).  One, whatever its model: an encoding of 1 MB is about 150 MB.
_last_encoded: tuple[ModelRef, str, Encoding] | None = None
_last_lock = threading.Lock()  # the thread fallback may encode from several threads


def _encode_after_last(ref: ModelRef, tok: Tokenizer, text: str) -> Encoding:
    global _last_encoded
    with _last_lock:
        last = _last_encoded
    if last is not None and last[0] == ref:
        enc = reencode(tok, last[1], last[2], text).encoding
    else:
        enc = tok.encode(text)
    with _last_lock:
        _last_encoded = (ref, text, enc)
    return enc


def encode_text(ref: ModelRef, text: str, shown: int = DISPLAY_LIMIT) -> tuple[PackedEncoding, Spans, bool]:
    """``text``'s encoding, the segments of its first ``shown`` characters a view
    draws, and whether decoding the encoding gives the text back."""
    tok = model(ref)
    enc = _encode_after_last(ref, tok, text)
    return PackedEncoding.pack(enc), Spans.of(text, enc, shown), tok.decode(enc.ids) == text


def encode_edit(ref: ModelRef, edited: EditedText, version: int, shown: int = DISPLAY_LIMIT
                ) -> EncodedSince | None:
    """:func:`~wubitok.services.encoded_versions.encode_since` with ``ref``'s model: run it in
    :func:`versions_pool`, whose one worker keeps the versions."""
    return encode_since(ref, model(ref), edited, version, shown)


def encoded_part(ref: ModelRef, version: int, start: int, stop: int) -> PackedEncoding | None:
    """:func:`~wubitok.services.encoded_versions.kept_part`, in :func:`versions_pool`."""
    return kept_part(ref, version, start, stop)


def changed_tokens(pool: "EncodePool", ref: ModelRef, since: EncodedSince, *,
                   cancel: threading.Event | None = None) -> PackedEncoding:
    """Every token ``since`` changed: those it brought, then the others from ``pool``'s worker a
    part at a time, each unpickled here on its own (see ``encoded_versions.PART_TOKENS``)."""
    where, parts = since.where, [since.tokens]
    for start in range(where.first + len(since.tokens), where.first + where.added, PART_TOKENS):
        part = pool.call(encoded_part, ref, since.version, start, min(start + PART_TOKENS, where.first + where.added),
                         cancel=cancel)
        if part is None:  # three versions came since: this request is not the newest any more
            raise Cancelled("the text changed meanwhile")
        parts.append(part)
    return parts[0] if len(parts) == 1 else PackedEncoding.concatenated(parts)


def measure_text(
    ref: ModelRef, name: str, text: str, shown: int = DISPLAY_LIMIT
) -> tuple[PackedEncoding, Spans, Figures]:
    """:func:`wubitok.compare.run.measure_document`, with what :func:`encode_text` gives for a view:
    of the encoding, the tokens of the first ``shown`` characters (:meth:`PackedEncoding.shown_part`),
    since all of it is measured here."""
    enc, figures = measure_document(name, model(ref), text)
    return PackedEncoding.pack(enc).shown_part(shown), Spans.of(text, enc, shown), figures


def measure_corpus_batch(refs: Sequence[tuple[str, ModelRef]], unit: str, item: Batch) -> Measured:
    """:func:`wubitok.compare.run.measure_batch` with the models named by reference."""
    return measure_batch([(name, model(ref)) for name, ref in refs], unit, item)


def min_vocab_size(model_types: Sequence[str], special_tokens: Sequence[str] | None) -> int:
    """The smallest vocabulary every engine in ``model_types`` can train (1 for none).
    Wubi-BPE builds its codec to answer: about a second the first time in a process."""
    return max([engine_class(t).min_vocab_size(special_tokens) for t in model_types] or [1])


def _ping() -> int:
    return os.getpid()


# -- the pool (used from GUI worker threads) ----------------------------------------
def processes_wanted() -> bool:
    return os.environ.get(ENV_PROCESSES, "").strip() != "0"


class EncodePool:
    """Worker processes for encode, measure and compare tasks; see the module doc."""

    def __init__(self, workers: int | None = None, *, processes: bool | None = None):
        self.workers = workers or max(1, min(2, available_cores() - 1))
        self._want_processes = processes_wanted() if processes is None else processes
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()  # guards _executor and _closed; held only briefly
        # One spawn at a time (seconds).  shutdown() does not take it: quitting
        # while the workers start must not hold up the GUI thread.
        self._start_lock = threading.Lock()
        self._closed = False

    @property
    def uses_processes(self) -> bool:
        """True once worker processes run the tasks (False: the calling thread does)."""
        return self._executor is not None

    def start(self) -> None:
        """Spawn the workers now (blocks until they answer; call it from a worker thread).
        If they cannot start, tasks run in the calling thread from then on; if
        shutdown() came meanwhile, the new workers are stopped here."""
        with self._start_lock:
            with self._lock:
                if self._closed or self._executor is not None or not self._want_processes:
                    return
            ex: ProcessPoolExecutor | None = None
            try:
                ex = new_executor(self.workers)
                pings = [ex.submit(_ping) for _ in range(self.workers)]  # spawns the workers
                lower_priority(executor_pids(ex))
                for fut in pings:  # one answer from each: all are up and could import the tasks
                    fut.result()
            except (OSError, ValueError, BrokenProcessPool, RuntimeError):
                self._want_processes = False
                if ex is not None:  # the workers that did start must not idle until exit
                    ex.shutdown(wait=False, cancel_futures=True)
                return
            with self._lock:
                closed = self._closed
                if not closed:
                    self._executor = ex
            if closed:
                stop_executor(ex)

    def share(self, text: str, *, cancel: threading.Event | None = None) -> str:
        """``text`` as an argument of this pool's tasks: a long one reaches the workers through
        shared memory, encoded once here in pieces (:mod:`~wubitok.services.shared_text`), not
        pickled per task by the pool's feeder thread holding the GIL (~70 ms per task at 10 MB).
        The same ``str`` where tasks run in this thread."""
        self.start()
        return shared_text(text, cancel=cancel) if self.uses_processes else text

    def submit(self, fn: Callable[..., R], *args: Any) -> "Future[R]":
        """Run ``fn(*args)`` in a worker (started now if need be), else here."""
        self.start()
        ex = self._executor
        if ex is not None:
            try:
                return ex.submit(fn, *args)
            except (BrokenProcessPool, RuntimeError, OSError, ValueError) as exc:
                if isinstance(exc, (OSError, ValueError)) and not broke_under_submit(ex, exc):
                    raise
                self._discard(ex)  # a worker died earlier: a fresh pool for the next request
                raise worker_died() from None
        fut: Future[R] = Future()
        try:
            fut.set_result(fn(*args))
        except BaseException as exc:
            fut.set_exception(exc)
        return fut

    def call(self, fn: Callable[..., R], *args: Any, cancel: threading.Event | None = None) -> R:
        """``fn(*args)`` run in a worker; waits, honouring ``cancel``."""
        return self.call_all([(fn, *args)], cancel=cancel)[0]

    def call_all(self, calls: Sequence[tuple[Any, ...]], *, cancel: threading.Event | None = None) -> list[Any]:
        """Each ``(fn, *args)`` run in the workers at once; their results in order.

        Raises :class:`~wubitok.errors.Cancelled` when ``cancel`` is set (tasks not yet
        started are dropped), or the first task's error.
        """
        futures = [self.submit(fn, *args) for fn, *args in calls]
        try:
            pending = set(futures)
            while pending:
                check_cancel(cancel)
                done, pending = wait(pending, timeout=WAIT_STEP, return_when=FIRST_COMPLETED)
                for fut in done:
                    self._raise_if_failed(fut)
            return [fut.result() for fut in futures]
        finally:
            for fut in futures:
                fut.cancel()

    def map(self, fn: Callable[..., R], spec: Any, items: Iterable[Any], *,
            cancel: threading.Event | None = None) -> Iterator[R]:
        """``fn(*spec, item)`` for every item, in order, a few in flight per worker."""
        it = iter(items)
        window: list[Future[R]] = [self.submit(fn, *spec, item) for item in islice(it, AHEAD * self.workers)]
        try:
            while window:
                fut = window[0]
                while not fut.done():
                    check_cancel(cancel)
                    wait([fut], timeout=WAIT_STEP)
                self._raise_if_failed(fut)
                window.pop(0)
                window.extend(self.submit(fn, *spec, item) for item in islice(it, 1))
                yield fut.result()
        finally:
            for fut in window:
                fut.cancel()

    def _raise_if_failed(self, fut: Future) -> None:
        if fut.cancelled():
            # Not by the waiting call (it cancels only as it leaves), so by shutdown() or by a
            # broken pool's discard: the request ends like a cancelled one, not as a bug dialog
            # (``fut.result()`` would raise CancelledError).
            raise Cancelled("the worker processes were stopped")
        exc = fut.exception()
        if isinstance(exc, BrokenProcessPool):
            ex = self._executor
            # Only if still broken: another thread may have put a fresh pool in its place.
            if ex is not None and getattr(ex, "_broken", False):
                self._discard(ex)
            raise worker_died() from None
        if exc is not None:
            raise exc

    def _discard(self, ex: ProcessPoolExecutor | None) -> None:
        with self._lock:
            if ex is not None and ex is self._executor:
                self._executor = None
        if ex is not None:
            ex.shutdown(wait=False, cancel_futures=True)

    def shutdown(self, timeout: float = 2.0) -> None:
        """Stop the workers: queued tasks are dropped, a task still running after
        ``timeout`` seconds is ended with its process (closing the app)."""
        with self._lock:
            ex, self._executor, self._closed = self._executor, None, True
        if ex is not None:
            stop_executor(ex, timeout)

    def worker_pids(self) -> list[int]:
        """The worker processes' ids (tests)."""
        ex = self._executor
        return [] if ex is None else executor_pids(ex)


_shared: EncodePool | None = None
_shared_lock = threading.Lock()


def shared_pool() -> EncodePool:
    """The process-wide pool (created on first use, started by its first task or by start())."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = EncodePool()
        return _shared


_versions: EncodePool | None = None


def versions_pool() -> EncodePool:
    """The process-wide pool of one worker that keeps a text's versions (:func:`encode_edit`):
    one process, so that every edit finds the version before it."""
    global _versions
    with _shared_lock:
        if _versions is None:
            _versions = EncodePool(workers=1)
        return _versions


def shutdown_shared_pool() -> None:
    """Stop the process-wide pools; the next shared_pool() is a fresh one."""
    global _shared, _versions
    with _shared_lock:
        pools, _shared, _versions = [_shared, _versions], None, None
    for pool in pools:
        if pool is not None:
            pool.shutdown()
