"""A budgeted least-total build with more parts bounded two guesses deep: a higher proven lower bound for more CPU.

Usage: python scripts/bound_calls.py [--game bulls-cows] [-n 5] [--symbols 012345678] --budget B [--calls C]
                                     [--greedy entropy] [-o FILE]

`bactree build -O expected --budget B` keeps the greedy rule's guess
where the exact search runs past its budget, and proves a lower bound for
each such set: the least, over every guess, of its cost plus a bound of
its parts. The guesses other than the kept one get one guess of
lookahead below each part, and their large parts one guess more, up to
`refine.DEEPER_CALLS` (100) parts per set (`others_bound`): on the large
sets of 5 of 9 those run out within the first few guesses, and the rest
keep one guess of lookahead, which holds the bound down (see
docs/notes/bounds-5x9.md). This runs the same build in one process with
`--calls C` parts per set instead, and prints the tree's total and its
proven bound; with `-o` it writes the tree file, as `bactree build -o`
would. The tree may differ from the build's with 100 calls (the deeper
bounds fill the memo that later budgeted searches read), and every
figure it prints is proven the same way. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time

from bactree.build import build
from bactree.game import BactreeError, make_game
from bactree.treefile import dumps, write_atomic

refine = importlib.import_module("bactree.search.refine")  # the module: `bactree.search.refine` names its function


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int, default=None)
    parser.add_argument("--symbols", default=None)
    parser.add_argument("--budget", type=int, required=True)
    parser.add_argument("--calls", type=int, default=refine.DEEPER_CALLS,
                        help=f"parts bounded two guesses deep per set (default {refine.DEEPER_CALLS}, the build's)")
    parser.add_argument("--greedy", default="bound", choices=("bound", "entropy"))
    parser.add_argument("-o", "--output", default=None, help="write the tree file here")
    args = parser.parse_args(argv)
    try:
        game = make_game(args.game, args.length, args.symbols)
    except BactreeError as error:
        sys.exit(f"Error: {error}")
    began = time.process_time()
    default, refine.DEEPER_CALLS = refine.DEEPER_CALLS, args.calls
    try:
        result = build(game, "expected", budget=args.budget, greedy=args.greedy, workers=1,
                       progress=lambda line: print(line, file=sys.stderr, flush=True))
    finally:
        refine.DEEPER_CALLS = default
    stats = result.document["stats"]
    bound = stats.get("lower_bound", stats["total_guesses"])
    print(f"budget {args.budget}, {args.calls} calls: total {stats['total_guesses']}, at least {bound} proven; "
          f"{time.process_time() - began:.1f}s CPU", flush=True)
    if args.output:
        write_atomic(args.output, dumps(result.document))


if __name__ == "__main__":
    main()
