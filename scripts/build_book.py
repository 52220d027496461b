"""Make a coach's book: the exact analysis of every position after one or two guesses, for `bactree analyse`.

Usage:
  python scripts/build_book.py [--game bulls-cows] [-n 4] [--symbols 0123456789] [--hard] [--guesses 2] [-o PATH]
  python scripts/build_book.py ... --check PATH [--every K]

Ranks every canonical position of one or two guesses (`--guesses 1`: one only; `bactree.coach.book`)
with the engine and no time limit, the best five guesses of distinct
classes each, and writes the book (default: bactree/coach/books/SLUG-expected.json),
atomically. Progress goes to stderr, one line a position; every 25
positions the book so far is saved as PATH.partial, which a later run
resumes from (and deletes once the book is written). The same engine and
inputs give the same bytes. `--check` ranks the positions of an
existing book again (every K-th with `--every`) and reports every entry
that differs; the exit status is 1 if any does.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


from bactree.coach.analysis import EXPECTED
from bactree.coach.book import BOOK_GUESSES, BOOK_TOP, Book, key_pairs, make_book, write_book
from bactree.coach.engine import Engine
from bactree.coach.tree_values import TreeValues
from bactree.game import BactreeError, game_slug, make_game

BOOKS = Path(__file__).resolve().parent.parent / "bactree" / "coach" / "books"


def check(engine: Engine, book: Book, every: int) -> int:
    """Rank every `every`-th position of `book` again; the number of entries that differ (each printed)."""
    differing = 0
    keys = sorted(book.positions)[::every]
    for number, key in enumerate(keys, 1):
        ranking = engine.rank(key_pairs(engine.game, key), BOOK_TOP, None, float("inf"))
        got = [[guess, value.lower] for guess, value in ranking.best]
        if got != book.positions[key]:
            differing += 1
            print(f"{key}: book {book.positions[key]}, search {got}", flush=True)
        print(f"{number}/{len(keys)} {key}", file=sys.stderr, flush=True)
    return differing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int)
    parser.add_argument("--symbols")
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--guesses", type=int, choices=(1, 2), default=BOOK_GUESSES,
                        help="positions after one, or one and two, guesses (Mastermind: 1)")
    parser.add_argument("-o", "--output", type=Path)
    parser.add_argument("--check", type=Path, help="a book to rank again and compare")
    parser.add_argument("--every", type=int, default=1, help="with --check: every K-th position only")
    args = parser.parse_args()
    try:
        game = make_game(args.game, args.length, args.symbols)
    except BactreeError as error:
        sys.exit(f"Error: {error}")
    # The tree gives the best value along its path; the book's entries are the search's either way.
    engine = Engine(game, EXPECTED, args.hard, TreeValues.shipped(game, args.hard, EXPECTED))
    began = time.process_time()
    if args.check:
        differing = check(engine, Book.read(args.check), args.every)
        print(f"{differing} entries differ ({time.process_time() - began:.0f} s CPU)")
        sys.exit(1 if differing else 0)
    output = args.output or BOOKS / f"{game_slug(game)}{'-hard' if args.hard else ''}-expected.json"
    partial = output.with_name(output.name + ".partial")
    done = Book.read(partial).positions if partial.exists() else None
    if done:
        print(f"resuming from {partial}: {len(done)} positions done", file=sys.stderr, flush=True)
    data = make_book(engine, lambda line: print(line, file=sys.stderr, flush=True), done,
                     lambda so_far: write_book(so_far, partial), guesses=args.guesses)
    write_book(data, output)
    partial.unlink(missing_ok=True)
    print(f"wrote {output}: {len(data['positions'])} positions, {time.process_time() - began:.0f} s CPU")


if __name__ == "__main__":
    main()
