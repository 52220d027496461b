"""`analyse`: the secrets still possible after a history, the best next guesses and any named guess, valued exactly."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from ..compile_clock import Deadline
from ..game import BUILD_LIMIT, AnyAnswer, BactreeError, Game
from .engine import EXPECTED, OBJECTIVES, Engine, Value
from .position import Position, read_history
from .book import Book
from .tree_values import TreeValues

DEFAULT_TOP = 5
DEFAULT_SECONDS = 4.0  # the search time an analysis may take beyond what a shipped tree holds


@dataclass(frozen=True)
class GuessValue:
    """A guess and its value for the rest of the game, from `secrets` still possible.

    Expected: `lower`/`upper` bound the total guesses to find every secret,
    this guess included (equal when proven exact); worst-case: the least
    height. `upper` is None when only a lower bound is proven.
    """

    guess: str
    possible: bool
    lower: int
    upper: int | None
    secrets: int

    @property
    def exact(self) -> bool:
        return self.upper == self.lower

    @property
    def value(self) -> int | None:
        """The proven value, or None when only bounds are known."""
        return self.lower if self.exact else None

    def to_json(self) -> dict[str, Any]:
        return {"guess": self.guess, "possible": self.possible, "exact": self.exact, "lower": self.lower,
                "upper": self.upper}


@dataclass(frozen=True)
class Analysis:
    """What `analyse` found at a position: the secrets left, the best guesses, a named guess, and the loss of it."""

    game: Game
    pairs: tuple[tuple[str, AnyAnswer], ...]
    objective: str
    hard: bool
    secrets: tuple[str, ...]
    best: tuple[GuessValue, ...]
    guess: GuessValue | None
    optimum: GuessValue  # bounds on the best value any guess has here (exact once proven); its guess is the first best
    source: str  # "tree NAME", "book NAME" or "search"
    complete: bool  # every value proven exact within the time
    seconds: float  # counted against the time limit: from its start (tables included), compiling left out

    @property
    def loss(self) -> tuple[int, int | None] | None:
        """(least, most) of the named guess's value less the best value, proven; None without a named guess."""
        if self.guess is None:
            return None
        best = self.optimum
        lower = max(0, self.guess.lower - (best.upper if best.upper is not None else self.guess.lower))
        upper = None if self.guess.upper is None else self.guess.upper - best.lower
        return lower, upper

    def to_json(self) -> dict[str, Any]:
        loss = self.loss
        return {
            "game": {"length": self.game.length, "symbols": self.game.symbols, "repeats": self.game.repeats},
            "history": [[g, str(a)] for g, a in self.pairs],
            "objective": self.objective,
            "hard_mode": self.hard,
            "secrets": len(self.secrets),
            "best": [v.to_json() for v in self.best],
            "guess": None if self.guess is None else self.guess.to_json(),
            "loss": None if loss is None else {"lower": loss[0], "upper": loss[1]},
            "best_value": {"exact": self.optimum.exact, "lower": self.optimum.lower, "upper": self.optimum.upper},
            "source": self.source,
            "complete": self.complete,
        }


def check_seconds(seconds: float) -> None:
    """Refuse a negative (or NaN) time limit."""
    if not seconds >= 0:
        raise BactreeError(f"--seconds must be at least 0, got {seconds}")


def engine(game: Game, objective: str = EXPECTED, hard: bool = False, use_shipped: bool = True) -> Engine:
    """The engine of a game, objective and mode, kept so that later analyses reuse its memos (however the
    arguments are passed: `engine(game)` and `engine(game, EXPECTED, False, True)` are one engine)."""
    return _engine(game, objective, hard, use_shipped)


@lru_cache(maxsize=4)
def _engine(game: Game, objective: str, hard: bool, use_shipped: bool) -> Engine:
    if not use_shipped:
        return Engine(game, objective, hard)
    return Engine(game, objective, hard, TreeValues.shipped(game, hard, objective), Book.shipped(game, objective, hard))


def analyse(
    game: Game,
    history: Iterable[str | tuple[str, AnyAnswer | str]] = (),
    top: int = DEFAULT_TOP,
    guess: str | None = None,
    objective: str = EXPECTED,
    hard: bool = False,
    seconds: float = DEFAULT_SECONDS,
    use_shipped: bool = True,
) -> Analysis:
    """Analyse the position `history` reaches: the secrets left, the `top` best next guesses, and `guess` if named.

    `history` holds `GUESS=ANSWER` strings or (guess, answer) pairs. Values
    are exact where a shipped book holds the position (`top` at most its
    five), a shipped tree proven optimal for expected length holds them, or
    the exact search proves them within `seconds`; past that, proven
    bounds, marked as such. A shipped expected tree not proven optimal
    bounds its guesses' totals from above (its subtree's total) and the
    best total from below at the root (its file's bound). For the worst case
    a shipped worst-case tree bounds the least height from above (its
    subtree's height; exact at the root), which the search then need not reach. `use_shipped=False` searches
    alone, with no tree or book.
    With `hard`, every guess must be still possible (`guess` too).
    Raises `BactreeError` (one line, naming the entry at fault) for a bad history.
    """
    if objective not in OBJECTIVES:
        raise BactreeError(f"unknown objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    if top < 1:
        raise BactreeError(f"--top must be at least 1, got {top}")
    check_seconds(seconds)
    game.check_size(BUILD_LIMIT)  # the search's answer table: refused before the history is read
    deadline = Deadline(seconds)  # reading the history and the engine's tables count against `seconds`, as the search does
    position = read_history(game, history)
    return analyse_position(position, top, guess, objective, hard, deadline, engine(game, objective, hard, use_shipped))


def analyse_position(
    position: Position, top: int, guess: str | None, objective: str, hard: bool, seconds: float | Deadline,
    found: Engine,
) -> Analysis:
    """`analyse` of a checked position with a given engine (a review passes its own), searching `seconds` or
    until a `Deadline` already started; its `seconds` are those the limit counted (compiling left out)."""
    deadline = seconds if isinstance(seconds, Deadline) else Deadline(seconds)
    game = position.game
    if guess is not None:
        guess = game.parse_code(guess)
        if hard and guess not in position.secrets:
            raise BactreeError(f"hard mode: {guess} is not still possible, so it may not be guessed")
    ranking = found.rank(position.pairs, top, guess, deadline)
    possible = set(position.secrets)
    size = len(position.secrets)

    def valued(code: str, value: Value) -> GuessValue:
        return GuessValue(code, code in possible, value.lower, value.upper, size)

    best = tuple(valued(code, value) for code, value in ranking.best)
    named = None if guess is None else valued(guess, ranking.named)
    source = ranking.source or "search"
    complete = not ranking.timed_out and all(v.exact for v in best) and (named is None or named.exact)
    optimum = valued(best[0].guess, ranking.optimum)
    return Analysis(game, position.pairs, objective, hard, position.secrets, best, named, optimum, source, complete,
                    deadline.elapsed())
