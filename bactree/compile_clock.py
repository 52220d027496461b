"""The time numba spends compiling kernels in this process: left out of time limits, and announced by the command.

numba compiles a kernel on its first call with a new signature unless its
cache (`cache=True`) already holds it, so a process that meets an empty
cache spends tens of seconds compiling, once, and a process that meets a
warm one spends none. A time limit (`Deadline`, the coach's `--seconds`)
leaves that time out, so the first analysis answers as exactly as the
later ones; the command says on standard error, once, that it is compiling
(`announce`), so that a first run is not silent. The clock listens to
numba's compile events, which fire for a compile, never for a kernel
loaded from the cache. Every module of kernels calls `install` when
imported, before any of its kernels can run; this module itself does not
import numba, so the command can ask for the notice without loading it.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

NOTICE = ("bactree: compiling the kernels this command needs, on their first use; numba caches each one, "
          "so no later command compiles it again (seconds to a few minutes on 2 cores)")


class _Clock:
    """Seconds spent in outermost numba compiles (a compile nests those of the kernels it calls), and the notice due."""

    seconds = 0.0
    depth = 0
    started = 0.0
    notice: tuple[TextIO | None, int] | None = None  # (stream, None for standard error; process id) while due
    installed = False


def install() -> None:
    """Start the clock (once per process): numba reports each compile's start and end to it."""
    if _Clock.installed:
        return
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, _event: event.Event) -> None:
            if _Clock.depth == 0:
                _Clock.started = time.perf_counter()
                notice, _Clock.notice = _Clock.notice, None
                if notice is not None and notice[1] == os.getpid():  # not in a worker forked after `announce`
                    print(NOTICE, file=notice[0] if notice[0] is not None else sys.stderr, flush=True)
            _Clock.depth += 1

        def on_end(self, _event: event.Event) -> None:
            _Clock.depth -= 1
            if _Clock.depth == 0:
                _Clock.seconds += time.perf_counter() - _Clock.started

    event.register("numba:compile", Listener())
    _Clock.installed = True


def compile_seconds() -> float:
    """Seconds this process has spent compiling kernels so far (0 while the cache holds every kernel it called)."""
    return _Clock.seconds


def announce(stream: TextIO | None = None) -> None:
    """Print `NOTICE` to `stream` (standard error as it is then) when this process first compiles a kernel, if ever.

    The command calls it; a library caller who wants the notice may too.
    Workers forked later do not print it again.
    """
    _Clock.notice = (stream, os.getpid())


class Deadline:
    """A time limit `seconds` from now that leaves out the time spent compiling kernels in between."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._started = time.perf_counter()
        self._compiled = _Clock.seconds

    def elapsed(self) -> float:
        """Seconds since the deadline was set, less those spent compiling."""
        return time.perf_counter() - self._started - (_Clock.seconds - self._compiled)

    def passed(self) -> bool:
        """Whether `seconds` of anything but compiling have gone by since the deadline was set."""
        return self.elapsed() > self.seconds
