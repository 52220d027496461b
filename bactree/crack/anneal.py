"""`anneal`: ask codes that (nearly) fit every answer so far, found by simulated annealing.

After counting the symbols (as count-split does), every question is a code
with the secret's symbol counts that violates the earlier answers as little
as an annealer over count-preserving swaps can make it (see
`_anneal_kernels`). Asking codes consistent with all answers is the classic
Mastermind strategy (Knuth 1977 and Berghman, Goossens and Leus, "Efficient
solutions for Mastermind using genetic algorithms", 2009, who also ask the
least-violating code when no consistent one is found in time). Its answers
test every uncertain position at once, so each carries several bits, where a
splitting question carries about one.

It works up to about 60 positions: there it finds fitting codes nearly
every time and needs about half count-split's questions. On longer keys the
annealer gets trapped near the secret (93 of 100 positions right, the last
few never fixed) and the question count explodes; asking windows of 25 to
50 positions against a filler did not cure that (see README). `best` uses it
up to `ANNEAL_MAX_LENGTH` positions.

The method has no proof of termination, so after `question_limit`
questions it falls back to count-split's locating phase, which is exact:
every key is still found, with the secret itself as the last question.
"""

from __future__ import annotations

import numpy as np

from ._anneal_kernels import anneal, thread_question
from .count_split import count_symbols, locate
from .oracles import Oracle
from .result import CrackResult, Progress

ANNEAL_MAX_LENGTH = 60  # `best` anneals keys up to this length, and splits longer ones
MOVES = 30_000  # annealing moves per question
TEMPERATURE = 1.2  # Metropolis temperature, in units of one bull of violation
STALL = 15  # questions without a better best guess, 7/8 right, before settling it (when a symbol is absent)


def question_limit(length: int, num_symbols: int) -> int:
    """Questions after which the annealer gives way to count-split (about twice what it needs)."""
    return 4 * length + 2 * num_symbols + 50


def crack_anneal(oracle: Oracle, progress: Progress | None = None, seed: int = 0) -> CrackResult:
    """Crack the oracle's secret exactly: counting, then annealed near-consistent questions."""
    puzzle = oracle.puzzle
    n, k = puzzle.length, puzzle.num_symbols
    counts = count_symbols(oracle)
    if oracle.solved:
        return CrackResult(np.full(n, int(np.argmax(counts)), dtype=np.int64), oracle.queries, True, 0)
    rng = np.random.default_rng(seed)
    candidate = rng.permutation(np.repeat(np.arange(k), counts))
    asked = _Questions(n, k)
    limit = question_limit(n, k)
    absent = np.flatnonzero(counts == 0)
    best, best_bulls, since_best, restarts = candidate.copy(), -1, 0, 0
    while oracle.queries < limit and restarts < 10:
        if len(absent) and since_best >= STALL and best_bulls >= n - n // 8:
            return settle(oracle, best, best_bulls, int(absent[0]), counts, progress)
        anneal(
            candidate, asked.guesses, asked.answers, asked.count, asked.head, asked.next,
            k, MOVES, TEMPERATURE, seed * 1_000_003 + oracle.queries,
        )
        if asked.seen(candidate):  # stuck on an asked code: start the annealer afresh
            rng.shuffle(candidate)
            restarts += 1
            continue
        restarts = 0
        guess = candidate.copy()
        bulls, _ = oracle.ask(guess)
        if oracle.solved:
            return CrackResult(guess, oracle.queries, True, 0)
        asked.add(guess, bulls)
        since_best += 1
        if bulls > best_bulls:
            best, best_bulls, since_best = guess, bulls, 0
        if progress:
            progress(oracle.queries, best_bulls)
    if len(absent):
        return settle(oracle, best, best_bulls, int(absent[0]), counts, progress)
    return locate(oracle, counts, np.full(n, -1, dtype=np.int64), progress)


def settle(
    oracle: Oracle, guess: np.ndarray, bulls: int, filler: int, counts: np.ndarray, progress: Progress | None
) -> CrackResult:
    """Find which positions of an asked guess are right, then locate the others with count-split.

    `filler` is a symbol the secret lacks: a question holding the guess on a
    set P and the filler elsewhere gets exactly the guess's right positions
    in P as bulls, so halving sets with a known number right finds them all.
    """
    n = oracle.puzzle.length
    known = np.full(n, -1, dtype=np.int64)
    stack = [(np.arange(n), bulls)]
    while stack:
        positions, right = stack.pop()
        if right < 0 or right > len(positions):
            raise oracle.contradiction()
        if right in (0, len(positions)):
            known[positions[:right]] = guess[positions[:right]]
            continue
        half = positions[: len(positions) // 2]
        probe = np.full(n, filler, dtype=np.int64)
        probe[half] = guess[half]
        first, _ = oracle.ask(probe)
        stack.append((positions[len(half) :], right - first))
        stack.append((half, first))
    if progress:
        progress(oracle.queries, int(np.count_nonzero(known >= 0)))
    return locate(oracle, counts, known, progress)


class _Questions:
    """The questions asked after counting and their bulls, threaded for the annealer."""

    def __init__(self, length: int, num_symbols: int) -> None:
        self.count = 0
        self.guesses = np.zeros((64, length), dtype=np.int64)
        self.answers = np.zeros(64, dtype=np.int64)
        self.head = np.full((length, num_symbols), -1, dtype=np.int64)
        self.next = np.full((64, length), -1, dtype=np.int64)
        self._seen: set[bytes] = set()

    def seen(self, guess: np.ndarray) -> bool:
        return guess.tobytes() in self._seen

    def add(self, guess: np.ndarray, bulls: int) -> None:
        if self.count == len(self.answers):
            self.guesses = np.concatenate([self.guesses, np.zeros_like(self.guesses)])
            self.answers = np.concatenate([self.answers, np.zeros_like(self.answers)])
            self.next = np.concatenate([self.next, np.full_like(self.next, -1)])
        self.guesses[self.count] = guess
        self.answers[self.count] = bulls
        thread_question(self.count, guess, self.head, self.next)
        self.count += 1
        self._seen.add(guess.tobytes())
