"""One process run and timed as the kernel counts it, for the scripts that run other programs side by side.

`timed` waits for the process with `os.wait4`, so its CPU (user plus
system, with the children it waited for) is the kernel's own figure for
that process alone, whatever else the machine runs; past `timeout` seconds
of wall the process is killed and its status is -9.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Timed:
    """What one run took and printed."""

    cpu: float  # seconds, user plus system, the children it waited for included
    wall: float
    out: str
    err: str
    status: int  # the exit status; -9 when killed past the timeout


def timed(command: list[str], timeout: float | None = None, cwd: Path | None = None,
          env: dict[str, str] | None = None) -> Timed:
    """Run `command` (stdin empty) to its end, or until `timeout` seconds of wall have passed."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        deadline = None if timeout is None else start + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG if deadline else 0)
            if pid:
                break
            if time.perf_counter() > deadline:
                process.kill()
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return Timed(usage.ru_utime + usage.ru_stime, wall, out.read().decode(errors="replace"),
                     err.read().decode(errors="replace"), process.returncode)
