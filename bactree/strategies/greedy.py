"""One-step look-ahead rules scoring every guess's partition of the still-possible set, and the separator."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ..search import _greedy_kernels as kernels
from ..game import Game
from .base import SetStrategy
from .consistent import LeastFrequent


class Greedy(SetStrategy):
    """A one-step look-ahead: score every code's partition of the still-possible set.

    Every code of the game is a candidate guess (in hard mode only the
    still-possible ones); parts count the all-bulls answer too. Ties go to a
    still-possible code, then to the lowest code.
    """

    rule: ClassVar[int]
    tie_breaks = ("still-possible", "lowest-code")
    has_hard_variant = True

    def pick(self, possible: np.ndarray) -> int:
        return self._best_guess(possible, self.rule)[0]


class Knuth(Greedy):
    """Minimise the largest part: the worst case of the next answer.

    Knuth, "The computer as Master Mind", J. Recreational Math. 9 (1976-77),
    which wins Mastermind 4x6 in at most five guesses.
    """

    name = "knuth"
    rule = kernels.LARGEST_PART


class MostParts(Greedy):
    """Maximise the number of parts (distinct answers).

    Kooi, "Yet another Mastermind strategy", ICGA Journal 28 (2005).
    """

    name = "most-parts"
    rule = kernels.MOST_PARTS


class Entropy(Greedy):
    """Maximise the entropy of the answer: the expected information gained.

    Neuwirth, "Some strategies for Mastermind", Zeitschrift fuer Operations
    Research 26 (1982); Bestavros and Belal (1986).
    """

    name = "entropy"
    rule = kernels.ENTROPY


class ExpectedSize(Greedy):
    """Minimise the expected size of the part the answer leaves.

    Irving, "Towards an optimum Mastermind strategy", J. Recreational Math.
    11 (1978-79).
    """

    name = "expected-size"
    rule = kernels.EXPECTED_SIZE


class Separator(SetStrategy):
    """Guess a code that gives every still-possible secret its own answer, if one exists.

    Such a code (ties: still possible first, then lowest) ends the game on
    the next guess at the latest; without one, fall back to `least-frequent`.
    A human-style end-game rule written for bactree (issue 5).
    """

    name = "separator"
    tie_breaks = ("still-possible", "lowest-code")
    has_hard_variant = True

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self._fallback = LeastFrequent(game)

    def pick(self, possible: np.ndarray) -> int:
        if len(possible) <= len(self.game.answers):  # more secrets than answers: no separator
            best, score = self._best_guess(possible, kernels.MOST_PARTS)
            if -score == len(possible):
                return best
        return self._fallback.pick(possible)
