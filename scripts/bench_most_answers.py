"""Benchmark `_most_answers` (the lookahead's scan over every code) on the small sets the least-cost search bounds.

Usage: python scripts/bench_most_answers.py [--game bulls-cows] [-n LENGTH] [--symbols S] [--sets 3000] [--repeats 5]

The sets: for a few guesses on each large part of a first guess (the
game's second canonical first guess), their parts of 3 to 30 secrets, and
those one more random guess leaves of their parts above 60 (seeded, so
each run meets the same sets). Times the kernel on every set with the
codes counted in the table's order and by groups of one multiset of
symbols (`bactree.game.codes.regroup_answers`), checks both give the same
answers, and prints the median over `--repeats` passes of microseconds a
call, and which way the build takes for this game (`grouped_answers`).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from bactree.game.codes import GROUPED_MIN_CODES, UNGROUPED, regroup_answers
from bactree.game import make_game
from bactree.search import Solver
from bactree.search._partition_kernels import _most_answers

MAX_SET = 30


def small_sets(solver: Solver, count: int, seed: int = 2) -> list[np.ndarray]:
    """Parts of 3 to `MAX_SET` secrets two or three random guesses below the large parts of a first guess."""
    rng = np.random.default_rng(seed)
    num_codes = solver.num_codes
    openings = solver.canonical_guesses(())
    first = int(openings[min(1, len(openings) - 1)])
    found: list[np.ndarray] = []
    for part in solver.split(solver.all_guesses, first):
        if len(part) < 2 * MAX_SET:
            continue
        for guess in rng.choice(num_codes, 40, replace=False):
            for piece in solver.split(part, int(guess)):
                if len(piece) > 2 * MAX_SET:
                    for again in rng.choice(num_codes, 10, replace=False):
                        found += [p for p in solver.split(piece, int(again)) if 3 <= len(p) <= MAX_SET]
                elif 3 <= len(piece) <= MAX_SET:
                    found.append(piece)
    order = rng.permutation(len(found))[:count]
    return [np.ascontiguousarray(found[i], dtype=np.int64) for i in order]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int, default=None)
    parser.add_argument("--symbols", default=None)
    parser.add_argument("--sets", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    game = make_game(args.game, args.length, args.symbols)
    solver = Solver(game)
    sets = small_sets(solver, args.sets)
    branching = int(solver.caps[2]) - 1
    grouped = regroup_answers(game, solver.table)
    groups = len(grouped[2]) - 1
    print(f"{game}: {solver.num_codes} codes in {groups} multisets ({solver.num_codes / groups:.1f} a group); "
          f"{len(sets)} sets, mean {np.mean([len(s) for s in sets]):.1f} secrets")
    answers = {}
    for name, arrays in (("in table order", UNGROUPED), ("by groups", grouped)):
        _most_answers(solver.table, solver.by_secret, sets[0], solver.solved, solver.num_slots, False, branching, arrays)  # compiled or loaded
        seconds = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            answers[name] = [_most_answers(solver.table, solver.by_secret, s, solver.solved, solver.num_slots, False, branching, arrays) for s in sets]
            seconds.append(time.perf_counter() - start)
        print(f"  {name:15s} {1e6 * statistics.median(seconds) / len(sets):8.2f} us a set (median of {args.repeats})")
    assert answers["in table order"] == answers["by groups"], "the two ways disagree"
    used = solver.num_codes >= GROUPED_MIN_CODES * groups
    print(f"  builds count {'by groups' if used else 'in table order'} here "
          f"(games of {GROUPED_MIN_CODES} or more codes a group)")


if __name__ == "__main__":
    main()
