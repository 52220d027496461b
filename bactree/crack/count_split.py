"""`count-split`: the simple exact baseline (count each symbol, then split position sets).

One question per symbol (all positions that symbol) counts it. Then each
symbol's positions are found by halving position sets whose count of it is
known, the other positions holding a filler whose contribution is known: a
symbol absent from the positions still unknown. When every symbol occurs
(the usual case at n = 300, k = 37) the two rarest symbols s, z are located
together first: with z everywhere except s on a set P the answer is
c_z + s(P) - z(P), and halving sets by that signed count finds both; z is
then a filler of known contribution. This is the textbook adaptive group
testing approach; see e.g. Goodrich, "On the algorithmic complexity of the
Mastermind game with black-peg results" (2009), for its use in Mastermind.
"""

from __future__ import annotations

import numpy as np

from .oracles import Oracle
from .result import CrackResult, Progress


def crack_count_split(oracle: Oracle, progress: Progress | None = None) -> CrackResult:
    """Crack the oracle's secret exactly: counting, then splitting."""
    counts = count_symbols(oracle)
    if oracle.solved:
        return _solved_by_last_uniform(oracle, counts)
    known = np.full(oracle.puzzle.length, -1, dtype=np.int64)
    return locate(oracle, counts, known, progress)


def count_symbols(oracle: Oracle) -> np.ndarray:
    """How often each symbol occurs in the secret: one uniform question per symbol.

    The last symbol's count is what remains; counting stops once the counts
    reach n. Without repeats and with k = n every count is 1 and nothing is asked.
    """
    puzzle = oracle.puzzle
    n, k = puzzle.length, puzzle.num_symbols
    if not puzzle.repeats and k == n:
        return np.ones(k, dtype=np.int64)
    counts = np.zeros(k, dtype=np.int64)
    for symbol in range(k):
        remaining = n - int(counts.sum())
        if remaining == 0:
            break
        if symbol == k - 1:
            counts[symbol] = remaining
            break
        counts[symbol], _ = oracle.ask(np.full(n, symbol, dtype=np.int64))
        if oracle.solved:
            break
    if int(counts.sum()) != n or (not puzzle.repeats and counts.max() > 1):
        raise oracle.contradiction()
    return counts


def _solved_by_last_uniform(oracle: Oracle, counts: np.ndarray) -> CrackResult:
    """The secret was one symbol repeated n times and the counting question found it."""
    found = np.full(oracle.puzzle.length, int(np.argmax(counts)), dtype=np.int64)
    return CrackResult(found, oracle.queries, True, 0)


def locate(
    oracle: Oracle, counts: np.ndarray, known: np.ndarray, progress: Progress | None = None
) -> CrackResult:
    """Find the symbols of the positions where `known` is -1, given every symbol's count.

    Ends with the secret itself as the last question (n bulls).
    """
    known = known.copy()
    remaining = counts - np.bincount(known[known >= 0], minlength=len(counts))
    if remaining.min() < 0:
        raise oracle.contradiction()
    locator = _Locator(oracle, known, remaining, progress)
    try:
        locator.run()
    except _Guessed as hit:  # a splitting question happened to be the secret
        return CrackResult(hit.code, oracle.queries, True, 0)
    bulls, _ = oracle.ask(locator.known)
    if bulls != oracle.puzzle.length:
        raise oracle.contradiction()
    return CrackResult(locator.known, oracle.queries, True, 0)


class _Guessed(Exception):
    """A question got n bulls: the search is over."""

    def __init__(self, code: np.ndarray) -> None:
        super().__init__()
        self.code = code


