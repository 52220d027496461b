"""A book: the exact analyses of every position after one or two guesses, made in advance by the search and shipped.

Early positions of the larger games hold hundreds of secrets, and proving
the best few guesses there takes the exact search seconds (4 of 10 after
two guesses: up to about 8 s of CPU). A book goes one or two guesses deep
(`guesses`): two for 4 of 10 (313 positions after one or two guesses),
one for Mastermind, whose positions after two guesses number in the
thousands. A book holds those analyses, made by
the same engine with no time limit (`make_book`, run by
`scripts/build_book.py`), so `analyse` answers them at once. Positions are
stored up to symmetry: each under its canonical history, where every guess
is the least code of its class given the guesses before it, and found
again by carrying the caller's history there (`carrying`), as positions
are carried onto a tree's path. An entry lists the best `top` guesses of
distinct classes, least total first, with their exact totals.

Pure Python plus orjson: reading a book needs no search.
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import orjson

from ..game import Game
from ..treefile import game_to_json, write_atomic
from .position import Pair
from .symmetry import Symmetry, carrying, least_image

BOOK_FORMAT = "bactree-book"
BOOK_VERSION = 1
BOOK_TOP = 5  # guesses an entry lists
BOOK_GUESSES = 2  # positions after this many guesses at most, unless a book says fewer


@dataclass(frozen=True)
class InBook:
    """Where a position lies in a book: the symmetry carrying it there, the canonical pairs, and the entry's list."""

    symmetry: Symmetry
    pairs: tuple[Pair, ...]
    best: tuple[tuple[str, int], ...]  # (guess, exact total), least first, in the canonical position's codes


def canonical_pairs(game: Game, pairs: tuple[Pair, ...]) -> tuple[Symmetry, tuple[Pair, ...]] | None:
    """(a symmetry, the canonical history it carries `pairs` to): each guess the least of its class given those before."""
    targets: list[str] = []
    for guess, _ in pairs:
        carried = carrying(game, [g for g, _ in pairs[: len(targets)]], targets)
        if carried is None:
            return None
        targets.append(least_image(game, carried(guess), targets))
    symmetry = carrying(game, [g for g, _ in pairs], targets)
    if symmetry is None:
        return None
    return symmetry, tuple(zip(targets, (answer for _, answer in pairs)))


def position_key(pairs: tuple[Pair, ...]) -> str:
    """The text an entry is filed under: `GUESS=ANSWER` entries, space-separated."""
    return " ".join(f"{guess}={answer}" for guess, answer in pairs)


def key_pairs(game: Game, key: str) -> tuple[Pair, ...]:
    """The pairs an entry's key names: `position_key` read back."""
    return tuple((guess, game.parse_answer(answer)) for guess, _, answer in (entry.partition("=") for entry in key.split()))


class Book:
    """The entries of one game, objective and mode, and where positions lie in it."""

    def __init__(self, data: dict[str, Any], name: str) -> None:
        self.name = name
        self.game = Game(int(data["game"]["length"]), str(data["game"]["symbols"]), bool(data["game"]["repeats"]))
        self.objective = str(data["objective"])
        self.hard = bool(data["hard_mode"])
        self.top = int(data["top"])
        self.guesses = int(data["guesses"])  # the positions are those after 1 to this many guesses
        self.positions: dict[str, list[list[Any]]] = data["positions"]

    @classmethod
    def read(cls, path: Path) -> Book:
        data = orjson.loads(path.read_bytes())
        if data.get("format") != BOOK_FORMAT or data.get("version") != BOOK_VERSION:
            raise ValueError(f"{path}: not a bactree book of version {BOOK_VERSION}")
        return cls(data, path.name)

    @classmethod
    def shipped(cls, game: Game, objective: str, hard: bool) -> Book | None:
        """The shipped book of this game, objective and mode, or None."""
        folder = Path(str(importlib.resources.files(__package__).joinpath("books")))
        for path in sorted(folder.glob("*.json")):
            book = cls.read(path)
            if book.game == game and book.objective == objective and book.hard == hard:
                return book
        return None

    def locate(self, pairs: tuple[Pair, ...]) -> InBook | None:
        """The entry of this position up to symmetry; None when the book does not hold it."""
        if not 1 <= len(pairs) <= self.guesses:
            return None
        found = canonical_pairs(self.game, pairs)
        if found is None:
            return None
        symmetry, canonical = found
        entry = self.positions.get(position_key(canonical))
        if entry is None:
            return None
        return InBook(symmetry, canonical, tuple((str(guess), int(total)) for guess, total in entry))


