"""Stress the worker pool's start and shutdown: many split builds in a row, each a `bactree build` process.

Usage: python scripts/stress_builds.py [--runs 500] [--length 3] [--workers 2] [--branch-min N] [--timeout 300]

Each run builds the expected tree of LENGTH of 10 with WORKERS local
workers, as a user would (`bactree build -O expected -j WORKERS -q`), in a
fresh process with a time limit; `--branch-min N` makes parts of N secrets
or more go one second guess per task (as 4 of 10's large parts do), which
starts and ends many more tasks. Prints one line per run and a summary:
runs, hangs (time limit reached: the process and its workers are killed),
failures (non-zero exit), files that differ from the first run's bytes,
and wall times. Run it at low priority on a shared machine: `nice -n 19`.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# `bactree build` with the module's branching threshold set first (the CLI has no option for it).
_BUILD = "import sys; from bactree import subproblems; subproblems.BRANCH_MIN_SECRETS = int(sys.argv.pop(1)); from bactree.cli.main import main; main()"


def one_build(args: argparse.Namespace, out: Path) -> tuple[str, float]:
    """Run one build; ('ok' | 'hang' | 'failed: ...', wall seconds)."""
    command = [sys.executable, "-c", _BUILD, str(args.branch_min), "build", "-O", "expected", "-n", str(args.length),
               "-j", str(args.workers), "-q", "-o", str(out)]
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, stderr = process.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the build and its workers
        process.communicate()
        return "hang", time.perf_counter() - began
    seconds = time.perf_counter() - began
    if process.returncode != 0:
        return f"failed ({process.returncode}): {stderr.strip().splitlines()[-1:]}", seconds
    return "ok", seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--length", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--branch-min", type=int, default=1000, help="parts this large go one second guess per task")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before a run counts as hung")
    args = parser.parse_args()
    outcomes: dict[str, int] = {}
    walls: list[float] = []
    differing = 0
    with tempfile.TemporaryDirectory(prefix="bactree-stress-") as folder:
        first: bytes | None = None
        for run in range(1, args.runs + 1):
            out = Path(folder) / "tree.json"
            outcome, seconds = one_build(args, out)
            walls.append(seconds)
            kind = outcome.split(" ")[0].rstrip(":")
            outcomes[kind] = outcomes.get(kind, 0) + 1
            if outcome == "ok":
                data = out.read_bytes()
                first = data if first is None else first
                differing += data != first
            print(f"run {run}/{args.runs}: {outcome}, {seconds:.1f} s", flush=True)
    print(
        f"{args.runs} builds of {args.length} of 10 (-O expected -j {args.workers}, branch min {args.branch_min}): "
        f"{outcomes.get('ok', 0)} ok, {outcomes.get('hang', 0)} hangs, {outcomes.get('failed', 0)} failed, "
        f"{differing} files differing from the first; wall median {statistics.median(walls):.1f} s, max {max(walls):.1f} s"
    )


if __name__ == "__main__":
    main()
