"""Worker processes: the one way wubitok starts, runs, caps and ends them.

Counting a corpus (``engines.corpus``), encoding and counting at scale
(``scale.runner``), the app's encode pool and its training process
(``services``) all start their processes here, so they all behave alike:

* ``spawn``, never ``fork``: the GUI starts them from threads, and forking a
  process that has Qt's threads is unsafe;
* a worker dies with its parent (:func:`child_started`): on Linux by the
  kernel's parent-death signal, everywhere by a thread that watches the pipe
  ``multiprocessing`` keeps open to the parent.  A parent killed with
  SIGKILL leaves no worker behind, and so no resource tracker either (it
  ends once every process holding its pipe has);
* workers ignore the terminal's Ctrl+C: the parent decides and ends them;
* ``--workers N`` is capped at the cores this process may use and at the
  memory available (:func:`usable_workers`), said once on stderr;
* they are ended the same way (:func:`end_process`), and one that vanishes
  is one error (:func:`worker_died`), whichever job it was doing.

:func:`run_in_processes` runs a function over items in N processes, results
in item order.  The app's :class:`~wubitok.services.encode_pool.EncodePool`
needs a pool that lives as long as the app, keeps models loaded and drops
tasks on cancel; it builds on :func:`new_executor` and :func:`stop_executor`
instead, and the training process on :func:`spawn_context`.
"""
from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any, Callable, Iterable, Iterator, TypeVar

from .errors import WubitokError

R = TypeVar("R")
WORKER_NICE = 5  # the app's workers yield a core to the GUI process
AHEAD = 4  # tasks in flight per worker in run_in_processes
# What one worker may need: a spawned interpreter with wubitok, a model and a
# block of text (17 workers took 1.7 GB: about 100 MB each).
WORKER_MEMORY = 150 * 2**20
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def spawn_context() -> SpawnContext:
    return multiprocessing.get_context("spawn")


# -- in the worker ---------------------------------------------------------------
def child_started(parent_pid: int | None = None, kernel_signal: bool = False) -> None:
    """What every worker runs first: ignore Ctrl+C, and end when the parent ends.

    ``kernel_signal``: also ask Linux for SIGKILL when the parent goes.  The
    kernel sends it when the *thread* that started the worker ends, so the
    parent asks for it only when it starts workers from its main thread (the
    app starts its pools from job threads that come and go).
    """
    # Ctrl+C in the terminal reaches the whole process group: the parent decides, not its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if kernel_signal and sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
        if parent_pid is not None and os.getppid() != parent_pid:  # it died before prctl
            os._exit(1)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), name="wubitok parent watch", daemon=True).start()


def _exit_with(parent: BaseProcess) -> None:
    # The parent's end of the pipe closes when it dies, however it dies.
    parent.join()
    os._exit(1)


def _child_started_then(parent_pid: int, kernel_signal: bool,
                        initializer: Callable[..., Any] | None, initargs: tuple) -> None:
    child_started(parent_pid, kernel_signal)
    if initializer is not None:
        initializer(*initargs)


def child_setup() -> tuple[int, bool]:
    """``child_started``'s arguments for workers started from this thread."""
    return os.getpid(), threading.current_thread() is threading.main_thread()


# -- in the parent ---------------------------------------------------------------
def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on macOS or Windows
        return os.cpu_count() or 1


def available_memory() -> int | None:
    """Bytes of memory available to new processes (None where it cannot be told)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


_said: set[tuple[int, int]] = set()


def usable_workers(requested: int) -> int:
    """``requested`` workers, capped at the cores this process may run on and at
    the memory available (WORKER_MEMORY each).  A cap is said once on stderr:
    more processes than cores only share them, and too many run out of memory."""
    cores = available_cores()
    memory = available_memory()
    by_memory = max(1, memory // WORKER_MEMORY) if memory is not None else requested
    usable = max(1, min(requested, cores, by_memory))
    if usable < requested and (requested, usable) not in _said:
        _said.add((requested, usable))
        why = f"{cores} core{'s' if cores != 1 else ''}"
        if by_memory < min(requested, cores):
            why = f"{memory // 2**20 if memory else 0} MB of free memory"
        print(f"wubitok: {usable} worker processes, not {requested} ({why} available)", file=sys.stderr)
    return usable


def new_executor(workers: int, initializer: Callable[..., Any] | None = None,
                 initargs: tuple = ()) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that run :func:`child_started`, then ``initializer``."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=spawn_context(), initializer=_child_started_then,
                               initargs=(*child_setup(), initializer, initargs))


def executor_processes(ex: ProcessPoolExecutor) -> list[BaseProcess]:
    """The pool's processes (ProcessPoolExecutor does not list them publicly)."""
    return list((getattr(ex, "_processes", None) or {}).values())


