"""Time the builds of a word list's trees as they are shipped: CPU, wall and peak memory of each.

    python scripts/bench_words.py [--words en-4] [--objective expected --objective worst-case] [--repeat 1]

Runs `bactree build --words LIST -O OBJECTIVE OPTIONS -q` in a process of
its own, OPTIONS those of the shipped `en-4` trees (`SHIPPED_OPTIONS`: the
least height without a tie-break, the least total's best within a budget),
writing the tree to a scratch folder (never over the checkout's), once
first to warm numba's cache (not counted), then `--repeat` times, and
prints each run's wall and CPU seconds and peak memory (from the kernel's
accounting of that child, `os.wait4`), with the median of each and the load average, since the
machine may be shared: pause other work (SIGSTOP) while measuring.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The options the shipped word trees are built with (scripts/rebuild_trees.py), per objective.
SHIPPED_OPTIONS = {"worst-case": ["--tie-break", "none"], "expected": ["--budget", "1000"]}


def run(words: str, objective: str, out: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MB) of one build in a child process, read from that child's own accounting (`os.wait4`)."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "bactree", "build", "--words", words, "-O", objective, *SHIPPED_OPTIONS[objective], "-q",
         "--force", "-o", str(out)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"the build of {words} ({objective}) failed with exit status {child.returncode}")
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", default="en-4", help="A shipped word list's name or a file (default: en-4).")
    parser.add_argument("--objective", action="append", choices=["expected", "worst-case"],
                        help="An objective to build (repeatable; default: both).")
    parser.add_argument("--repeat", type=int, default=1, help="Timed builds of each objective (default: 1).")
    args = parser.parse_args()
    objectives = args.objective or ["expected", "worst-case"]
    with tempfile.TemporaryDirectory(prefix="bactree-bench-words-") as scratch:
        out = Path(scratch) / "tree.json"
        run(args.words, objectives[0], out)  # compiles the kernels into the cache, if they are not yet
        print(f"word list {args.words}; load average {os.getloadavg()[0]:.2f}")
        print(f"{'objective':<12} {'run':>3} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}")
        for objective in objectives:
            runs = [run(args.words, objective, out) for _ in range(args.repeat)]
            for i, (wall, cpu, peak) in enumerate(runs, 1):
                print(f"{objective:<12} {i:>3} {wall:>8.1f} {cpu:>8.1f} {peak:>8.0f}")
            if len(runs) > 1:
                wall, cpu, peak = (statistics.median(column) for column in zip(*runs))
                print(f"{objective:<12} {'med':>3} {wall:>8.1f} {cpu:>8.1f} {peak:>8.0f}")
        print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
