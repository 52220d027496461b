"""Executors: where a split build's tasks run, local worker processes or a Ray cluster.

A split build (`bactree.subproblems`) hands its tasks to an executor and
takes the results back one at a time, in whatever order they end; it keeps
every decision (what to start next, what to save for `--resume`) in the
calling process, so the tree does not depend on the executor.

Each worker is set up once with the build's read-only arrays (the answer
table, about 1 GB for 5 of 10): `local` forks its processes after the table
is built, so they share the parent's pages without a copy; `ray` puts each
array into Ray's object store once, and every worker maps it from its
machine's store, zero-copy and read-only.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
from typing import Any, Callable

import numpy as np

from .game import BactreeError

EXECUTORS = ("local", "ray")

# A local Ray's object store: room for the shared arrays plus this much, and never less than Ray's minimum.
_STORE_SLACK = 64 << 20
_STORE_MIN = 80 << 20


class Executor:
    """Runs tasks on workers set up once; `submit` starts one, `next_result` waits for any one to end.

    The caller keeps at most `start`'s count of tasks running. Used as a
    context manager: leaving it (also by Ctrl-C or an error) stops the workers.
    """

    def start(self, initializer: Callable[..., None], init_args: tuple, at_most: int) -> int:
        """Start at most `at_most` workers, each running `initializer(*init_args)` once; return how many."""
        raise NotImplementedError

    def share(self, array: np.ndarray) -> Any:
        """A handle of a read-only array that many tasks take: pass it to `submit` in its place."""
        return array

    def submit(self, function: Callable[..., Any], *args: Any) -> None:
        """Run `function(*args)` on a free worker (`function` must be importable by name)."""
        raise NotImplementedError

    def next_result(self) -> Any:
        """The value of a task that ended (waiting for one); a task's exception is raised here."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_executor(name: str, workers: int | None = None, address: str | None = None, verbose: bool = True) -> Executor:
    """The executor called `name` ("local" or "ray"); `address` names a running Ray cluster.

    `workers`: processes (local) or Ray workers; by default one per core
    (local, or a Ray started here) or one per CPU of the cluster at `address`.
    `verbose`: let the workers' progress lines through.
    """
    if name not in EXECUTORS:
        raise BactreeError(f"unknown executor {name!r}: choose one of {', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise BactreeError(f"--workers must be at least 1, got {workers}")
    if name == "local":
        if address is not None:
            raise BactreeError("--address names a Ray cluster: use it with --executor ray")
        return LocalExecutor(workers)
    return RayExecutor(workers, address, verbose)


def _local_worker_setup(initializer: Callable[..., None], *init_args: Any) -> None:
    """A local worker's setup: signals left to the parent, then `initializer(*init_args)`.

    Ctrl-C reaches the whole process group and is for the parent to handle;
    the SIGTERM with which the parent stops the pool ends a worker at once,
    without a traceback.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    initializer(*init_args)


class LocalExecutor(Executor):
    """Forked worker processes of this machine: they inherit the parent's arrays (copy-on-write, never written).

    With one worker to start, the tasks run in this process instead, each as
    it is submitted: no process is forked, and none sets itself up again.
    """

    def __init__(self, workers: int | None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool: Any = None
        self._inline = False
        self._arrived: queue.Queue = queue.Queue()

    def start(self, initializer: Callable[..., None], init_args: tuple, at_most: int) -> int:
        count = min(self.workers, max(at_most, 1))
        if count == 1:
            initializer(*init_args)
            self._inline = True
            return 1
        import multiprocessing  # here: a build that runs its tasks in this process does without it

        # With fork, `init_args` reach the children by inheritance, not pickling: one table per machine.
        self._pool = multiprocessing.get_context("fork").Pool(
            count, initializer=_local_worker_setup, initargs=(initializer, *init_args)
        )
        return count

    def submit(self, function: Callable[..., Any], *args: Any) -> None:
        if self._inline:
            try:
                self._arrived.put(function(*args))
            except Exception as err:  # raised by `next_result`, as a worker's would be; Ctrl-C stops the build here
                self._arrived.put(err)
            return
        self._pool.apply_async(function, args, callback=self._arrived.put, error_callback=self._arrived.put)

    def next_result(self) -> Any:
        result = self._arrived.get()
        if isinstance(result, BaseException):
            raise result
        return result

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class _RayWorker:
    """A Ray actor: set up once, then runs the tasks it is handed (one at a time)."""

    def __init__(self, initializer: Callable[..., None], *init_args: Any) -> None:
        initializer(*init_args)

    def run(self, function: Callable[..., Any], *args: Any) -> Any:
        return function(*args)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BactreeError("--executor ray needs Ray: pip install 'bactree[cluster]'") from None
    return ray


class RayExecutor(Executor):
    """Ray actors, one per worker: on a Ray started here (loopback only) or on the cluster at `address`."""

    def __init__(self, workers: int | None, address: str | None, verbose: bool) -> None:
        self.ray = _import_ray()
        self.workers, self.address, self.verbose = workers, address, verbose
        self._started_ray = False
        self._idle: list[Any] = []
        self._running: dict[Any, Any] = {}  # task's object ref -> its actor

    def _connect(self, store_bytes: int) -> None:
        ray = self.ray
        if ray.is_initialized():
            return
        common = {"logging_level": logging.WARNING if self.verbose else logging.ERROR, "log_to_driver": self.verbose}
        if self.address is not None:
            try:
                ray.init(address=self.address, **common)
            except ConnectionError as err:
                raise BactreeError(f"cannot reach the Ray cluster at {self.address}: {err}") from None
        else:
            ray.init(
                address="local",  # a new Ray of our own, even where `ray start` left a cluster's address behind
                num_cpus=self.workers or os.cpu_count() or 1,
                object_store_memory=max(store_bytes + _STORE_SLACK, _STORE_MIN),
                include_dashboard=False,
                _node_ip_address="127.0.0.1",
                **common,
            )
        self._started_ray = True

    def start(self, initializer: Callable[..., None], init_args: tuple, at_most: int) -> int:
        ray = self.ray
        self._connect(sum(arg.nbytes for arg in init_args if isinstance(arg, np.ndarray)))
        capacity = self.workers or max(int(ray.cluster_resources().get("CPU", 1)), 1)
        count = min(capacity, max(at_most, 1))
        # One object per array, put once; each actor gets it from its machine's store (top-level
        # arguments are resolved by Ray, zero-copy for numpy arrays).
        shared = [ray.put(arg) if isinstance(arg, np.ndarray) else arg for arg in init_args]
        actor = ray.remote(num_cpus=1)(_RayWorker)
        self._idle = [actor.remote(initializer, *shared) for _ in range(count)]
        return count

    def share(self, array: np.ndarray) -> Any:
        return self.ray.put(array)  # once; as a task's argument Ray resolves it on the worker

    def submit(self, function: Callable[..., Any], *args: Any) -> None:
        worker = self._idle.pop()
        self._running[worker.run.remote(function, *args)] = worker

    def next_result(self) -> Any:
        ray = self.ray
        (ready,), _ = ray.wait(list(self._running), num_returns=1)
        self._idle.append(self._running.pop(ready))
        try:
            return ray.get(ready)
        except ray.exceptions.RayTaskError as err:
            if isinstance(err.cause, BaseException):
                raise err.cause from None
            raise
        except ray.exceptions.RayActorError as err:
            raise BactreeError(f"a Ray worker died: {str(err).splitlines()[0]}") from None

    def close(self) -> None:
        ray = self.ray
        for worker in [*self._idle, *self._running.values()]:
            ray.kill(worker)
        self._idle, self._running = [], {}
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False