def executor_pids(ex: ProcessPoolExecutor) -> list[int]:
    return sorted(p.pid for p in executor_processes(ex) if p.pid is not None)


def stop_executor(ex: ProcessPoolExecutor, timeout: float = 2.0) -> None:
    """Drop ``ex``'s queued tasks and end its processes, a task still running
    after ``timeout`` seconds with its process."""
    processes = executor_processes(ex)  # before shutdown forgets them, and its thread
    manager: threading.Thread | None = getattr(ex, "_executor_manager_thread", None)
    results = getattr(getattr(ex, "_result_queue", None), "_writer", None)  # shutdown() forgets it too
    if timeout <= 0:
        # At once: before the executor closes its pipes, which a worker still starting up reads
        # (it printed a traceback: "pickle data was truncated").
        for p in processes:
            if not _ended(p):
                p.terminate()
    ex.shutdown(wait=False, cancel_futures=True)
    # The executor's own thread joins (reaps) each process as it ends.  Joining them here as well
    # raced with it: the loser's waitpid fails, and multiprocessing then takes the reaped process
    # for alive for ever (active_children() listed it; terminate() would signal a pid that may be
    # reused).  So this thread only waits on the processes' sentinels, which reap nothing, ends
    # the ones still running (not reaped while they run), then lets the executor's thread finish.
    deadline = time.monotonic() + timeout
    for signal_them in (BaseProcess.terminate, BaseProcess.kill, None):
        running = [p for p in processes if not _ended(p)]
        while running and time.monotonic() < deadline:
            multiprocessing.connection.wait([p.sentinel for p in running], deadline - time.monotonic())
            running = [p for p in running if not _ended(p)]
        if not running or signal_them is None:
            break
        for p in running:
            signal_them(p)
        deadline = time.monotonic() + 2.0
    if manager is not None:
        manager.join(MANAGER_WAIT)
        if manager.is_alive():
            _unblock_reader(results, manager)


# Seconds the executor's thread gets to notice that the pool is gone.
MANAGER_WAIT = 5.0


def _unblock_reader(writer: Any, manager: threading.Thread) -> None:
    """The executor's thread is stuck reading a result that a worker, ended while it wrote it, never
    finished (seen after Ctrl-C in a train's first second: the thread, and so the command's exit,
    waited for ever).  Bytes that do not unpickle complete the read; the thread then takes the pool
    for broken and ends, as it does when a worker dies.  A result may be megabytes (a corpus's
    counts) and the pipe holds 64 KB, so the bytes go in as the thread reads them, without blocking,
    until it has ended or MANAGER_WAIT has passed."""
    if writer is None or writer.closed:
        return
    fd = writer.fileno()
    os.set_blocking(fd, False)
    deadline = time.monotonic() + MANAGER_WAIT
    while manager.is_alive() and time.monotonic() < deadline:
        try:
            os.write(fd, b"\0" * 65536)
        except BlockingIOError:  # full: the thread has not read it yet
            manager.join(0.01)
        except OSError:  # closed: nothing more to do
            return
    manager.join(MANAGER_WAIT)


def _ended(process: BaseProcess) -> bool:
    """Whether ``process`` has ended, without reaping it (its sentinel is ready)."""
    return bool(multiprocessing.connection.wait([process.sentinel], 0))


def lower_priority(pids: Iterable[int]) -> None:
    """The app's workers yield a core to the GUI process.  Set from the parent as
    soon as they exist: their start-up (importing, loading models) is the bulk
    of their work at first."""
    try:
        niceness = os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICE
        for pid in pids:
            os.setpriority(os.PRIO_PROCESS, pid, niceness)
    except (AttributeError, OSError):  # no priorities on Windows; a worker gone already
        pass


def end_process(process: BaseProcess, timeout: float) -> None:
    """Wait up to ``timeout`` seconds for ``process`` to end, then end it:
    SIGTERM, and SIGKILL for one that cannot take a SIGTERM (stopped, stuck)."""
    process.join(timeout)
    if process.is_alive():
        process.terminate()
        process.join(2.0)
    if process.is_alive():
        process.kill()
        process.join()


WORKER_DIED = "pool.worker_died"  # the code of worker_died()'s error


def worker_died(then: str = "try again") -> WubitokError:
    return WubitokError(f"a worker process died (out of memory or killed); {then}", code=WORKER_DIED)


