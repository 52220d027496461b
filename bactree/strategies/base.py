"""The strategies' base classes: the state-machine contract, blind rules, and rules over the still-possible set.

See `bactree.strategies` for the contract every strategy keeps.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Sequence

import numpy as np

from ..search import _greedy_kernels as kernels
from ..game.codes import answer_table, encode_answer, num_slots
from ..game import BUILD_LIMIT, Answer, BactreeError, Game


class UnknownStrategyError(BactreeError):
    """A strategy name that is neither in the registry nor a tree file."""


class InconsistentHistoryError(BactreeError):
    """A history that the strategy cannot continue (no code fits it, or the game is over)."""


class Strategy(ABC):
    """Picks guesses; see the module docstring for the state-machine contract."""

    name: str = ""
    randomized: ClassVar[bool] = False
    #: May never solve some secrets, so the evaluator stops it at a cap.
    endless: ClassVar[bool] = False
    #: Every guess is still possible, as in the tree format's `hard_mode`.
    hard_mode: bool = False
    #: `make_strategy(..., hard=True)` can restrict the rule to still-possible guesses.
    has_hard_variant: ClassVar[bool] = False
    #: How the rule breaks ties, recorded in compiled tree files.
    tie_breaks: ClassVar[tuple[str, ...]] = ()
    #: A tree file proven optimal for its objective (see `TreeStrategy`).
    optimal: bool = False

    def __init__(self, game: Game, seed: int | None = None) -> None:
        game.check_size(BUILD_LIMIT)  # every strategy scores through the answer table
        self.game = game
        self.rng = np.random.default_rng(seed)

    @abstractmethod
    def start(self) -> Any:
        """The state before the first guess."""

    @abstractmethod
    def choose(self, state: Any) -> int:
        """The next guess (a code index) in `state`; the only place randomness is drawn."""

    @abstractmethod
    def advance(self, state: Any, guess: int, answer: int) -> Any:
        """The state after `guess` got the encoded `answer` (never the all-bulls one)."""

    def next_guess(self, history: Sequence[tuple[str, Answer]] = ()) -> str:
        """The guess to make after `history`, a sequence of (guess, answer) pairs.

        The guesses should be this strategy's own: a history-driven rule
        (`cows-score`, a tree file) follows its plan from what they show.
        """
        game = self.game
        state = self.start()
        for text, answer in history:
            guess = game.parse_code(text)
            game.check_answer(answer)
            if answer == game.solved:
                raise InconsistentHistoryError(f"the game is over: {guess} got {answer}")
            state = self.advance(state, game.code_index[guess], encode_answer(game, answer))
        return game.codes[self.choose(state)]


class BlindStrategy(Strategy):
    """A strategy that never looks at answers: its state is the number of guesses made."""

    def start(self) -> int:
        return 0

    def choose(self, state: int) -> int:
        return self.guess_at(state)

    def advance(self, state: int, guess: int, answer: int) -> int:
        return state + 1

    @abstractmethod
    def guess_at(self, turn: int) -> int:
        """The guess made after `turn` earlier guesses."""


class SetStrategy(Strategy):
    """A strategy whose guess depends only on the still-possible codes, which are its state.

    The state is the ascending array of still-possible code indices.
    Deterministic picks are cached by that set, so a position reached again
    (by `next_guess`, or a second walk of the tree) costs a dictionary look-up.
    """

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self._table = answer_table(game)
        self._picks: dict[bytes, int] = {}

    def start(self) -> np.ndarray:
        return np.arange(len(self.game.codes), dtype=np.int64)

    def advance(self, state: np.ndarray, guess: int, answer: int) -> np.ndarray:
        return state[self._table[guess, state] == answer]

    def choose(self, state: np.ndarray) -> int:
        if len(state) == 0:
            raise InconsistentHistoryError("no code is consistent with every answer so far")
        if self.randomized:
            return self.pick(state)
        key = state.tobytes()
        if key not in self._picks:
            self._picks[key] = self.pick(state)
        return self._picks[key]

    @abstractmethod
    def pick(self, possible: np.ndarray) -> int:
        """The guess for the still-possible codes `possible` (ascending, never empty)."""

    def _candidate_mask(self, possible: np.ndarray) -> np.ndarray:
        mask = np.zeros(len(self.game.codes), np.bool_)
        mask[possible] = True
        return mask

    def _best_guess(self, possible: np.ndarray, rule: int) -> tuple[int, float]:
        """(guess, score) of the best score under `rule`; ties: still possible, then lowest.

        Every code is a candidate, or in hard mode only the still-possible ones.
        """
        if self.hard_mode:
            scores = kernels._partition_scores(self._table[possible], possible, num_slots(self.game), rule)
            best = int(kernels._pick_best(scores, np.ones(len(possible), np.bool_)))
            return int(possible[best]), float(scores[best])
        scores = kernels._partition_scores(self._table, possible, num_slots(self.game), rule)
        best = int(kernels._pick_best(scores, self._candidate_mask(possible)))
        return best, float(scores[best])
