"""Benchmark expected-length builds: wall time, sets searched and peak memory per subproblem.

Usage: python scripts/bench_expected.py [--game bulls-cows] [--budget SETS] [--smallest K]

With a forced first guess (Bulls and Cows) each subproblem (one per answer to
it) runs in turn in this one process, smallest first, and the script prints
its greedy-then-exact outcome; `--smallest K` stops after the K smallest.
Otherwise (Mastermind) it times the whole build. Peak memory is the
process's resident high-water mark so far.
"""

from __future__ import annotations

import argparse
import resource
import time

from bactree.pipeline.build import build
from bactree.game import make_game
from bactree.search import Solver
from bactree.pipeline.part_tasks import _install_solver, _solve_part
from bactree.pipeline.subproblems import forced_first_guess


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--max-guesses", type=int, default=None)
    parser.add_argument("--smallest", type=int, default=None)
    args = parser.parse_args()
    game = make_game(args.game)
    solver = Solver(game)
    first = forced_first_guess(solver)
    began = time.perf_counter()
    if first is None:
        result = build(game, "expected", max_guesses=args.max_guesses, budget=args.budget)
        print(
            f"{args.game} expected: total {result.cost}, optimal {result.document['optimal']}, "
            f"{result.searched} sets, {result.seconds:.1f}s wall, peak {peak_mib():.0f} MiB"
        )
        return
    depth = (args.max_guesses or solver.num_codes) - 1
    _install_solver(game, solver.table, False)
    parts = sorted(solver.split(solver.all_guesses, first), key=len)[: args.smallest]
    print(f"{'answer':>6} {'secrets':>7} {'total':>7} {'lower':>7} {'proven':>6} {'sets':>7} {'seconds':>8} {'peak MiB':>8}")
    total = lower = 0
    for part in parts:
        answer = str(solver.answer_to(first, part))
        r = _solve_part(game, first, part, depth, args.budget, answer, False)
        total, lower = total + r.cost, lower + r.lower_bound
        print(f"{answer:>6} {r.size:>7} {r.cost:>7} {r.lower_bound:>7} {str(r.optimal):>6} {r.sets:>7} {r.seconds:>8.1f} {peak_mib():>8.0f}", flush=True)
    everything = len(parts) == len(solver.split(solver.all_guesses, first))
    whole = f"whole game: total {solver.num_codes + total}, lower bound {solver.num_codes + lower}" if everything else (
        f"these subproblems: total {total}, lower bound {lower}")
    print(f"{whole}; {time.perf_counter() - began:.1f}s wall on one core, peak {peak_mib():.0f} MiB")

if __name__ == "__main__":
    main()
