"""How tight the least-total bounds are on a word list, and what its exact search costs per first guess.

Usage:
  python scripts/probe_list_bounds.py [--words en-4] [--rule bulls-cows] parts --first WORD [--most 100]
  python scripts/probe_list_bounds.py ... firsts [--count 40] [--target 7522]
  python scripts/probe_list_bounds.py ... refute --bound 7523 [--ranks 1,10] [--seconds 150] [--largest-first]

`parts` prints, for each part of WORD's answers of 3 to `--most` secrets
(smallest first), its bounds within the guesses left beside its least
total: the floor by size (`CostSearch.lower_bound`, the level fill), the
kernel's bound from how many answers one guess gets (`_split_bound`), one
guess of lookahead (`CostSearch.lookahead_bound`), two guesses deep
(`deep.deeper_bound`), and the exact value (`CostSearch.solve`).

`firsts` takes the first guesses best bound first, as the exact search
does (`CostSearch.candidates`: the guess's cost plus its parts' floors),
and prints for the first `--count` that bound, the bound with one guess
of lookahead below each part (`others_bound` with no deeper pass), and
the bound two guesses deep below its large parts as far as `--target`
(`deep.guess_bound`: three guesses deep from the root).

`refute` runs the exact search of the first guesses of the ranks given
(in `firsts`' order) under `--bound`, each stopped after `--seconds` of
wall time (compiling left out): its value if below, "at least" if
refuted, "unfinished" if stopped, with its CPU seconds and sets searched;
with `--largest-first`, a guess's parts searched as before the spread
(`CostSearch.spread_slack` off).

Timings are CPU seconds of this process (the first lines include numba's
compile when its cache is cold).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bactree.compile_clock import Deadline
from bactree.game import word_game
from bactree.game.words import read_word_list
from bactree.search import TOTAL_GUESSES, CostSearch, Solver
from bactree.search.cost import _cost_kernels, deep
from bactree.search.cost.search import INFINITE, BudgetExceeded


def _search(words: str, rule: str) -> CostSearch:
    game = word_game(read_word_list(words).words, rule=rule)
    return CostSearch(Solver(game), TOTAL_GUESSES)


def parts(search: CostSearch, first: str, most: int) -> None:
    solver = search.solver
    depth = solver.num_secrets - 1  # no cap: no tree needs more guesses than there are secrets
    guess = solver.game.code_index[solver.game.parse_code(first)]
    for part in sorted(solver.split(solver.secrets, guess), key=len):
        if not 3 <= len(part) <= most:
            continue
        clock = time.process_time()
        split = int(_cost_kernels._split_bound(
            solver.table, solver.by_secret, solver.grouped, part, depth, solver.solved, solver.num_slots, solver.caps,
            search.floor, search.level_fill, search.weights, search.hard,
        ))
        ahead = search.lookahead_bound(part, depth, (guess,))
        two = deep.deeper_bound(search, part, depth, (guess,), INFINITE)
        bounds = time.process_time() - clock
        clock = time.process_time()
        exact = search.solve(part, depth, INFINITE, (guess,))
        print(f"{len(part):4d} secrets: floor {search.lower_bound(part, depth)}, split {split}, lookahead {ahead}, "
              f"two deep {two}, exact {exact}; bounds {bounds:.2f}s, exact {time.process_time() - clock:.2f}s", flush=True)


def firsts(search: CostSearch, count: int, target: int) -> None:
    everything, depth = search.solver.secrets, search.solver.num_secrets
    guesses, bases, _ = search.candidates(everything, depth, ())
    print(f"{len(guesses)} first guesses; bases below {target}: {int((bases < target).sum())}")
    for rank, (guess, base) in enumerate(zip(guesses[:count].tolist(), bases[:count].tolist())):
        ahead = deep.others_bound(search, everything, depth, (), np.array([guess]), np.array([base]), -1, INFINITE, 0)
        clock = time.process_time()
        three = deep.guess_bound(search, everything, depth, (), guess, base, target)
        print(f"{rank:4d} {search.solver.names[guess]}: base {base}, lookahead {ahead}, three deep {three} "
              f"({time.process_time() - clock:.2f}s)", flush=True)


def refute(search: CostSearch, bound: int, ranks_text: str, seconds: float) -> None:
    everything, depth = search.solver.secrets, search.solver.num_secrets
    guesses, bases, _ = search.candidates(everything, depth, ())
    words = [word.strip() for word in ranks_text.split(",")]
    ranks = [int(word) for word in words if word.isdigit()]
    if len(ranks) != len(words) or not all(rank < len(guesses) for rank in ranks):
        raise ValueError(f"--ranks {ranks_text!r}: ranks from 0 to {len(guesses) - 1} (firsts' order), comma-separated")
    for rank in ranks:
        guess = int(guesses[rank])
        search.deadline = Deadline(seconds)
        before, clock = search.nodes_searched, time.process_time()
        try:
            value = search.guess_value(everything, depth, guess, bound, ())
            found = f"value {value}" if value < bound else f"at least {value}"
        except BudgetExceeded:
            found = "unfinished"
        print(f"{rank:4d} {search.solver.names[guess]}: base {int(bases[rank])}, {found}, "
              f"{time.process_time() - clock:.1f}s CPU, {search.nodes_searched - before} sets", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", default="en-4")
    parser.add_argument("--rule", default="bulls-cows")
    parser.add_argument("--largest-first", action="store_true",
                        help="search a guess's parts largest first, each below all the slack (no spread)")
    commands = parser.add_subparsers(dest="command", required=True)
    by_part = commands.add_parser("parts")
    by_part.add_argument("--first", required=True)
    by_part.add_argument("--most", type=int, default=100)
    by_first = commands.add_parser("firsts")
    by_first.add_argument("--count", type=int, default=40)
    by_first.add_argument("--target", type=int, default=7522)
    by_refute = commands.add_parser("refute")
    by_refute.add_argument("--bound", type=int, required=True)
    by_refute.add_argument("--ranks", default="1,10")
    by_refute.add_argument("--seconds", type=float, default=150.0)
    args = parser.parse_args(argv)
    search = _search(args.words, args.rule)
    search.spread_slack = not args.largest_first
    if args.command == "parts":
        parts(search, args.first, args.most)
    elif args.command == "firsts":
        firsts(search, args.count, args.target)
    else:
        try:
            refute(search, args.bound, args.ranks, args.seconds)
        except ValueError as error:
            parser.error(str(error))


if __name__ == "__main__":
    main()
