"""`anneal`: ask codes that (nearly) fit every answer so far, found by simulated annealing.

Asking codes consistent with all answers is the classic Mastermind strategy
(Knuth 1977; Berghman, Goossens and Leus, "Efficient solutions for
Mastermind using genetic algorithms", 2009, who also ask the least-violating
code when no consistent one is found in time). Its answers test every
uncertain position at once, so each carries several bits, where a splitting
question carries about one.

Up to `FIT_MAX_LENGTH` positions the codes are of any composition and fit
both numbers of every answer (`_fit_kernels`): the cows say how much of the
secret's composition a code shares, so no question is spent on counting
symbols, and every question also tests positions. Longer keys count the
symbols first (as count-split does) and anneal count-preserving swaps
against the bulls alone (`_anneal_kernels`); there the composition-fitting
annealer stops finding fitting codes early. Keys without repeats over
exactly n symbols (permutations) have a known composition and take the swap
annealer at every length.

The method has no proof of termination, so after `question_limit`
questions it falls back to count-split, which is exact: every key is still
found, with the secret itself as the last question.
"""

from __future__ import annotations

import numpy as np

from ._anneal_kernels import anneal
from ._fit_kernels import anneal_fit, thread_answer
from .count_split import count_symbols, crack_count_split, locate
from .oracles import Oracle
from .puzzle import score_many
from .result import CrackResult, Progress

FIT_MAX_LENGTH = 60  # keys up to this length fit compositions; longer ones count symbols first
ANNEAL_MAX_LENGTH = 60  # `best` anneals keys up to this length, and splits longer ones
MOVES = 30_000  # annealing moves per question
FIT_MOVES = 300_000  # composition-fitting moves per question (short keys: cheap)
TEMPERATURE = 1.2  # Metropolis temperature of the swap annealer, in units of one bull of violation
FIT_TEMPERATURE = 1.0  # the same for the composition-fitting annealer
STALL = 15  # questions without a better best guess, 7/8 right, before settling it (when a symbol is absent)


def scaled(moves: int, effort: float) -> int:
    """Annealing moves per question at `effort` times the default work (at least one)."""
    return max(1, round(moves * effort))


def question_limit(length: int, num_symbols: int) -> int:
    """Questions after which the annealer gives way to count-split (about twice what it needs)."""
    return 4 * length + 2 * num_symbols + 50


def crack_anneal(oracle: Oracle, progress: Progress | None = None, seed: int = 0, effort: float = 1.0) -> CrackResult:
    """Crack the oracle's secret exactly with annealed near-consistent questions (`effort` times the moves)."""
    puzzle = oracle.puzzle
    if not puzzle.repeats and puzzle.num_symbols == puzzle.length:
        return _crack_counted(oracle, np.ones(puzzle.length, dtype=np.int64), progress, seed, effort)
    if puzzle.length > FIT_MAX_LENGTH:
        counts = count_symbols(oracle)
        if oracle.solved:
            return CrackResult(np.full(puzzle.length, int(np.argmax(counts)), dtype=np.int64), oracle.queries, True, 0)
        return _crack_counted(oracle, counts, progress, seed, effort)
    return _crack_fitting(oracle, progress, seed, effort)


def _crack_fitting(oracle: Oracle, progress: Progress | None, seed: int, effort: float) -> CrackResult:
    """Ask codes of any composition fitting every (bulls, cows) answer; count-split past the limit."""
    puzzle = oracle.puzzle
    n, k = puzzle.length, puzzle.num_symbols
    rng = _generator(seed)
    candidate = puzzle.random_code(rng)
    asked = _Answers(n, k)
    limit = question_limit(n, k)
    best_bulls, restarts = -1, 0
    everywhere = np.arange(n)
    moves = scaled(FIT_MOVES, effort)
    while oracle.queries < limit and restarts < 10:
        anneal_fit(
            candidate, asked.guesses, asked.bulls, asked.totals, asked.composition, asked.count,
            asked.head, asked.next, everywhere, not puzzle.repeats, moves, FIT_TEMPERATURE,
            seed * 1_000_003 + oracle.queries,
        )
        if asked.seen(candidate):  # stuck on an asked code: start the annealer afresh
            candidate = puzzle.random_code(rng)
            restarts += 1
            continue
        restarts = 0
        guess = candidate.copy()
        bulls, cows = oracle.ask(guess)
        if oracle.solved:
            return asked.checked(CrackResult(guess, oracle.queries, True, 0), oracle)
        asked.add(guess, bulls, bulls + cows)
        best_bulls = max(best_bulls, bulls)
        if progress:
            progress(oracle.queries, best_bulls)
    return asked.checked(crack_count_split(oracle, progress), oracle)


