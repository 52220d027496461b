"""Rules that always guess a still-possible code: Shapiro's simple strategy and the least-frequent rule."""

from __future__ import annotations

import numpy as np

from ..game.codes import code_array
from ..game import Game
from .base import SetStrategy


class RandomConsistent(SetStrategy):
    """Uniformly among the still-possible codes.

    Shapiro's "simple strategy" (Playing Mastermind logically, SIGART
    Newsletter 85, 1983) with a random pick, as in Swaszek's study of the
    Mastermind novice (J. Recreational Math. 30, 1999-2000).
    """

    name = "random-consistent"
    randomized = True
    hard_mode = True

    def pick(self, possible: np.ndarray) -> int:
        return int(possible[self.rng.integers(len(possible))])


class FirstConsistent(SetStrategy):
    """The lowest still-possible code in lexicographic order.

    The deterministic "simple strategy" of Shapiro (1983): always play a
    code that could be the secret, taking the first one listed.
    """

    name = "first-consistent"
    hard_mode = True
    tie_breaks = ("lowest-code",)

    def pick(self, possible: np.ndarray) -> int:
        return int(possible[0])


class LeastFrequent(SetStrategy):
    """A pencil-and-paper rule: a still-possible code built from the rarest symbols.

    Count, for each symbol, the still-possible codes that contain it; then
    fill the positions left to right, each with the least frequent symbol
    (ties: the lowest) that still leads to some still-possible code. The
    result is always still possible, so every guess shrinks the set. A
    human-friendly heuristic written for bactree (issue 5).
    """

    name = "least-frequent"
    hard_mode = True
    tie_breaks = ("lowest-symbol",)

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self._codes = code_array(game)

    def pick(self, possible: np.ndarray) -> int:
        rows = self._codes[possible]
        present = np.zeros((len(rows), self.game.num_symbols), np.bool_)
        present[np.arange(len(rows))[:, None], rows] = True
        frequency = present.sum(axis=0)
        matching = np.arange(len(rows))
        for position in range(self.game.length):
            column = rows[matching, position]
            choices = np.unique(column)  # ascending, so argmin's first hit is the lowest symbol
            best = choices[np.argmin(frequency[choices])]
            matching = matching[column == best]
        return int(possible[matching[0]])
