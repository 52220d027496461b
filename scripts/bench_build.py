"""Benchmark `bactree build`: fresh processes, numba load apart from search, median of runs, peak memory.

Usage: python scripts/bench_build.py [--game bulls-cows] [-n LENGTH] [--symbols S] [--objective worst-case]
    [--max-guesses K] [--runs 3]

Each run is a new Python process that (1) imports bactree and loads (or, on a
cold cache, compiles) the numba kernels with a first build, then (2) builds
the requested tree, so that (2) is the search alone, what bactree's own
figure for a build should be compared with. The first build is of the same
game when it has at most `SAME_GAME_WARM_UP` codes, so that every kernel
the search calls is loaded in each of its specialisations (a build of 4 of
0-6 left Mastermind 4x6's `_lookahead`, about 10-20 ms, to the search),
then the process's tables are dropped (`bactree.game.codes.forget_tables`) so that
(2) builds its own; larger games warm up on 4 of 0-6 (same objective),
their loads a small share of their search. It reports both times, the whole wall time of the process and
its peak resident memory (and its largest worker's, if the build used
worker processes), and the CPU time of the search (workers included: on a
shared machine it varies far less than wall time); the script prints
medians over the runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

# Games of at most this many codes warm up on themselves (the ladder's small games, whose kernel loads would show).
SAME_GAME_WARM_UP = 6000

CHILD = r"""
import json, resource, sys, time
def cpu():
    return sum(u.ru_utime + u.ru_stime for u in map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))
t0 = time.perf_counter()
from bactree.pipeline.build import build
from bactree.game import Game, make_game
game, objective = make_game(sys.argv[1], int(sys.argv[2]) or None, sys.argv[3] or None), sys.argv[4]
tie_break = "nodes" if objective == "worst-case" else None
max_guesses = None if sys.argv[5] == "-" else int(sys.argv[5])
from bactree.game import codes
warm = game if game.num_codes <= int(sys.argv[6]) else Game(4, "0123456", False)
build(warm, objective, tie_break, max_guesses)  # loads the kernels the search uses
codes.forget_tables()  # the timed build makes its own
t1, c1 = time.perf_counter(), cpu()
result = build(game, objective, tie_break, max_guesses)
t2, c2 = time.perf_counter(), cpu()
stats = result.stats
print(json.dumps({
    "load": t1 - t0, "search": t2 - t1, "search_cpu": c2 - c1, "sets": result.searched,
    "height": stats["max_guesses"], "nodes": stats["nodes"], "total": stats["total_guesses"],
    "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "worker_peak_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int, default=0, help="code length (default: the game's)")
    parser.add_argument("--symbols", default="", help="the symbols (default: the game's)")
    parser.add_argument("--objective", default="worst-case")
    parser.add_argument("--max-guesses", default="-")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for run in range(args.runs):
        began = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", CHILD, args.game, str(args.length), args.symbols, args.objective, args.max_guesses,
             str(SAME_GAME_WARM_UP)],
            check=True, capture_output=True, text=True,
        ).stdout
        row = json.loads(out.strip().splitlines()[-1])
        row["wall"] = time.perf_counter() - began
        rows.append(row)
        print(
            f"run {run + 1}: wall {row['wall']:.2f}s = kernels {row['load']:.2f}s + search {row['search']:.2f}s "
            f"(+ interpreter); search CPU {row['search_cpu']:.3f}s; peak {row['peak_mib']:.0f} MiB{workers(row)}; height {row['height']}, "
            f"{row['nodes']} nodes, total {row['total']}",
            flush=True,
        )
    print(
        f"{args.game} {args.objective}: median wall {statistics.median(r['wall'] for r in rows):.2f}s, "
        f"kernel load {statistics.median(r['load'] for r in rows):.2f}s, "
        f"search {statistics.median(r['search'] for r in rows):.3f}s "
        f"(CPU {statistics.median(r['search_cpu'] for r in rows):.3f}s, workers included), "
        f"peak {max(r['peak_mib'] for r in rows):.0f} MiB{workers(max(rows, key=lambda r: r['worker_peak_mib']))} "
        f"over {args.runs} runs"
    )


def workers(row: dict) -> str:
    """The largest worker process's peak, when the build used workers (split expected builds)."""
    return f" (largest worker {row['worker_peak_mib']:.0f} MiB)" if row["worker_peak_mib"] else ""


if __name__ == "__main__":
    main()
