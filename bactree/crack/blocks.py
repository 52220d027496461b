"""`blocks`: count the symbols, then find the key one block of positions at a time.

Fitting one code to every answer about a long key stops working early (see
`anneal` and `windows`): the fitting problem grows with the key. This
cracker keeps it the size of one block (`block_width`: `WIDTH` positions,
or `WIDE_WIDTH` from `WIDE_EFFORT` on), whatever the key's length. Once
every symbol's count in the key is known, each question holds

- the symbols found on the blocks before the current one,
- a block candidate on the block, fitted to every earlier question about
  this block by `_block_kernels.anneal_block`,
- and a filler symbol f on the positions after it: one the candidate
  lacks, or else the one it holds least.

Its bulls, less the found positions and f's occurrences past them (known
from the counts), are an equation on the block's symbols alone, over the
positions where the candidate does not hold f (the others cancel out). It
equals the number of those positions if and only if the candidate is right
on all of them. A block is taken as found once every position has been
tested right: by one such answer when the candidate lacks the filler, else
by two with different fillers. So a block is never wrongly taken as found;
the last block needs no filler, and its right candidate is the key. The
counts also cap each symbol's occurrences in the block, and fix the last
block's composition.

Blocks may be wider than k - 1 symbols, where a candidate can hold them all:
at n = 300 and k = 37, blocks of 43 took 647.5 questions (keys 0-15, 40,000
moves) against 677.5 for blocks of 36 (25,000 moves); 40, 46 and 50 did
no better than 43 (keys 0-7). Wider blocks need more annealing moves to pay
off, which the annealer's own random number generator made affordable.

Those caps are loose on long keys (a symbol occurs about 8 times in 300
positions), so with repeats the counting is done as a chain of questions
(`_count_with_chain`) that also tells how often each symbol occurs in the
first half of the key, at one question more than counting alone. Each
half's counts then cap its blocks more tightly and fix its last block's
composition: at n = 300 (8 keys, 40,000 moves) 697 questions, against 797
with the whole key's counts alone (and 672 once the annealer's swaps stopped
missing, at 25,000 moves). A chain for a further part costs about
k questions and saved about as many (parts of 100: 693).

More annealing buys fewer questions, the more so with wider blocks: at
n = 300 (keys 0-3, 662.3 questions at the default 35,000 moves) blocks of
43 took 641.5 at 105,000 moves and 640.0 at 300,000, blocks of 60 631.8 at
100,000, 608.0 at 300,000 and 591.8 at 1,000,000 (145 s a key). So
`effort` multiplies the moves, and from `WIDE_EFFORT` on the blocks are
`WIDE_WIDTH` wide. The moves pay late in a block, near where its answers
come to fix it, so fits before `LATE_FITS` widths of questions take the
default moves (fewer below effort 1). Before then nearly every fit fails
anyway (from 0.8 widths on, at 60 positions and 100,000 moves). On the 20
benchmark keys at n = 300, three times the moves there took 631.4 questions
at effort 3 (28 s a key) against 627.8 (17.9 s), and 596.4 at effort 30
(108 s) against 595.7 (97 s); full moves there bought effort 30 about 3
questions (592.7) for about twice the time (keys 0-1: 484 s against 251 s
with 105,000 moves there).

When a block takes more than `PROBE_AFTER` times its width in questions
(the annealer trapped with a few positions wrong), every other question
holds the candidate on a random half of the block only, which tells the
annealer where the wrong positions lie. When the annealer finds no fitting
block, it tries `RESTARTS` fresh ones. Like `anneal`, the cracker falls
back to count-split past `question_limit`, so it is exact on every key, and
the key found is checked against every answer.
"""

from __future__ import annotations

import numpy as np

from ._block_kernels import anneal_block
from .anneal import _Answers, _generator, question_limit, scaled
from .count_split import _Guessed, count_symbols, crack_count_split
from .oracles import Oracle
from .result import CrackResult, Progress

