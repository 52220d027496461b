"""Executors: where a split build's tasks run, local worker processes or a Ray cluster.

A split build (`bactree.pipeline.subproblems`) hands its tasks to an executor and
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
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections import Counter
from multiprocessing.pool import ExceptionWithTraceback
from multiprocessing.reduction import ForkingPickler
from typing import Any, Callable

import numpy as np

from ..game import BactreeError

EXECUTORS = ("local", "ray")

# A local Ray's object store: room for the shared arrays plus this much, and never less than Ray's minimum.
_STORE_SLACK = 64 << 20
_STORE_MIN = 80 << 20
# How long a local worker is given to end, when told to and again when sent SIGTERM, before SIGKILL.
_EXIT_SECONDS = 5.0


class Executor:
    """Runs tasks on workers set up once; `submit` starts one, `next_result` waits for any one to end.

    The caller keeps at most `start`'s count of tasks running. Used as a
    context manager: leaving it lets the workers end (`close`), or, by
    Ctrl-C or an error, stops them (`stop`); neither can wait forever.
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

    def tasks_per_node(self) -> dict[str, int]:
        """How many tasks have ended on each node of a cluster, by node address; empty when all run on this machine."""
        return {}

    def close(self) -> None:
        """Let the workers end, their tasks all done."""

    def stop(self) -> None:
        """Stop the workers now, on an error or an interrupt, without waiting for their tasks."""
        self.close()

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self.close()
        else:
            self.stop()


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


def _local_worker(connection: Any, inherited: list[Any], initializer: Callable[..., None], init_args: tuple) -> None:
    """A local worker's life: set up once, then run the tasks read from `connection` until told to stop.

    Ctrl-C reaches the whole process group and is for the parent to handle;
    the SIGTERM with which the parent stops a worker ends it at once,
    without a traceback. The parent's ends of the other workers' pipes,
    inherited by the fork, are closed so that each pipe has one reader.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})  # blocked by `start` until the line above
    for other in inherited:
        other.close()
    initializer(*init_args)
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        if task is None:
            return
        function, args = task
        try:
            outcome: tuple[bool, Any] = (True, function(*args))
        except BaseException as err:  # the task's error is the caller's, raised by `next_result`
            outcome = (False, ExceptionWithTraceback(err, err.__traceback__))
        try:
            payload = ForkingPickler.dumps(outcome)
        except Exception as err:  # a result or error that cannot be pickled
            payload = ForkingPickler.dumps((False, BactreeError(f"a worker could not send its result back: {err}")))
        try:
            connection.send_bytes(payload)
        except OSError:
            return  # the parent is gone


class _LocalWorker:
    """One forked process and the parent's end of its pipe."""

    def __init__(self, process: Any, connection: Any) -> None:
        self.process, self.connection = process, connection

    def stopped(self) -> str:
        """How the process ended, for an error message."""
        self.process.join(_EXIT_SECONDS)
        code = self.process.exitcode
        if code is not None and code < 0:
            return f"was killed by signal {signal.Signals(-code).name}"
        return f"exited with status {code}" if code is not None else "stopped answering"


