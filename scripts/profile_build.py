"""Profile a build: where its time goes, by part of the engine (cProfile, one process).

Usage: python scripts/profile_build.py [--game bulls-cows] [-n LENGTH] [--symbols S] [--objective worst-case] [--max-guesses K]

The game is a preset with its length or symbols changed, as `bactree build`
takes them: `--symbols 012345678` is Bulls and Cows 4 of 9, `--game
mastermind --symbols 1234567` Mastermind 4x7.

Loads the numba kernels first (timed apart), then builds under cProfile and
sums each function's own time into: the answer table, the numba kernels,
the Python search levels (search, cost, subproblems), the tree file and its
replay check, and the rest (numba dispatch, numpy glue). When symmetry
forces the first guess (Bulls and Cows expected), the subproblems run one
after another in this process, so that the profile sees them; a real build
runs them on worker processes. Prints the table and the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections import defaultdict

GROUPS = (
    ("answer table", lambda path, name: name == "_answer_table"),
    ("numba kernels", lambda path, name: path.endswith(("_kernels.py", "_symmetry.py"))),
    ("Python search levels", lambda path, name: path.endswith(("solver.py", "search.py", "subproblems.py", "part_tasks.py"))),
    ("tree file and replay check", lambda path, name: path.endswith(("treefile.py", "game.py", "build.py"))),
)


def group_of(path: str, name: str) -> str:
    return next((group for group, matches in GROUPS if matches(path, name)), "other (numba dispatch, numpy, Python)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("--objective", default="worst-case")
    parser.add_argument("--max-guesses", type=int, default=None)
    parser.add_argument("-n", "--length", type=int, default=None)
    parser.add_argument("--symbols", default=None, help="the preset's symbols changed, e.g. 012345678")
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    from bactree.pipeline.build import build
    from bactree.game import Game, make_game
    from bactree.search import Solver
    from bactree.pipeline.part_tasks import _install_solver, _solve_part
    from bactree.pipeline.subproblems import forced_first_guess

    build(Game(3, "01234", False))  # loads every kernel used by the search
    load = time.perf_counter() - began
    game = make_game(args.game, args.length, args.symbols)
    profile = cProfile.Profile()
    began = time.perf_counter()
    profile.enable()
    solver = Solver(game)
    first = forced_first_guess(solver) if args.objective == "expected" else None
    if first is None:
        build(game, args.objective, max_guesses=args.max_guesses)
    else:
        depth = (args.max_guesses or solver.num_codes) - 1
        _install_solver(game, solver.table, False)
        for part in solver.split(solver.all_guesses, first):
            _solve_part(game, first, part, depth, None, str(solver.answer_to(first, part)), False)
    profile.disable()
    wall = time.perf_counter() - began
    stats = pstats.Stats(profile)
    totals: dict[str, float] = defaultdict(float)
    for (path, _, name), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        totals[group_of(path, name)] += own
    profiled = sum(totals.values())
    print(f"{args.game} {args.objective}: kernel load {load:.2f}s, then {wall:.2f}s under cProfile")
    for group, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"  {group:<40} {seconds:7.2f}s {100 * seconds / profiled:5.1f}%")
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