# -- running a function over items -------------------------------------------------
_task_func: Callable[[Any, Any], Any] | None = None
_task_spec: Any = None


# What a worker's start-up may carry through its pipe.  multiprocessing writes it while it holds
# the pipe's other end too: a worker killed before it read more than the pipe holds (64 KB) left
# the parent writing for ever (issue #37, 10).  A bigger spec (a model) goes in a file.
_PIPED_SPEC_BYTES = 16 << 10


def _init_task(func: Callable[[Any, Any], Any], spec: Any, spec_file: str | None = None) -> None:
    global _task_func, _task_spec
    if spec_file is not None:
        with open(spec_file, "rb") as fh:
            spec = pickle.load(fh)
    _task_func, _task_spec = func, spec


@contextlib.contextmanager
def _spec_args(func: Callable[[Any, Any], Any], spec: Any) -> Iterator[tuple]:
    """``_init_task``'s arguments: the spec itself when small, else a file holding it."""
    data = pickle.dumps(spec)
    if len(data) <= _PIPED_SPEC_BYTES:
        yield func, spec
        return
    fd, path = tempfile.mkstemp(prefix="wubitok-spec-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        yield func, None, path
    finally:
        os.unlink(path)


def _run_task(item: Any) -> Any:
    assert _task_func is not None
    return _task_func(_task_spec, item)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done, then act as they would have (main thread
    only; elsewhere nothing changes).  A submit may start a worker: interrupted half-way, the
    worker was not yet listed to be stopped and printed a traceback as it read a cut start-up."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    held = {sig: signal.signal(sig, lambda signum, frame: came.append(signum))
            for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in held.items():
            signal.signal(sig, handler)
        for signum in came:
            handler = held[signal.Signals(signum)]
            if callable(handler):
                handler(signum, None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(signum)


def broke_under_submit(pool: ProcessPoolExecutor, exc: BaseException) -> bool:
    """Whether ``exc`` means a worker died: BrokenProcessPool from a result or a submit, or what a
    submit gets when it races the broken pool's manager thread closing its pipes and sentinels:
    OSError("handle is closed"), which the output's writer reported as a write error, or
    ValueError("bad value(s) in fds_to_keep") from a worker it was starting (seen in CI)."""
    return isinstance(exc, BrokenProcessPool) or bool(getattr(pool, "_broken", False))


def _held_submit(pool: ProcessPoolExecutor, item: Any) -> Any:
    with _signals_held():
        return pool.submit(_run_task, item)


def window(submit: Callable[[Any], Any], items: Iterable[Any], depth: int) -> Iterator[tuple[Any, Any]]:
    """``(item, future)`` for ``items`` in order, keeping ``depth`` submitted ahead
    (so memory stays bounded whatever the number of items)."""
    pending: deque = deque()
    it = iter(items)
    for item in it:
        pending.append((item, submit(item)))
        if len(pending) >= depth:
            break
    while pending:
        yield pending.popleft()
        for item in it:
            pending.append((item, submit(item)))
            break


def run_in_processes(func: Callable[[Any, R], Any], spec: Any, items: Iterable[R], workers: int) -> Iterator[Any]:
    """``func(spec, item)`` for every item, in item order, in up to ``workers``
    spawned processes (:func:`usable_workers`).  ``spec`` goes to each worker once,
    not with every task; ``func`` must be picklable (a module-level function) and
    the program's main module importable, as for any ``multiprocessing`` use.
    A worker that dies fails the run with :func:`worker_died` instead of hanging."""
    workers = usable_workers(workers)
    with _spec_args(func, spec) as initargs:
        yield from _run_pool(new_executor(workers, _init_task, initargs), items, workers)


def _run_pool(pool: ProcessPoolExecutor, items: Iterable[Any], workers: int) -> Iterator[Any]:
    done = False
    try:
        for _, fut in window(partial(_held_submit, pool), items, AHEAD * workers):
            yield fut.result()
        done = True
    except (BrokenProcessPool, OSError, ValueError) as exc:
        if broke_under_submit(pool, exc):
            raise worker_died("nothing was written") from None
        raise
    finally:
        if done:
            pool.shutdown(wait=True, cancel_futures=True)
        else:
            # Stopped early (an error, Ctrl-C, a dead worker): end every worker now.  After a
            # worker was killed, the executor's thread ends the workers it knows of and waits for
            # them; one a submit started meanwhile it never ended, and it waited for ever.
            stop_executor(pool, 0.0)