class LocalExecutor(Executor):
    """Forked worker processes of this machine: they inherit the parent's arrays (copy-on-write, never written).

    Each worker has a pipe of its own and runs one task at a time, so no
    lock is shared between processes: a worker stopped or killed at any
    moment cannot leave another, or the parent, waiting. A worker that dies
    under a task is an error of `next_result`, not a result that never comes.

    With one worker to start, the tasks run in this process instead, each as
    it is submitted: no process is forked, and none sets itself up again.
    """

    def __init__(self, workers: int | None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._all: list[_LocalWorker] = []
        self._idle: list[_LocalWorker] = []
        self._busy: dict[Any, _LocalWorker] = {}  # by the parent's end of its pipe
        self._inline: list[tuple[bool, Any]] | None = None  # with one worker: outcomes of the tasks run here

    def start(self, initializer: Callable[..., None], init_args: tuple, at_most: int) -> int:
        count = min(self.workers, max(at_most, 1))
        if count == 1:
            initializer(*init_args)
            self._inline = []
            return 1
        context = multiprocessing.get_context("fork")
        # A SIGTERM that reached a worker before it set SIGTERM's default action would run the parent's
        # handler there (which may only note it), and the worker would live on: it stays blocked until then.
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        try:
            self._fork(context, count, initializer, init_args)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        self._idle = list(reversed(self._all))
        return count

    def _fork(self, context: Any, count: int, initializer: Callable[..., None], init_args: tuple) -> None:
        """Start `count` workers, each with a pipe of its own."""
        for _ in range(count):
            # With fork, `init_args` reach the children by inheritance, not pickling: one table per machine.
            mine, theirs = context.Pipe()
            inherited = [worker.connection for worker in self._all] + [mine]
            process = context.Process(target=_local_worker, args=(theirs, inherited, initializer, init_args), daemon=True)
            process.start()
            theirs.close()
            self._all.append(_LocalWorker(process, mine))

    def submit(self, function: Callable[..., Any], *args: Any) -> None:
        if self._inline is not None:
            try:
                self._inline.append((True, function(*args)))
            except Exception as err:  # raised by `next_result`, as a worker's would be; Ctrl-C stops the build here
                self._inline.append((False, err))
            return
        worker = self._idle.pop()
        try:
            worker.connection.send((function, args))
        except OSError:
            raise BactreeError(f"a local worker {worker.stopped()} before its task began") from None
        self._busy[worker.connection] = worker

    def next_result(self) -> Any:
        if self._inline:
            done, value = self._inline.pop(0)
            if not done:
                raise value
            return value
        if not self._busy:
            raise RuntimeError("next_result with no task running would wait forever")
        sentinels = {worker.process.sentinel: worker for worker in self._busy.values()}
        ready = multiprocessing.connection.wait([*self._busy, *sentinels])
        # A result sent just before its worker ended is still read: pipes first.
        pipes = [worker for worker in self._busy.values() if worker.connection in ready or worker.connection.poll()]
        worker = pipes[0] if pipes else sentinels[ready[0]]
        del self._busy[worker.connection]
        try:
            done, value = worker.connection.recv()
        except (EOFError, OSError):
            raise BactreeError(f"a local worker {worker.stopped()} during its task") from None
        self._idle.append(worker)
        if not done:
            raise value
        return value

    def close(self) -> None:
        """Tell the workers to end and wait a bounded time; then `stop` whoever is left (any at a task, at once)."""
        try:
            if not self._busy:
                for worker in self._all:
                    try:
                        worker.connection.send(None)
                    except OSError:
                        pass  # already gone
                self._wait(_EXIT_SECONDS)
        finally:
            self.stop()  # whoever has not ended by now, also after a Ctrl-C here: SIGTERM, then SIGKILL

    def stop(self) -> None:
        """SIGTERM every worker, wait a bounded time, SIGKILL the rest: never blocks for long."""
        for worker in self._all:
            if worker.process.exitcode is None:
                worker.process.terminate()
        self._wait(_EXIT_SECONDS)
        for worker in self._all:
            if worker.process.exitcode is None:
                worker.process.kill()
        self._wait(_EXIT_SECONDS)  # a killed process ends at once, unless stuck in the kernel
        for worker in self._all:
            worker.connection.close()
        self._all, self._idle, self._busy = [], [], {}

    def _wait(self, seconds: float) -> None:
        """Wait until every worker has ended or `seconds` have passed."""
        deadline = time.monotonic() + seconds
        for worker in self._all:
            worker.process.join(max(deadline - time.monotonic(), 0))


class _RayWorker:
    """A Ray actor: set up once, then runs the tasks it is handed (one at a time)."""

    def __init__(self, initializer: Callable[..., None], *init_args: Any) -> None:
        import ray

        self.node = ray.get_runtime_context().get_node_id()
        initializer(*init_args)

    def run(self, function: Callable[..., Any], *args: Any) -> tuple[str, Any]:
        """(this actor's node id, `function(*args)`): the caller counts the tasks of each node."""
        return self.node, function(*args)


# A Ray build's progress reads like a local one: the workers' lines with no colour codes, no "(pid=...)"
# prefix and none merged into "[repeated Nx]"; set before Ray is imported (it reads some at import).
_RAY_QUIET = {"RAY_COLOR_PREFIX": "0", "RAY_DISABLE_WORKER_LOG_PREFIX": "1", "RAY_DEDUP_LOGS": "0"}


def _import_ray() -> Any:
    for name, value in _RAY_QUIET.items():
        os.environ.setdefault(name, value)  # a user's own setting wins
    try:
        import ray
    except ImportError:
        raise BactreeError("--executor ray needs Ray: pip install 'bactree[cluster]'") from None
    return ray


class RayExecutor(Executor):
    """Ray actors, one per worker: on a Ray started here or on the cluster at `address`.

    A Ray started here asks for the node address 127.0.0.1, but Ray 2.60's
    own servers still listen on every interface (seen 2026-11-25), behind
    the token authentication Ray turns on by default.
    """

    def __init__(self, workers: int | None, address: str | None, verbose: bool) -> None:
        self.ray = _import_ray()
        self.workers, self.address, self.verbose = workers, address, verbose
        self._started_ray = False
        self._idle: list[Any] = []
        self._running: dict[Any, Any] = {}  # task's object ref -> its actor
        self._per_node: Counter[str] = Counter()  # by node id

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
            # Ray turns token authentication on for a Ray it starts, and says so on every start:
            # a notice, not a warning, kept out of the build's output.
            logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
            try:
                ray.init(
                    address="local",  # a new Ray of our own, even where `ray start` left a cluster's address behind
                    num_cpus=self.workers or os.cpu_count() or 1,
                    object_store_memory=max(store_bytes + _STORE_SLACK, _STORE_MIN),
                    include_dashboard=False,
                    _node_ip_address="127.0.0.1",
                    **common,
                )
            except (RuntimeError, ConnectionError) as err:  # e.g. "Failed to start GCS", with pages of detail
                raise BactreeError(f"cannot start Ray here: {str(err).splitlines()[0]}") from None
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
            node, value = ray.get(ready)
        except ray.exceptions.RayTaskError as err:
            if isinstance(err.cause, BaseException):
                raise err.cause from None
            raise
        except ray.exceptions.RayActorError as err:
            raise BactreeError(f"a Ray worker died: {str(err).splitlines()[0]}") from None
        self._per_node[node] += 1
        return value

    def tasks_per_node(self) -> dict[str, int]:
        """By the address each node registered with the cluster (nodes that share an address are summed)."""
        addresses = {node["NodeID"]: node["NodeManagerAddress"] for node in self.ray.nodes()}
        counts: Counter[str] = Counter()
        for node, count in self._per_node.items():
            counts[addresses.get(node, node)] += count
        return dict(counts)

    def close(self) -> None:
        ray = self.ray
        for worker in [*self._idle, *self._running.values()]:
            ray.kill(worker)
        self._idle, self._running = [], {}
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False