WIDTH = 43  # positions per block, at most 6/5 (k - 1) so that a candidate seldom holds every symbol
WIDE_EFFORT = 3.0  # from this effort on, blocks of WIDE_WIDTH: wider blocks pay off once the annealer has the moves
WIDE_WIDTH = 60  # at most 5/3 (k - 1) (n = 300, keys 0-3: 631.8 questions at 100,000 moves against 641.5 for 43 at 105,000)
PROBE_AFTER = 2.5  # a block's questions, per position, before half-block probes
LATE_FITS = 1.4  # a block's questions, per position, from which its fits take `effort` times the moves (before: the default moves, fewer below effort 1)
RESTARTS = 2  # fresh annealing starts when the candidate does not fit
MOVES = 35_000  # annealing moves per start (n = 300, 20 keys: 653.1 questions, 4.0 s a key; 40,000: 649.8, 4.7 s)
TEMPERATURE = 1.0  # Metropolis temperature, in units of one bull of violation
MAX_NUDGES = 10_000  # nudges in a row off asked codes before giving way to count-split (a safeguard)
NO_REPEATS_MAX_LENGTH = 250  # `best` uses blocks for keys without repeats up to this length (k = n = 250, 20 keys: 1403.5 questions, max 1484 of the 1550-question limit, count-split 1690; at 300 the blocks pass the limit)
WIDE_NO_REPEATS_MAX_LENGTH = 300  # the same from WIDE_EFFORT on (k = n = 300, effort 3, keys 0-3: 1616.3 questions, max 1637 of the 1850-question limit; count-split 2061.5)


def crack_blocks(oracle: Oracle, progress: Progress | None = None, seed: int = 0, effort: float = 1.0) -> CrackResult:
    """Crack the oracle's secret exactly: count the symbols, then find blocks of positions in turn.

    `effort` multiplies the annealing moves of a block's late fits (from
    `LATE_FITS` widths of questions into it); from `WIDE_EFFORT` on, blocks
    are wider too. More effort, fewer questions (see docs/crack.md).
    """
    if oracle.puzzle.num_symbols < 2:
        return crack_count_split(oracle, progress)
    cracker = _BlockCracker(oracle, progress, seed, effort)
    try:
        key = cracker.run()
    except _Guessed as hit:
        key = hit.code
    else:
        if key is None:
            return cracker.asked.checked(crack_count_split(oracle, progress), oracle)
    return cracker.asked.checked(CrackResult(key, oracle.queries, True, 0), oracle)


def no_repeats_max_length(effort: float) -> int:
    """The longest key without repeats that `best` gives to blocks at `effort` (count-split beyond)."""
    return WIDE_NO_REPEATS_MAX_LENGTH if effort >= WIDE_EFFORT else NO_REPEATS_MAX_LENGTH


