"""Median wall time of `bactree.evaluate.evaluate` for each deterministic strategy on 4 of 10.

Each repeat builds a fresh strategy (so no cached picks carry over); the
answer table and the numba kernels are warmed up first and not timed.

Usage: python scripts/bench_evaluate.py [--repeats 5] [--length 4]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from bactree.game.codes import answer_table
from bactree.evaluate import evaluate
from bactree.game import make_game
from bactree.strategies import STRATEGIES, make_strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed evaluations per strategy")
    parser.add_argument("--length", type=int, default=4, help="code length for bulls-cows over 0-9")
    args = parser.parse_args()
    game = make_game("bulls-cows", length=args.length)
    answer_table(game)
    names = [name for name, cls in STRATEGIES.items() if not cls.randomized]
    small = make_game("bulls-cows", length=2)
    for name in names:  # compile or load every kernel before timing
        evaluate(make_strategy(name, small))
    print(f"{game}: {len(game.codes)} secrets; {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs")
    print(f"{'strategy':<18} {'median s':>9} {'min s':>7} {'mean guesses':>13}")
    for name in names:
        times = []
        for _ in range(args.repeats):
            started = time.perf_counter()
            result = evaluate(make_strategy(name, game))
            times.append(time.perf_counter() - started)
        print(f"{name:<18} {statistics.median(times):>9.3f} {min(times):>7.3f} {result.mean_guesses:>13.4f}")


if __name__ == "__main__":
    main()
