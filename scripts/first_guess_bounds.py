"""Proven lower bounds of the expected total, one per first-guess class, by one guess of lookahead below each part.

Usage: python scripts/first_guess_bounds.py [--game mastermind] [-n 5] [--symbols 12345678]

When symmetry does not force the first guess (Mastermind), the least total
of the game is the least, over the first guesses' symmetry classes, of the
least total of the trees that start with each. This prints, for each class
(its lowest code), the bound a `--first` build uses for the classes it does
not take: the guess's cost plus, for each part, the least over every next
guess of its cost plus the floor of its parts (`CostSearch.lookahead_bound`,
each part's floor from its answer class of the next guess), beside the
floor alone, and (`by class`) the same lookahead with each part's floor
the larger of its two classes' (`ClassCaps.floors`: of the next guess and
of the first), which the cost search does not use. A class
whose bound here is above another class's proven bound need not be
refined to bound the game. Timings go to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from bactree.game import _answer_kernels as _code_kernels
from bactree.game import BUILD_LIMIT, BactreeError, Game, make_game
from bactree.search import TOTAL_GUESSES, CostSearch, Solver


def class_bounds(game: Game) -> list[tuple[str, int, int, int, int]]:
    """(first guess, floor bound, lookahead bound, lookahead bound by class floors, largest part) of each
    first-guess class, lowest code first."""
    solver = Solver(game)
    search = CostSearch(solver, TOTAL_GUESSES)
    depth = solver.num_codes  # no cap: no tree needs more guesses than there are codes
    everything = solver.all_guesses
    floors = search.part_floor_at(depth - 2)  # the class floors the search bounds second-guess parts by
    rows = []
    for first in solver.canonical_guesses(()).tolist():
        parts = solver.split(everything, first)
        floor = lookahead = by_class = search.cost.guess_cost(len(everything), depth)
        for part in parts:
            floor += search.lower_bound(part, depth - 1)
            lookahead += search.lookahead_bound(part, depth - 1, (first,))
            by_class += class_floor_lookahead(solver, floors, part, first)
        rows.append((game.codes[first], floor, lookahead, by_class, max(map(len, parts), default=0)))
    return rows


def class_floor_lookahead(solver: Solver, floors: np.ndarray, part: np.ndarray, first: int) -> int:
    """The least, over every next guess h, of |part| plus each of h's parts' class floor (`floors[orbit, answer, size]`).

    A part of h lies in h's answer class and in `part`'s class of `first`:
    the larger of the two floors bounds it.
    """
    orbit_of, solved = solver.class_caps.orbit_of, solver.solved
    counts = _code_kernels._partition_counts(solver.by_secret, solver.all_guesses, part, solver.num_slots).astype(np.int64)
    counts[:, solved] = 0
    answers = np.arange(solver.num_slots)
    under_next = floors[orbit_of[:, None], answers[None, :], counts]
    under_first = floors[orbit_of[first], solver.table[first, part[0]]][counts]
    return len(part) + int(np.maximum(under_next, under_first).sum(axis=1).min())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="mastermind")
    parser.add_argument("-n", "--length", type=int, default=None)
    parser.add_argument("--symbols", default=None)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        game = make_game(args.game, args.length, args.symbols)
        game.check_size(BUILD_LIMIT)
    except BactreeError as err:
        sys.exit(f"Error: {err}")
    print(f"{'first':>8} {'floor':>9} {'lookahead':>9} {'by class':>9} {'largest part':>12}")
    for code, floor, lookahead, by_class, largest in class_bounds(game):
        print(f"{code:>8} {floor:>9} {lookahead:>9} {by_class:>9} {largest:>12}", flush=True)
    print(f"{time.perf_counter() - began:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
