"""Benchmark how builds scale: time and peak memory against the number of secrets, for a ladder of games.

Usage: python scripts/bench_scale.py [--games 3x10,mm4x6,...] [--objectives worst-case,expected]
       [--timeout 900] [--trees DIR] [--plot FILE] [--json FILE]

Each build is a fresh `bactree build` process (kernels loaded from numba's
cache), run once with its default workers (one per core). Its wall and CPU time
(user + system, workers included: the figure to compare on a busy machine)
are the whole command's; its peak memory is the peak, sampled every 0.2 s, of the
proportional set size (PSS) summed over the process and its workers, so
pages the workers share (the answer table, inherited by fork) count once.
A build past `--timeout` is stopped and shown as such. The `table` rows
time only the answer table (`bactree.game.codes.answer_table`) of a game too
big to build here, to place the next game on the plot. `--plot FILE` draws
both figures on log-log axes (`pip install 'bactree[plot]'`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# name: (bactree build game options, secrets)
LADDER = {
    "3x10": (["-n", "3"], 720),
    "mm4x6": (["-g", "mastermind"], 1296),
    "mm4x7": (["-g", "mastermind", "--symbols", "1234567"], 2401),
    "4x9": (["--symbols", "012345678"], 3024),
    "4x10": ([], 5040),
    "5x9": (["-n", "5", "--symbols", "012345678"], 15120),
    "5x10": (["-n", "5"], 30240),
    "mm5x8": (["-g", "mastermind", "-n", "5", "--symbols", "12345678"], 32768),
}
DEFAULT_GAMES = "3x10,mm4x6,mm4x7,4x9,4x10,5x9"
TABLE_ONLY = r"""
import json, resource, sys, time
from bactree.game import Game, make_game
from bactree.game.codes import answer_table
answer_table(Game(2, "012", False))  # loads the kernel from numba's cache: not the table's time
args = json.loads(sys.argv[1])
game = make_game("mastermind" if "mastermind" in args else "bulls-cows",
                 int(args[args.index("-n") + 1]) if "-n" in args else None,
                 args[args.index("--symbols") + 1] if "--symbols" in args else None)
began = time.perf_counter()
table = answer_table(game)
print(json.dumps({"seconds": time.perf_counter() - began, "bytes": table.nbytes}))
"""


def descendants(pid: int) -> list[int]:
    """`pid` and every process below it (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(children.get(current, []))
    return found


def pss_mib(pids: list[int]) -> float:
    """Summed proportional set size of `pids`, in MiB (processes that ended count 0)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
        except OSError:
            continue
    return total / 1024


def run_measured(command: list[str], timeout: float) -> dict:
    """Wall and CPU seconds, peak PSS MiB of the process tree, stdout and whether it finished, of one command.

    CPU time (user + system, the workers included) is the figure to compare on a busy machine.
    """
    began = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, start_new_session=True)
        peak = 0.0
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - began > timeout:
                os.killpg(process.pid, 9)
                _, status, usage = os.wait4(process.pid, 0)
                return {"wall": time.perf_counter() - began, "cpu": usage.ru_utime + usage.ru_stime,
                        "peak_mib": peak, "finished": False, "stdout": ""}
            peak = max(peak, pss_mib(descendants(process.pid)))
            time.sleep(0.2)
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - began
        out.seek(0)
        text = out.read().decode()
    if process.returncode != 0:
        raise SystemExit(f"Error: {' '.join(command)} exited with {process.returncode}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mib": peak, "finished": True, "stdout": text}


def measure(name: str, objective: str, timeout: float, trees: Path) -> dict:
    options, secrets = LADDER[name]
    row = {"game": name, "secrets": secrets, "objective": objective}
    if objective == "table":
        run = run_measured([sys.executable, "-c", TABLE_ONLY, json.dumps(options)], timeout)
        if run["finished"]:
            table = json.loads(run["stdout"])
            run["result"] = f"answer table: {table['bytes'] / 2**20:.1f} MiB in {table['seconds']:.1f}s"
    else:
        out = trees / f"{name}-{objective}.json"
        run = run_measured([sys.executable, "-m", "bactree", "build", *options, "-O", objective, "-o", str(out), "-q"],
                           timeout)
        if run["finished"]:  # `FILE: height 7, 5040 nodes, total 27758, mean 5.5075, optimal, 6.1s`
            found = re.search(r": height (\d+), (\d+) nodes, total (\d+), mean [\d.]+, (.*), [\d.]+s$", run["stdout"].strip())
            height, _, total, proof = found.groups()
            run["result"] = f"height {height}, total {total}" + ("" if proof == "optimal" else f" ({proof})")
    del run["stdout"]
    return row | {"result": ""} | run


def plot(rows: list[dict], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("Error: --plot needs matplotlib: pip install 'bactree[plot]'") from None
    figure, (time_axis, memory_axis) = plt.subplots(1, 2, figsize=(11, 4.2))
    for objective, marker in (("worst-case", "o"), ("expected", "s"), ("table", "^")):
        done = sorted((r for r in rows if r["objective"] == objective and r["finished"]), key=lambda r: r["secrets"])
        if not done:
            continue
        label = "answer table only" if objective == "table" else objective
        x = [r["secrets"] for r in done]
        time_axis.plot(x, [r["cpu"] for r in done], marker=marker, label=label)
        memory_axis.plot(x, [r["peak_mib"] for r in done], marker=marker, label=label)
        for r in done:
            time_axis.annotate(r["game"], (r["secrets"], r["cpu"]), fontsize=7, xytext=(3, 3), textcoords="offset points")
    for axis, title in ((time_axis, "CPU seconds (whole command, workers included)"), (memory_axis, "peak memory, MiB (PSS of all processes)")):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("secrets")
        axis.set_title(title, fontsize=10)
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=DEFAULT_GAMES, help=f"comma-separated, of {', '.join(LADDER)}")
    parser.add_argument("--objectives", default="worst-case,expected", help="worst-case, expected, table")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds before a build is stopped")
    parser.add_argument("--trees", type=Path, help="keep the built trees here (default: a temporary folder)")
    parser.add_argument("--plot", help="draw the log-log figures to this PNG")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    games = args.games.split(",")
    unknown = [g for g in games if g not in LADDER]
    if unknown:
        raise SystemExit(f"Error: unknown game {unknown[0]!r}: choose from {', '.join(LADDER)}")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        trees = args.trees or Path(scratch)
        trees.mkdir(parents=True, exist_ok=True)
        print(f"{'game':6} {'secrets':>7} {'objective':10} {'wall':>9} {'CPU':>9} {'peak MiB':>9}  result", flush=True)
        for name in games:
            for objective in args.objectives.split(","):
                row = measure(name, objective, args.timeout, trees)
                rows.append(row)
                wall = f"{row['wall']:8.1f}s" if row["finished"] else f">{args.timeout:7.0f}s"
                print(f"{name:6} {row['secrets']:7} {objective:10} {wall} {row['cpu']:8.1f}s {row['peak_mib']:9.0f}  "
                      f"{row['result']}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    if args.plot:
        plot(rows, args.plot)


if __name__ == "__main__":
    main()
