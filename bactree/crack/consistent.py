"""`best`: count the symbols, then ask only codes consistent with every answer so far.

Theory: Chvatal (1983) shows O(n log k / log n) questions suffice for n
positions and k symbols, because a question's answer carries up to log n
bits; Doerr, Doerr, Spoehel and Thomas (2012, "Playing Mastermind with
many colors") and Martinsson extend this to k >= n. A code consistent with
every answer is the natural way to get answers of high entropy: it is a
plausible secret, so each position is right with a fair probability and the
bulls vary. Asking such codes needs about 1.3 questions per position, close
to the counting bound, but finding one is a constraint problem. Here it is
solved by (a) constraint propagation over per-position candidate sets and
per-symbol counts (the counts come from one uniform question per symbol,
which is what cows add to black-peg methods: they make the counts exact
constraints), and (b) a min-conflicts simulated annealing over
count-preserving swaps, warm-started from the previous code. When the
annealer stops short of a consistent code it asks the closest code it found
(still informative), and a question budget hands over to the exact
`count-split` locator, so the cracker always ends with the secret and n bulls.
"""

from __future__ import annotations

import numpy as np

from ._kernels import _anneal, _propagate
from .count_split import count_symbols, locate
from .oracles import Oracle
from .result import CrackResult, Progress


def crack_consistent(
    oracle: Oracle,
    progress: Progress | None = None,
    seed: int = 0,
    max_moves: int = 20000,
    temperature: float = 0.4,
) -> CrackResult:
    """Crack the oracle's secret exactly by asking consistent codes."""
    puzzle = oracle.puzzle
    n, k = puzzle.length, puzzle.num_symbols
    counts = count_symbols(oracle)
    if oracle.solved:
        return CrackResult(np.full(n, int(np.argmax(counts)), dtype=np.int64), oracle.queries, True, 0)
    rng = np.random.default_rng(seed)
    allowed = np.ones((n, k), dtype=np.bool_)
    allowed[:, counts == 0] = False
    state = _Answers(n)
    x = rng.permutation(np.repeat(np.arange(k, dtype=np.int16), counts))
    asked: set[bytes] = set()
    budget = 6 * n + 2 * k + 50
    while True:
        if not _propagate(state.rows, state.bulls, state.size, allowed, counts):
            raise oracle.contradiction()
        fixed = allowed.sum(axis=1) == 1
        known = np.where(fixed, np.argmax(allowed, axis=1), -1).astype(np.int64)
        if progress:
            progress(oracle.queries, int(fixed.sum()))
        if oracle.queries >= budget:
            return locate(oracle, counts, known, progress)
        if fixed.all():
            bulls, _ = oracle.ask(known)
            if bulls != n:
                raise oracle.contradiction()
            return CrackResult(known, oracle.queries, True, 0)
        _agree_with_fixed(x, known)
        free = np.flatnonzero(~fixed).astype(np.int64)
        _anneal(
            state.rows, state.cols, state.bulls, state.size, allowed, x, free,
            max_moves, temperature, int(rng.integers(2**31)),
        )
        while x.tobytes() in asked:
            a, b = rng.choice(free, 2, replace=False)
            x[a], x[b] = x[b], x[a]
        asked.add(x.tobytes())
        guess = x.astype(np.int64)
        bulls, _ = oracle.ask(guess)
        if oracle.solved:
            return CrackResult(guess, oracle.queries, True, 0)
        state.add(x, bulls)


def _agree_with_fixed(x: np.ndarray, known: np.ndarray) -> None:
    """Swap symbols of `x` so fixed positions hold their symbol; counts are kept."""
    for i in np.flatnonzero((known >= 0) & (x != known)):
        want = known[i]
        donors = np.flatnonzero((x == want) & (known != want))
        j = donors[0]
        x[i], x[j] = x[j], x[i]


class _Answers:
    """The positional questions so far, as rows and columns for the kernels, grown by doubling."""

    def __init__(self, n: int) -> None:
        self.size = 0
        self.rows = np.zeros((64, n), dtype=np.int16)
        self.cols = np.zeros((n, 64), dtype=np.int16)
        self.bulls = np.zeros(64, dtype=np.int64)

    def add(self, guess: np.ndarray, bulls: int) -> None:
        if self.size == len(self.bulls):
            grow = 2 * self.size
            self.rows = np.concatenate([self.rows, np.zeros_like(self.rows)])
            self.cols = np.ascontiguousarray(self.rows.T)
            self.bulls = np.concatenate([self.bulls, np.zeros(grow - self.size, dtype=np.int64)])
        self.rows[self.size] = guess
        self.cols[:, self.size] = guess
        self.bulls[self.size] = bulls
        self.size += 1