def _generator(seed: int) -> np.random.Generator:
    """The annealer's random numbers: a stream apart from `default_rng(seed)`, which draws `--random --seed` keys."""
    return np.random.default_rng([seed, 1])


def _crack_counted(oracle: Oracle, counts: np.ndarray, progress: Progress | None, seed: int, effort: float) -> CrackResult:
    """Ask codes with the secret's symbol counts fitting every bulls answer; settle or count-split when stuck."""
    puzzle = oracle.puzzle
    n, k = puzzle.length, puzzle.num_symbols
    rng = _generator(seed)
    candidate = rng.permutation(np.repeat(np.arange(k), counts))
    asked = _Answers(n, k)
    limit = question_limit(n, k)
    absent = np.flatnonzero(counts == 0)
    moves = scaled(MOVES, effort)
    best, best_bulls, since_best, restarts = candidate.copy(), -1, 0, 0
    while oracle.queries < limit and restarts < 10:
        if len(absent) and since_best >= STALL and best_bulls >= n - n // 8:
            return settle(oracle, best, best_bulls, int(absent[0]), counts, progress)
        anneal(
            candidate, asked.guesses, asked.bulls, asked.count, asked.head, asked.next,
            k, moves, TEMPERATURE, seed * 1_000_003 + oracle.queries,
        )
        if asked.seen(candidate):  # stuck on an asked code: start the annealer afresh
            rng.shuffle(candidate)
            restarts += 1
            continue
        restarts = 0
        guess = candidate.copy()
        bulls, cows = oracle.ask(guess)
        if oracle.solved:
            return CrackResult(guess, oracle.queries, True, 0)
        asked.add(guess, bulls, bulls + cows)
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


class _Answers:
    """The questions asked, their bulls and totals (bulls + cows) and compositions, threaded for the annealers."""

    def __init__(self, length: int, num_symbols: int) -> None:
        self.count = 0
        self.guesses = np.zeros((64, length), dtype=np.int64)
        self.bulls = np.zeros(64, dtype=np.int64)
        self.totals = np.zeros(64, dtype=np.int64)
        self.composition = np.zeros((64, num_symbols), dtype=np.int64)
        self.head = np.full((length, num_symbols), -1, dtype=np.int64)
        self.next = np.full((64, length), -1, dtype=np.int64)
        self._seen: set[bytes] = set()

    def seen(self, guess: np.ndarray) -> bool:
        return guess.tobytes() in self._seen

    def checked(self, result: CrackResult, oracle: Oracle) -> CrackResult:
        """`result`, once its key is seen to give every answer recorded here (else a lie was told)."""
        bulls, cows = score_many(self.guesses[: self.count], result.found, oracle.puzzle.num_symbols)
        if not (np.array_equal(bulls, self.bulls[: self.count]) and np.array_equal(bulls + cows, self.totals[: self.count])):
            raise oracle.contradiction()
        return result

    def add(self, guess: np.ndarray, bulls: int, total: int) -> None:
        if self.count == len(self.bulls):
            self.guesses = np.concatenate([self.guesses, np.zeros_like(self.guesses)])
            self.bulls = np.concatenate([self.bulls, np.zeros_like(self.bulls)])
            self.totals = np.concatenate([self.totals, np.zeros_like(self.totals)])
            self.composition = np.concatenate([self.composition, np.zeros_like(self.composition)])
            self.next = np.concatenate([self.next, np.full_like(self.next, -1)])
        self.guesses[self.count] = guess
        self.bulls[self.count] = bulls
        self.totals[self.count] = total
        thread_answer(self.count, guess, self.head, self.next, self.composition)
        self.count += 1
        self._seen.add(guess.tobytes())