def block_width(num_symbols: int, effort: float) -> int:
    """Positions per block: 6/5 (k - 1) up to WIDTH, or from WIDE_EFFORT on 5/3 (k - 1) up to WIDE_WIDTH."""
    if effort >= WIDE_EFFORT:
        return min(WIDE_WIDTH, max(1, (num_symbols - 1) * 5 // 3))
    return min(WIDTH, max(1, (num_symbols - 1) * 6 // 5))


class _BlockCracker:
    """The cracker's state: the answers, the symbol counts, the positions found."""

    def __init__(self, oracle: Oracle, progress: Progress | None, seed: int, effort: float = 1.0) -> None:
        self.oracle = oracle
        self.progress = progress
        self.seed = seed
        self.n, self.k = oracle.puzzle.length, oracle.puzzle.num_symbols
        self.width = block_width(self.k, effort)
        self.late_moves = scaled(MOVES, effort)  # a fit's moves from LATE_FITS * width questions into a block
        self.early_moves = scaled(MOVES, min(effort, 1.0))  # and before: the default moves, or fewer below effort 1
        self.rng = _generator(seed)
        self.asked = _Answers(self.n, self.k)
        self.limit = question_limit(self.n, self.k)
        self.counts = np.zeros(self.k, dtype=np.int64)
        self.known = np.full(self.n, -1, dtype=np.int64)  # the symbols of the positions found

    def run(self) -> np.ndarray | None:
        """The key, or None past the question limit."""
        width = self.width
        if self.oracle.puzzle.repeats and self.n > width:
            half = self.n // 2
            first = self._count_with_chain(half)
            parts = [(0, half, first), (half, self.n, self.counts - first)]
        else:  # one block needs no halves; without repeats a half's composition costs a question a symbol
            self._count()
            parts = [(0, self.n, self.counts)]
        for part_start, part_end, composition in parts:
            for start in range(part_start, part_end, width):
                caps = composition - np.bincount(self.known[part_start:start], minlength=self.k)
                if not self._find_block(start, min(part_end, start + width), caps):
                    return None
        return self.known

    def _count(self) -> None:
        """Count every symbol as count-split does (k - 1 uniform questions)."""
        before = self.oracle.queries
        self.counts = count_symbols(self.oracle)
        if self.oracle.solved:
            raise _Guessed(np.full(self.n, int(np.argmax(self.counts)), dtype=np.int64))
        for symbol in range(self.oracle.queries - before):  # the symbols asked, in order: recorded for the final check
            self.asked.add(np.full(self.n, symbol, dtype=np.int64), self.counts[symbol], self.counts[symbol])

    def _count_with_chain(self, end: int) -> np.ndarray:
        """Count every symbol and learn how often each occurs in positions 0..end-1, in one chain.

        Symbol 0 is counted alone. Then question s holds symbol s - 1 on the
        part and s after it: its bulls, a[s-1] + c[s] - a[s], give a
        difference of the part's counts a, and its bulls + cows,
        min(end, c[s-1]) + min(n - end, c[s]), give the count c[s], since c[s-1]
        is known by then (a count of n - end or more is asked alone). So k
        questions do what counting and a chain do in 2k - 2. The answers
        contradict each other when the counts do not add up to n or the
        part's fall outside 0..c.
        """
        n = self.n
        self.counts[0] = self._ask(np.zeros(n, dtype=np.int64))[0]
        drops = np.zeros(self.k, dtype=np.int64)  # a[0] - a[s]
        symbol = 1
        while symbol < self.k and self.counts.sum() < n:  # the symbols after the n-th occurrence do not occur
            question = np.full(n, symbol, dtype=np.int64)
            question[:end] = symbol - 1
            bulls, cows = self._ask(question)
            seen = bulls + cows - min(end, int(self.counts[symbol - 1]))  # min(n - end, c[s])
            self.counts[symbol] = seen if seen < n - end else self._ask(np.full(n, symbol, dtype=np.int64))[0]
            drops[symbol] = drops[symbol - 1] + bulls - self.counts[symbol]
            symbol += 1
            if self.progress:
                self.progress(self.oracle.queries, 0)
        if self.counts.sum() != n or self.counts.min() < 0:
            raise self.oracle.contradiction()
        first, remainder = divmod(end + int(drops.sum()), symbol)
        part = np.zeros(self.k, dtype=np.int64)
        part[:symbol] = first - drops[:symbol]  # the part's size fixes a[0]
        if remainder or part.min() < 0 or (part > self.counts).any():
            raise self.oracle.contradiction()
        return part

    def _find_block(self, start: int, end: int, caps: np.ndarray) -> bool:
        """Ask about positions start..end-1 until they are found; False past the question limit (or the nudges).

        `caps` holds how often each symbol can still occur in the block.
        """
        width = end - start
        last = end == self.n
        if caps.min() < 0 or caps.sum() < width:
            raise self.oracle.contradiction()
        block = self._random_block(width, caps)
        rows = 4 * width
        plus = np.full((rows, width), -1, dtype=np.int64)  # each question's symbols on the block (-1: filler)
        minus = np.full(rows, -1, dtype=np.int64)  # each question's filler (-1: none)
        targets = np.zeros(rows, dtype=np.int64)
        count = 0
        nudged = False
        nudges = 0
        confirmed: tuple[int, np.ndarray] | None = None  # (filler, candidate) of an answer right on every position tested
        while self.oracle.queries < self.limit and nudges < MAX_NUDGES:
            if not nudged:  # a nudged candidate is asked as it is: fitting it again could undo the nudge
                moves = self.late_moves if count >= LATE_FITS * width else self.early_moves
                self._fit(block, plus, minus, targets, count, caps, moves)
            filler = -1 if last else self._filler(block, caps, -1 if confirmed is None else confirmed[0])
            question = self.known.copy()
            question[end:] = filler
            question[start:end] = block
            probe = count > PROBE_AFTER * width and count % 2 == 1
            if probe:
                hidden = self.rng.random(width) < 0.5
                question[start:end][hidden] = filler if filler >= 0 else self._filler(block, caps, -1)
            nudged = self.asked.seen(question)
            if nudged:  # nudge the candidate off an asked code
                self._nudge(block, caps)
                nudges += 1
                continue
            nudges = 0
            bulls, _ = self._ask(question)
            target = bulls - start
            if filler >= 0:
                target -= self.counts[filler] - int(np.count_nonzero(self.known[:start] == filler))
            row = np.where(question[start:end] == filler, -1, question[start:end])  # the positions tested (filler -1: all)
            tested = int(np.count_nonzero(row >= 0))
            if not -tested <= target <= tested:
                raise self.oracle.contradiction()
            if count == rows:
                plus = np.concatenate([plus, np.full_like(plus, -1)])
                minus = np.concatenate([minus, np.full_like(minus, -1)])
                targets = np.concatenate([targets, np.zeros_like(targets)])
                rows *= 2
            plus[count] = row
            minus[count] = filler
            targets[count] = target
            count += 1
            if not probe:
                if target < tested:
                    confirmed = None
                elif tested == width or (confirmed is not None and np.array_equal(confirmed[1], block)):
                    self.known[start:end] = block  # every position tested right, with one filler or two
                    return True
                else:
                    confirmed = (filler, block.copy())
            if self.progress:
                self.progress(self.oracle.queries, start)
        return False

    def _ask(self, question: np.ndarray) -> tuple[int, int]:
        """Ask `question`, record its answer; its bulls and cows."""
        bulls, cows = self.oracle.ask(question)
        if self.oracle.solved:
            raise _Guessed(question)
        self.asked.add(question, bulls, bulls + cows)
        return bulls, cows

    def _fit(self, block: np.ndarray, plus: np.ndarray, minus: np.ndarray, targets: np.ndarray, count: int, caps: np.ndarray, moves: int) -> None:
        """Anneal `block` in place to fit the first `count` equations, from fresh starts too when it does not (`moves` a start)."""
        seed = self.seed * 1_000_003 + self.oracle.queries
        violation = anneal_block(block, plus, minus, targets, count, caps, moves, TEMPERATURE, seed)
        for attempt in range(1, RESTARTS + 1):
            if violation == 0:
                return
            fresh = self._random_block(len(block), caps)
            tried = anneal_block(fresh, plus, minus, targets, count, caps, moves, TEMPERATURE, seed + 7919 * attempt)
            if tried < violation:
                block[:], violation = fresh, tried

    def _random_block(self, width: int, caps: np.ndarray) -> np.ndarray:
        """A random block candidate holding no symbol more often than its cap."""
        return self.rng.permutation(np.repeat(np.arange(self.k), caps))[:width]

    def _filler(self, block: np.ndarray, caps: np.ndarray, other_than: int) -> int:
        """The symbol the candidate holds least (one it lacks, when it lacks any), the fewest occurrences left first; not `other_than`."""
        scale = int(caps.max()) + 1
        held = np.bincount(block, minlength=self.k) * scale + caps
        if other_than >= 0:
            held[other_than] = held.max() + 1
        return int(np.argmin(held))

    def _nudge(self, block: np.ndarray, caps: np.ndarray) -> None:
        """Swap two positions of the candidate, or change one to a symbol under its cap."""
        p, r = self.rng.integers(len(block), size=2)
        spare = np.flatnonzero(np.bincount(block, minlength=self.k) < caps)
        if block[p] != block[r] or len(spare) == 0:
            block[p], block[r] = block[r], block[p]
        else:
            block[p] = spare[self.rng.integers(len(spare))]