def book_positions(game: Game, solver, guesses: int = BOOK_GUESSES) -> list[tuple[Pair, ...]]:
    """Every canonical history of one to `guesses` (1 or 2) guesses that some secret fits and does not end, in order.

    `solver` (a `bactree.search.Solver` of the game) splits the secrets and
    lists the least guess of each class given the guesses before.
    """
    codes, positions = game.codes, []
    for first in solver.canonical_guesses(()).tolist():
        for part in solver.split(solver.secrets, first):
            pairs = ((codes[first], solver.answer_to(first, part)),)
            positions.append(pairs)
            if guesses < 2:
                continue
            for second in solver.canonical_guesses((first,)).tolist():
                for rest in solver.split(part, second):
                    positions.append(pairs + ((codes[second], solver.answer_to(second, rest)),))
    return positions


def make_book(
    engine, progress: Callable[[str], None] | None = None, done: dict[str, list[list[Any]]] | None = None,
    checkpoint: Callable[[dict[str, Any]], None] | None = None, every: int = 25, guesses: int = BOOK_GUESSES,
) -> dict[str, Any]:
    """A book of `engine`'s game, objective and mode: every `book_positions` entry (up to `guesses` deep) ranked with
    no time limit.

    `engine` is a `bactree.coach.engine.Engine` without a book (its memos
    carry over from position to position). Entries in `done` (an earlier
    run's) are kept as they are; `checkpoint` receives the book so far
    after every `every` positions ranked, so a long run can resume.
    """
    game = engine.game
    positions = book_positions(game, engine.solver, guesses)
    entries: dict[str, list[list[Any]]] = {}
    ranked = 0
    for number, pairs in enumerate(positions, 1):
        key = position_key(pairs)
        if done and key in done:
            entries[key] = done[key]
            continue
        ranking = engine.rank(pairs, BOOK_TOP, None, float("inf"))
        if ranking.timed_out or not all(value.exact for _, value in ranking.best):
            raise RuntimeError(f"{key}: not every value was proven")
        entries[key] = [[guess, value.lower] for guess, value in ranking.best]
        ranked += 1
        if progress is not None:
            progress(f"{number}/{len(positions)} {key}: {ranking.best[0][0]} {ranking.best[0][1].lower}")
        if checkpoint is not None and ranked % every == 0:
            checkpoint(_book_data(engine, entries, guesses))
    return _book_data(engine, entries, guesses)


def _book_data(engine, entries: dict[str, list[list[Any]]], guesses: int) -> dict[str, Any]:
    game = engine.game
    return {
        "format": BOOK_FORMAT,
        "version": BOOK_VERSION,
        "game": game_to_json(game),
        "objective": engine.objective,
        "hard_mode": engine.hard,
        "top": BOOK_TOP,
        "guesses": guesses,
        "positions": entries,
    }


def write_book(data: dict[str, Any], path: Path) -> None:
    """Write a book atomically (`write_atomic`), one entry a line so that a change to a book reads as a diff."""
    head = orjson.dumps({key: value for key, value in data.items() if key != "positions"})[:-1]
    items = list(data["positions"].items())
    lines = [head + b', "positions": {']
    for i, (key, entry) in enumerate(items):
        lines.append(b"  " + orjson.dumps(key) + b": " + orjson.dumps(entry) + (b"," if i + 1 < len(items) else b""))
    lines.append(b"}}\n")
    write_atomic(path, b"\n".join(lines))
