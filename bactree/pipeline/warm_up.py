"""A second process that compiles the cost search's kernels while the build searches for the least height.

On an empty numba cache a worst-case build compiles the height search's
kernels, searches, and then compiles the tie-break's cost kernels: about
half of the compile each, one after the other on one core. A machine with
a second core compiles the second half there meanwhile: `start` forks a
process that runs `bactree.search.cost.warm_up.compile_kernels` (numba
writes what it compiles to its cache), and `finish` waits for it before the
cost search starts, which then loads those kernels instead of compiling
them. The build itself first compiles one of them (`compile_candidates`)
before its height search, as the second process has the larger share.
Nothing but numba's cache passes between the two, so the tree is the one a
build without it finds. With a warm cache, or one core, no process is
started.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from typing import Any

from ..search import Cost, Solver

# The longest the build waits for the compiling process: it takes seconds to a minute or two on a busy machine.
WAIT_SECONDS = 600.0


def kernels_cached() -> bool:
    """Whether numba's cache holds the cost search's largest kernel for this source (then it holds the rest too)."""
    from ..search.cost import _small_set_kernels

    try:
        return bool(_small_set_kernels._small_set_in._cache._cache_file._load_index())
    except (AttributeError, OSError):  # another numba, or no cache: take it as warm and start nothing
        return True


def _compile(solver: Solver, cost: Cost) -> None:
    """The process's life: compile, then end at once (no teardown, no traceback: the build compiles what is missing)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the build's to handle
    status = 0
    try:
        from ..search.cost.warm_up import compile_kernels

        compile_kernels(solver, cost)
    except BaseException:  # noqa: BLE001 - a warm-up that fails leaves the compiling to the build
        status = 1
    os._exit(status)


def start(solver: Solver, cost: Cost) -> Any | None:
    """Fork the process compiling the kernels of a search for `cost` on `solver`'s game, if it would help; or None."""
    if (os.cpu_count() or 1) < 2 or kernels_cached():
        return None
    process = multiprocessing.get_context("fork").Process(target=_compile, args=(solver, cost), daemon=True)
    process.start()
    from ..search.cost.warm_up import compile_candidates

    compile_candidates(solver, cost)  # this process's share, before its height search: the other's is larger
    return process


def finish(process: Any | None) -> None:
    """Wait for `process` (from `start`) to end, so that its kernels are in numba's cache; stop it past `WAIT_SECONDS`."""
    if process is None:
        return
    process.join(WAIT_SECONDS)
    if process.is_alive():
        process.terminate()
        process.join()
