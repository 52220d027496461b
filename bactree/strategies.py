"""The strategy zoo: rules that pick the next guess, from naive baselines to greedy search.

Every strategy is a small state machine over code indices (positions in
`game.codes`) and encoded answers (`bulls * (length + 1) + cows`):
`start()` is the state before the first guess, `choose(state)` the next
guess, `advance(state, guess, answer)` the state after an answer.
`advance` never draws random numbers, so a state is a function of the
history alone: `next_guess(history)` is well defined, and the evaluator
(`bactree.evaluate`) can fork states to walk a whole decision tree, one
`choose` per node. Randomised strategies draw only in `choose`, from the
generator seeded at construction.

`make_strategy(name, game, seed)` finds a strategy by name, or loads a tree
file given as `tree:FILE` or as a path ending in `.json`.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Sequence

import numpy as np

from . import _strategy_kernels as kernels
from .codes import answer_table, code_array, decode_answer, encode_answer, num_slots
from .game import BUILD_LIMIT, Answer, BactreeError, Game
from .treefile import Node, check_document, check_header, read_document


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


class TreeStrategy(Strategy):
    """Follow a tree file (format `bactree-tree`), e.g. an optimal tree from `trees/`.

    The file is fully verified on loading; its state is the current node.
    """

    def __init__(self, game: Game, path: str | os.PathLike[str], seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.path = Path(path)
        doc = read_document(self.path)
        tree_game = check_header(doc, str(self.path))
        if tree_game != game:
            raise BactreeError(f"tree file {str(self.path)!r} is for {tree_game}, not {game}")
        check_document(doc, str(self.path))
        self.name = f"tree:{self.path.stem}"
        self.optimal = doc["optimal"]
        self.root: Node = doc["root"]

    def start(self) -> Node:
        return self.root

    def choose(self, state: Node) -> int:
        return self.game.code_index[state["guess"]]

    def advance(self, state: Node, guess: int, answer: int) -> Node:
        key = str(decode_answer(self.game, answer))
        child = state.get("next", {}).get(key) if state["guess"] == self.game.codes[guess] else None
        if child is None:
            raise InconsistentHistoryError(
                f"{self.name}: the tree does not continue after {self.game.codes[guess]} got {key}"
            )
        return child


STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls
    for cls in (
        RandomGuess,
        Enumerate,
        CowsScore,
        RandomConsistent,
        FirstConsistent,
        LeastFrequent,
        Separator,
        Knuth,
        MostParts,
        Entropy,
        ExpectedSize,
    )
}


def make_strategy(spec: str, game: Game, seed: int | None = None, hard: bool = False) -> Strategy:
    """The strategy named `spec` for `game`, or the tree file `tree:FILE` / `FILE.json`.

    With `hard`, a rule that may guess any code (the greedy rules, separator)
    guesses only still-possible codes, and is named `NAME-hard`; rules that
    already do are unchanged, and the others are refused.
    """
    if hard:
        strategy = make_strategy(spec, game, seed)
        if strategy.hard_mode:
            return strategy
        if not strategy.has_hard_variant:
            raise BactreeError(f"strategy {spec!r} has no hard-mode variant (hard mode suits rules that pick among codes)")
        strategy.hard_mode = True
        strategy.name = f"{strategy.name}-hard"
        return strategy
    if spec.startswith("tree:"):
        return TreeStrategy(game, spec.removeprefix("tree:"), seed)
    if spec.endswith(".json"):
        return TreeStrategy(game, spec, seed)
    try:
        cls = STRATEGIES[spec]
    except KeyError:
        names = ", ".join(STRATEGIES)
        raise UnknownStrategyError(
            f"unknown strategy {spec!r}: choose one of {names}, or a tree file (tree:FILE)"
        ) from None
    return cls(game, seed)
