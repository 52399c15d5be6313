"""Running one function over ranges: in this process, in N processes, or on Dask.

``run_ranges(func, spec, ranges, ...)`` yields ``func(spec, range)`` for
every range, in range order, however the work was spread.  ``spec`` is sent
to each worker once (pool initializer; Dask ``scatter``), not with every task.

* ``workers=1``: here, one range at a time;
* ``workers=N``: :func:`wubitok.processes.run_in_processes` (spawned
  processes that die with this one, capped at the cores and memory; a
  worker that dies fails the run with one line instead of hanging);
* ``cluster="local:N"``: a Dask ``LocalCluster`` of N single-threaded worker
  processes, started and stopped here; ``cluster="tcp://host:port"``: a
  running scheduler.  A task whose worker dies is retried by Dask (and the
  spec scattered again if that worker held its last copy); a task that keeps
  failing fails the run.

At most a few tasks per worker are in flight, so memory stays bounded
whatever the corpus size.
"""
from __future__ import annotations

from concurrent.futures import CancelledError
from typing import Any, Callable, Iterable, Iterator, TypeVar

from ..errors import InputError, MissingExtraError, WubitokError
from ..processes import AHEAD, run_in_processes, usable_workers, window

R = TypeVar("R")
# How long a Dask scheduler may take to have its workers before the run fails.
NO_WORKERS_SECONDS = 60
# How many times a task is sent again after the scattered spec was lost with a worker.
SPEC_RESENDS = 3


class ClusterError(WubitokError):
    """The Dask cluster cannot be reached or cannot finish the work."""


def check_workers(workers: int) -> int:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"--workers must be a whole number >= 1, not {workers!r}")
    return workers


def run_ranges(func: Callable[[Any, Any], R], spec: Any, items: Iterable[Any], *, workers: int = 1,
               cluster: str | None = None) -> Iterator[R]:
    check_workers(workers)
    if cluster:
        return _run_dask(func, spec, items, cluster)
    if workers == 1:
        return (func(spec, item) for item in items)
    return run_in_processes(func, spec, items, workers)


def parse_cluster(cluster: str) -> tuple[str, int | str]:
    """``("local", N)`` or ``("address", "tcp://host:port")``."""
    if cluster.startswith("local:"):
        n = cluster[len("local:"):]
        if not n.isdigit() or int(n) < 1:
            raise InputError(f"--cluster local:N needs a number of workers >= 1, not {n!r}")
        return "local", int(n)
    if "://" in cluster:
        return "address", cluster
    raise InputError(f"--cluster must be local:N or a scheduler address like tcp://host:8786, not {cluster!r}")


def _run_dask(func: Callable[[Any, Any], R], spec: Any, items: Iterable[Any], cluster: str) -> Iterator[R]:
    kind, where = parse_cluster(cluster)
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise MissingExtraError("--cluster needs Dask: pip install 'wubitok[cluster]'") from None
    local = None
    # A local cluster is capped like --workers: more processes than cores only share them.
    wanted = usable_workers(int(where)) if kind == "local" else 1
    try:
        with dask.config.set({"distributed.scheduler.allowed-failures": 3, "distributed.comm.timeouts.connect": "5s"}):
            if kind == "local":
                local = LocalCluster(n_workers=wanted, threads_per_worker=1, processes=True,
                                     dashboard_address=":0", silence_logs=50)
                client = Client(local)
            else:
                from .scheduler_probe import probe_scheduler
                probe_scheduler(str(where))  # a port that is no scheduler: one line, not a hang
                client = Client(str(where), timeout="5s")
    except (OSError, TimeoutError) as exc:
        if local is not None:
            local.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {where}: {exc}") from None
    try:
        try:
            client.wait_for_workers(wanted, timeout=NO_WORKERS_SECONDS)
        except (TimeoutError, OSError):
            raise ClusterError(f"the Dask scheduler at {client.scheduler.address} has no workers "
                               f"(waited {NO_WORKERS_SECONDS} s); nothing was written") from None
        depth = AHEAD * max(1, len(client.scheduler_info().get("workers", {})))
        # Scattered data cannot be recomputed.  It goes to every worker, but the
        # scheduler's memory manager soon keeps only the copies that waiting tasks
        # need: a worker that dies with the last one cancels every task needing
        # it.  Then the spec is scattered again and those tasks are sent again.
        shared = [client.scatter(spec, broadcast=True)]

        def submit(item: Any) -> Any:
            return client.submit(func, shared[0], item, pure=False, retries=2)

        for item, fut in window(submit, items, depth):
            for resend in range(SPEC_RESENDS + 1):
                try:
                    try:
                        result = fut.result()
                        break
                    except CancelledError:
                        if resend == SPEC_RESENDS:
                            raise
                        if shared[0].status != "finished":
                            shared[0] = client.scatter(spec, broadcast=True)
                        fut = submit(item)
                except WubitokError:
                    raise
                except Exception as exc:  # KilledWorker, lost scheduler, no workers left, ...
                    raise ClusterError(f"the cluster could not finish the work ({type(exc).__name__}: {exc})") from None
            yield result
    finally:
        client.close()
        if local is not None:
            local.close()