class _Locator:
    """The splitting phase's state: known positions and each symbol's count among the rest."""

    def __init__(self, oracle: Oracle, known: np.ndarray, remaining: np.ndarray, progress: Progress | None) -> None:
        self.oracle = oracle
        self.known = known
        self.remaining = remaining
        self.progress = progress
        self.filler = -1

    def run(self) -> None:
        order = np.argsort(self.remaining, kind="stable")
        absent = [int(s) for s in order if self.remaining[s] == 0]
        present = [int(s) for s in order if self.remaining[s] > 0]
        if len(present) <= 1:
            self._assign_rest()
            return
        if absent:
            self.filler = absent[0]
        else:
            first, second = present[0], present[1]
            self._locate_pair(first, second)
            self.filler = second
            present = present[2:]
        # The most frequent symbol goes last: it takes the positions left, unasked.
        for symbol in present[:-1]:
            self._locate_symbol(symbol)
        self._assign_rest()

    def _unknown(self) -> np.ndarray:
        return np.flatnonzero(self.known < 0)

    def _assign_rest(self) -> None:
        unknown = self._unknown()
        left = np.flatnonzero(self.remaining > 0)
        if len(unknown) == 0:
            return
        if len(left) != 1 or self.remaining[left[0]] != len(unknown):
            raise self.oracle.contradiction()
        self._set(unknown, int(left[0]))

    def _set(self, positions: np.ndarray, symbol: int) -> None:
        self.known[positions] = symbol
        self.remaining[symbol] -= len(positions)
        if self.remaining[symbol] < 0:
            raise self.oracle.contradiction()
        if self.progress:
            self.progress(self.oracle.queries, int(np.count_nonzero(self.known >= 0)))

    def _ask_on(self, positions: np.ndarray, symbol: int, elsewhere: int) -> int:
        """Bulls of: `symbol` on `positions`, known symbols where known, `elsewhere` on the rest."""
        guess = np.where(self.known >= 0, self.known, elsewhere)
        guess[positions] = symbol
        bulls, _ = self.oracle.ask(guess)
        if self.oracle.solved:
            raise _Guessed(guess)
        return bulls - int(np.count_nonzero(self.known >= 0))

    def _locate_symbol(self, symbol: int) -> None:
        """Halve position sets by their known count of `symbol` (filler elsewhere)."""
        stack = [(self._unknown(), int(self.remaining[symbol]))]
        while stack:
            positions, hits = stack.pop()
            if hits < 0 or hits > len(positions):
                raise self.oracle.contradiction()
            if hits == 0:
                continue
            if hits == len(positions):
                self._set(positions, symbol)
                continue
            half = positions[: len(positions) // 2]
            first = self._ask_on(half, symbol, self.filler)
            stack.append((positions[len(half) :], hits - first))
            stack.append((half, first))

    def _locate_pair(self, plus: int, minus: int) -> None:
        """Locate two symbols at once without a filler: `minus` everywhere, `plus` on a set P.

        Such a question measures plus(P) - minus(P) (minus's count known). Sets
        with a non-zero difference are halved first; sets with difference 0
        only while some of the two symbols are still unplaced.
        """
        pending = [(self._unknown(), int(self.remaining[plus] - self.remaining[minus]))]
        zero_sets: list[tuple[np.ndarray, int]] = []
        while self.remaining[plus] > 0 or self.remaining[minus] > 0:
            if pending:
                positions, diff = pending.pop()
            elif zero_sets:
                positions, diff = zero_sets.pop()
            else:
                raise self.oracle.contradiction()
            size = len(positions)
            if abs(diff) > size:
                raise self.oracle.contradiction()
            if size == 1:
                if diff:
                    self._set(positions, plus if diff > 0 else minus)
                continue
            if diff == size or diff == -size:
                self._set(positions, plus if diff > 0 else minus)
                continue
            if diff == 0 and self.remaining[plus] == 0:
                continue  # only a minus left: plus(P) = 0 so minus(P) = 0 too
            if diff == 0 and self.remaining[minus] == 0:
                continue
            half = positions[: size // 2]
            first = self._ask_on(half, plus, minus) - int(self.remaining[minus])
            for part, value in ((positions[size // 2 :], diff - first), (half, first)):
                (pending if value else zero_sets).append((part, value))
