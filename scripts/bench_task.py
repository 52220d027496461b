"""Benchmark one task of a split exact build at fixed work: CPU seconds for a set number of sets searched.

Usage: python scripts/bench_task.py [-n 5] [--symbols S] [--game G] [--second-guess 0B1C,01567] [--sets 600]
                                    [--bound B] [--repeats 3]

The part the game's first code (01234...) leaves with ANSWER, its second
guess fixed to GUESS: each part below GUESS is searched exactly, smallest
first, until the search has examined SETS sets (`CostSearch.budget`, which
counts work, not time, so every run does the same work). The kernels are
loaded first, untimed. Prints the CPU seconds of each repeat (each with a
fresh search) and their median: the figure for A/B trials of the search on
the large games, whose whole builds take hours (`scripts/perf_kernels.py`
says where such a task's time goes).

With `--bound B` the slice is the task as a worker of the split build runs
it instead: GUESS valued on the whole part below B (`CostSearch.guess_value`:
the two-deep bounds of its large parts first, which take most of a task's
first hour on 5 of 10), until SETS sets.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from bactree.game import make_game
from bactree.search import TOTAL_GUESSES, CostSearch, Solver
from bactree.search.cost.search import BudgetExceeded


def timed_slice(solver: Solver, part: np.ndarray, guess: int, sets: int, bound: int | None = None) -> tuple[float, int]:
    """(CPU seconds, sets searched) of the slice: the parts of `part` below `guess`, smallest first, or with `bound`
    `guess` valued on `part` below it, until `sets`."""
    first = 0
    search = CostSearch(solver, TOTAL_GUESSES)
    search.budget = sets
    began = time.process_time()
    try:
        if bound is not None:
            search.guess_value(part, solver.num_codes - 1, guess, bound, (first,))
        else:
            for below in sorted(solver.split(part, guess), key=len):
                search.solve(below, solver.num_codes - 2, history=(first, guess))
    except BudgetExceeded:
        pass
    return time.process_time() - began, search.nodes_searched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int, default=5)
    parser.add_argument("--symbols", default=None, help="the preset's symbols changed, e.g. 012345678")
    parser.add_argument("--second-guess", default="0B1C,01567", help="ANSWER,GUESS (default: 0B1C,01567)")
    parser.add_argument("--sets", type=int, default=600, help="sets searched per repeat (default: 600)")
    parser.add_argument("--bound", type=int, default=None,
                        help="value GUESS on the whole part below this, as a worker does (default: its parts, no bound)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.second_guess.count(",") != 1:
        parser.error("--second-guess wants ANSWER,GUESS, e.g. 0B1C,01567")
    answer_text, guess_text = args.second_guess.split(",")
    try:
        game = make_game(args.game, args.length, args.symbols)
        answer, guess = game.parse_answer(answer_text), game.code_index[game.parse_code(guess_text)]
    except ValueError as error:  # BactreeError is one
        parser.error(str(error))
    solver = Solver(game)
    parts = [part for part in solver.split(solver.all_guesses, 0) if solver.answer_to(0, part) == answer]
    if not parts:
        parser.error(f"no secret answers {answer_text} to {game.codes[0]}")
    search = CostSearch(solver, TOTAL_GUESSES)
    search.solve(solver.all_guesses[:40], solver.num_codes)  # the kernels loaded, untimed
    seconds = []
    for repeat in range(args.repeats):
        spent, sets = timed_slice(solver, parts[0], guess, args.sets, args.bound)
        seconds.append(spent)
        print(f"repeat {repeat + 1}: {spent:.2f} s CPU, {sets} sets", flush=True)
    below = "" if args.bound is None else f" below {args.bound}"
    print(f"{game}: {game.codes[0]} {answer_text} then {guess_text}{below}, {args.sets} sets: "
          f"median {statistics.median(seconds):.2f} s CPU of {args.repeats}")


if __name__ == "__main__":
    main()
