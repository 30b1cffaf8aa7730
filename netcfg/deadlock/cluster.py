"""The failure-set sweep on a Dask cluster: `netcfg deadlock --workers N | --scheduler ADDRESS`.

Dask distributed runs the same Python on a laptop (a `LocalCluster` of worker processes over
the local cores) and on a cluster of machines (a running scheduler), so one code path serves
both. What travels, and why:

* the driver prepares the start state once (`sweep.SetChecker`: the start graph indexed, the
  BFS states of every destination class) and scatters it to every worker, which keeps it for
  every chunk it runs: it pickles far faster than it builds (2,048 GPUs: 123 MB, 0.2 s to
  pickle and 0.4 s to load, against 3 s to build);
* chunks of failure sets go out as tasks, several per worker so a slow chunk does not hold
  the others back; each returns the positions of its cyclic sets, and the driver assembles
  the same `Sweep` as the serial loop (`sweep._distributed`).

Every worker must run the same netcfg version as the driver (the tasks are netcfg functions).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from netcfg.deadlock.sweep import SetChecker

#: chunks per worker: enough for the fast workers to take over a slow one's share
CHUNKS_PER_WORKER = 4
#: seconds to wait for a scheduler (or the local cluster) to answer
CONNECT_TIMEOUT = 30
#: seconds a scheduler without workers is given for one to (re)join before the sweep is refused
WORKER_WAIT = 5


class ClusterError(Exception):
    """The cluster could not be reached or a task failed: one line for the user."""


def check_chunk(checker: SetChecker, positions: range,
                combos: list[tuple[int, ...]]) -> list[int]:
    """A worker's task: the `positions` of the sets in `combos` that create a cyclic buffer
    dependency."""
    return [at for at, combo in zip(positions, combos) if checker.check(combo)]


class DaskPool:
    """`sweep.Pool` on a Dask client."""

    def __init__(self, client: Any) -> None:
        self.client = client

    @property
    def workers(self) -> int:
        return len(self.client.scheduler_info(n_workers=-1)["workers"])

    def cyclic(self, checker: SetChecker, sets: list[tuple[tuple[int, ...], int]],
               progress: Callable[[int, int], None] | None) -> list[int]:
        from distributed import as_completed

        if not sets:
            return []
        workers = self.workers
        if not workers:  # a worker the nanny restarts leaves the scheduler empty a moment
            try:
                self.client.wait_for_workers(1, timeout=WORKER_WAIT)
            except (TimeoutError, OSError):
                pass
            workers = self.workers
        if not workers:  # the tasks would wait for ever
            raise ClusterError(f"the Dask scheduler at {self.client.scheduler.address} has "
                               "no workers")
        chunks = min(len(sets), workers * CHUNKS_PER_WORKER)
        shared = self.client.scatter(checker, broadcast=True, hash=False)
        sizes = {}
        futures = []
        # every chunk takes every chunks-th set: sets of one kind (a NIC link, a leaf-spine
        # link, whose checks differ a hundredfold in cost) come in runs, and a chunk of one
        # run would finish long after the others
        for j in range(chunks):
            positions = range(j, len(sets), chunks)
            combos = [sets[i][0] for i in positions]
            fut = self.client.submit(check_chunk, shared, positions, combos, pure=False)
            sizes[fut.key] = len(combos)
            futures.append(fut)
        found: list[int] = []
        done = 0
        try:
            for fut in as_completed(futures):
                found += fut.result()
                done += sizes[fut.key]
                if progress:
                    progress(done, len(sets))
        except Exception as exc:  # a task's own error, re-raised by Dask on the driver
            raise ClusterError(f"a worker failed: {type(exc).__name__}: {exc}") from exc
        finally:
            self.client.cancel(futures)
        return sorted(found)


@contextmanager
def pool(workers: int | None = None, scheduler: str | None = None) -> Iterator[DaskPool]:
    """A pool on a running scheduler (`scheduler`: an address such as tcp://host:8786; a
    tls:// address uses the certificates of Dask's own configuration) or on a local cluster
    of `workers` processes, one thread each (the checks hold the GIL)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise ClusterError("a cluster sweep needs Dask distributed: pip install "
                           "'netcfg-roce[cluster]'") from exc

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except ValueError as exc:  # Dask's own parse of the address
            raise ClusterError(f"not a Dask scheduler address: {scheduler} ({exc})") from exc
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from exc
        try:
            yield DaskPool(client)
        finally:
            client.close()
        return
    import dask

    # no dashboard (the scheduler's HTTP server, which always starts, on a free local port);
    # no statistical profiler in the workers (its sampling thread takes the GIL from the
    # checks); and not Dask's MALLOC_TRIM_THRESHOLD_ for the worker processes: set to any
    # value it turns off glibc's adaptive mmap threshold, so every numpy temporary of a
    # check is mapped and unmapped afresh (measured: the checks ran 55% slower)
    with dask.config.set({"distributed.worker.profile.enabled": False,
                          "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
        try:
            cluster = LocalCluster(n_workers=workers or 1, threads_per_worker=1,
                                   processes=True, host="127.0.0.1", dashboard_address=None,
                                   scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                   silence_logs=logging.ERROR)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"cannot start a local Dask cluster: {exc}") from exc
    try:
        with Client(cluster, timeout=CONNECT_TIMEOUT) as client:
            yield DaskPool(client)
    finally:
        cluster.close()
