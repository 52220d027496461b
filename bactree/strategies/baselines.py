"""The naive baselines every rule must beat: random guesses, enumeration, and a beginner's plan (cows-score)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..game.codes import code_array
from ..game import Game
from .base import BlindStrategy, InconsistentHistoryError, Strategy


class RandomGuess(BlindStrategy):
    """Any code uniformly at random, ignoring every answer, so guesses may repeat.

    The floor every rule must beat (N codes take N guesses on average); it
    can run forever, so the evaluator stops it at a cap.
    """

    name = "random"
    randomized = True
    endless = True

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self._draws: list[int] = []  # drawn in blocks: one generator call per guess is slow

    def guess_at(self, turn: int) -> int:
        if not self._draws:
            self._draws = self.rng.integers(len(self.game.codes), size=4096).tolist()
        return self._draws.pop()


class Enumerate(BlindStrategy):
    """Every code in lexicographic order until all bulls, ignoring every other answer.

    The brute-force baseline: the k-th code takes k guesses.
    """

    name = "enumerate"

    def guess_at(self, turn: int) -> int:
        return turn % len(self.game.codes)


@dataclass(frozen=True)
class _SeekFillers:
    """cows-score, phase 1: windows of `length` consecutive symbols of one ordering of the alphabet."""

    passes: int  # orderings tried before this one; the first is the alphabet itself
    order: tuple[int, ...]  # the part of this pass's ordering the guesses so far have shown
    window: int  # start (in the ordering) of the next window


@dataclass(frozen=True)
class _CountSymbols:
    """cows-score, phase 2: test the symbols one by one in alphabet order."""

    fillers: tuple[int, ...]  # symbols known to be absent
    symbol: int  # the next symbol to test
    found: tuple[int, ...]  # the secret's symbols found so far, with multiplicity


@dataclass(frozen=True)
class _Arrange:
    """cows-score, phase 3: the secret's symbols are known; shuffle them until all bulls."""

    found: tuple[int, ...]


class CowsScore(Strategy):
    """A beginner's three-phase plan that reads only the total bulls + cows until the end.

    1. Find `length` symbols that score 0B0C (fillers) by trying windows of
       consecutive symbols of the alphabet, cyclically; if no window scores
       0, reshuffle the alphabet and try its windows.
    2. Test the other symbols in alphabet order, each with fillers in the
       remaining places, until the totals add up to `length`.
    3. Guess random arrangements of those symbols until all bulls.

    With repeats a symbol is tested as a code of that symbol only, which
    counts its copies with no fillers, so phase 1 is skipped. Without repeats
    and with fewer than 2 x length symbols no fillers exist and phase 1 runs
    forever; phase 3 may too, so the evaluator caps it. A naive baseline
    written for bactree (issue 5), not a published strategy.
    """

    name = "cows-score"
    randomized = True
    endless = True

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self._k = game.num_symbols
        self._rows = code_array(game).tolist()
        self._index = {tuple(row): i for i, row in enumerate(self._rows)}
        self._uniforms: list[float] = []

    def _below(self, bound: int) -> int:
        """A uniform integer in [0, bound), from floats drawn in blocks (one generator call each is slow)."""
        if not self._uniforms:
            self._uniforms = self.rng.random(4096).tolist()
        return int(self._uniforms.pop() * bound)

    def start(self) -> _SeekFillers | _CountSymbols:
        if self.game.repeats:
            return _CountSymbols((), 0, ())
        return _SeekFillers(0, (), 0)

    def _code(self, symbols: Sequence[int]) -> int:
        return self._index[tuple(symbols)]

    def choose(self, state: _SeekFillers | _CountSymbols | _Arrange) -> int:
        n = self.game.length
        if isinstance(state, _SeekFillers):
            order = list(state.order)
            if state.passes == 0:
                order = list(range(self._k))
            while len(order) < min(self._k, state.window + n):
                # A random ordering, drawn one symbol at a time as the windows reach it.
                rest = [s for s in range(self._k) if s not in order]
                order.append(rest[self._below(len(rest))])
            return self._code([order[(state.window + j) % self._k] for j in range(n)])
        if isinstance(state, _CountSymbols):
            if state.symbol >= self._k:
                raise InconsistentHistoryError("the answers so far do not add up to a code")
            if self.game.repeats:
                return self._code([state.symbol] * n)
            return self._code([state.symbol, *state.fillers[: n - 1]])
        shuffled = list(state.found)
        for i in range(len(shuffled) - 1, 0, -1):  # Fisher-Yates
            j = self._below(i + 1)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        return self._code(shuffled)

    def advance(
        self, state: _SeekFillers | _CountSymbols | _Arrange, guess: int, answer: int
    ) -> _SeekFillers | _CountSymbols | _Arrange:
        n, k = self.game.length, self._k
        symbols = self._rows[guess]
        if isinstance(state, _SeekFillers):
            if answer == 0:
                return self._count(tuple(symbols), -1, ())
            # The window shows the next symbols of this pass's ordering (none once it wraps).
            shown = tuple(s for s in symbols if s not in state.order)
            order = state.order + shown[: max(0, min(k, state.window + n) - len(state.order))]
            if state.window + 1 == k:
                return _SeekFillers(state.passes + 1, (), 0)
            return _SeekFillers(state.passes, order, state.window + 1)
        if isinstance(state, _CountSymbols):
            bulls, cows = divmod(answer, n + 1)
            found = state.found + (state.symbol,) * (bulls + cows)
            if len(found) >= n:
                return _Arrange(found[:n])
            return self._count(state.fillers, state.symbol, found)
        return state

    def _count(self, fillers: tuple[int, ...], after: int, found: tuple[int, ...]) -> _CountSymbols:
        """Phase 2 testing the first symbol after `after` that is not a filler."""
        symbol = after + 1
        while symbol in fillers:
            symbol += 1
        return _CountSymbols(fillers, symbol, found)
