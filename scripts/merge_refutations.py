"""Merge refutation stores of one game into one file, for a build to load (`bactree build --refutations FILE`).

Usage:
  python scripts/merge_refutations.py [--game mastermind] [-n 5] [--symbols 12345678] -o OUT IN [IN ...]

Each IN is checked as `RefutationStore.load` checks a store (its format,
game and digest; a bad file is refused in one line, exit 2) and its sets
are added unless an image of one is held already (the sets of a file of
other search code stay claims in OUT, apart from the refutations this
code made: `bactree.search.provenance`); OUT is written
atomically, in the order `RefutationStore.save` writes, so the same inputs
give the same bytes. OUT may be one of the inputs. Long least-height
decisions split over processes (`scripts/probe_height.py --store FILE
decide ...`, one store per process) meet here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bactree.game import BactreeError, make_game
from bactree.search import Solver


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int, default=None)
    parser.add_argument("--symbols", default=None)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("inputs", type=Path, nargs="+")
    args = parser.parse_args(argv)
    try:
        game = make_game(args.game, args.length, args.symbols)
        store = Solver(game).refutations
        for path in args.inputs:
            believed, claimed = store.load(path, game)
            print(f"{path}: {believed} refutation(s)" + (f", {claimed} claim(s) of other search code" if claimed else ""))
        store.save(args.output, game)
    except BactreeError as err:
        print(f"Error: {err}", file=sys.stderr)
        sys.exit(2)
    print(f"{args.output}: {len(store.entries())} refutation(s) of {game}")


if __name__ == "__main__":
    main()
