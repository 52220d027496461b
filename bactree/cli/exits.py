"""How a command ends: library errors as one line, Ctrl-C and SIGTERM as quiet exits.

`cli_errors`, around every command, turns a `BactreeError` into one
line on stderr ("Error: ...") and exit status 2, Ctrl-C into
"Interrupted." and 130, SIGTERM into "Terminated." and 143, never a
traceback. Both signals stop the command as exceptions
(`stop_on_signals`), so that a build cleans up on the way out.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer

from ..game import BactreeError


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an exception so that a build stops as cleanly as on Ctrl-C."""


@contextmanager
def stop_on_signals() -> Iterator[Callable[[], None]]:
    """While inside, Ctrl-C raises KeyboardInterrupt and SIGTERM `Terminated`, and both are remembered.

    Python drops an exception raised while a finalizer runs (it prints
    "Exception ignored in ..." and goes on), and numba turns one raised in
    Python code it calls into a SystemError; so the signal is remembered:
    the function yielded raises it again (it is called before anything is
    written), and any exception that ends the block after a signal becomes
    the signal's.
    """
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)
        _quiet_finalizers()  # the exception may land in a finalizer, or leave an object half built
        raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    def raise_if_signalled() -> None:
        if received:
            raise Terminated if received[0] == signal.SIGTERM else KeyboardInterrupt

    previous = {signum: signal.signal(signum, stop) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield raise_if_signalled
    except BaseException:
        raise_if_signalled()
        raise
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def cli_errors() -> Iterator[Callable[[], None]]:
    """Turn library errors into one line on stderr and exit status 2; Ctrl-C exits 130 quietly, SIGTERM 143.

    Inside, both signals stop the command as `stop_on_signals` has them;
    its function that raises a remembered signal again is yielded.
    """
    try:
        with stop_on_signals() as raise_if_signalled:
            yield raise_if_signalled
    except BactreeError as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt as stopped:  # Ctrl-C, or SIGTERM as `Terminated`
        terminated = isinstance(stopped, Terminated)
        typer.echo("Terminated." if terminated else "Interrupted.", err=True)
        _quiet_finalizers()
        raise typer.Exit(143 if terminated else 130) from None


def _quiet_finalizers() -> None:
    """Say nothing of exceptions dropped in finalizers once a signal stops the process.

    Python prints them as "Exception ignored ..." with a traceback: the
    signal's own exception when it lands in a finalizer, and a finalizer's
    failure when the signal left its object half built (numba's compiler,
    run on first use, holds llvmlite objects that do so).
    """
    sys.unraisablehook = lambda unraisable: None
