"""Finding a tree of a given height fast, by iterative broadening (`--tie-break none`).

`Solver.find_guess` is exact: to say no it tries every class of guesses,
and under a bad guess high in the tree it backtracks through thousands of
them before giving up. Where a tree exists that is wasted work; this search
only looks for one. It is an AND/OR search: at a set (an OR node) it tries
the `width` best guesses by a heuristic, and a guess works when every part
it leaves (the AND) has a tree one guess shorter. A failure at width w is
remembered, and the width is doubled (1, 2, 4, ...) until a tree is found,
so a bad early choice costs little before a better one is tried.

Only what it finds is claimed: a tree. A failure here proves nothing, so
refutations stay with the exhaustive `Solver`. With `KERNEL_DEPTH` (three)
guesses left the kernel `_three_left_guess` tries `TRIES_PER_WIDTH` times
the width of guesses (every one at width `EVERY`), and with two it decides
exactly. With four left, where a guess is settled by the kernel alone,
`LOW_LEVEL_WIDTH` times the width of guesses are tried. Work (sets and
guesses tried at three left) is counted, so a `budget` stops the search
at the same point on every machine.

The heuristic ranks a set's canonical guesses (one per orbit of the
history's stabiliser) by their largest part, then by the sum of squared
part sizes (how evenly they split), then still-possible first, then the
lowest code, so the search is deterministic.
"""

from __future__ import annotations

import time

import numpy as np

from ...game import _answer_kernels as _code_kernels
from ...treefile import Node, node
from . import _finder_kernels, _separator_kernels
from .solver import KERNEL_DEPTH, Progress, SearchBudgetExceeded, Solver
from .screens import NO_CLASSES

# Widths tried in turn: guesses per set above the kernel's levels; with three guesses left,
# `TRIES_PER_WIDTH` times as many (one per distinct partition, best first).
WIDTHS = (1, 2, 4, 8, 16, 32, 64, 128)
TRIES_PER_WIDTH = 64
# Four guesses left: this many times the width (there a guess is settled by the kernel alone, cheaply).
LOW_LEVEL_WIDTH = 8
# A width that tries every guess: a failure there is a refutation.
EVERY = 1 << 62
# Memo key of a set of secrets and the guesses left.
Key = tuple[bytes, int]


class TreeFinder:
    """Iterative-broadening search for a tree of given height over one game (shares a `Solver`'s tables)."""

    def __init__(self, solver: Solver, progress: Progress | None = None, budget: int | None = None) -> None:
        """`budget`: most work `find` may do (`work`, counted as `Solver.work` is) before it gives up; None: no limit."""
        self.solver = solver
        self.progress = progress
        self.budget = budget
        self.kernel_calls = 0
        self.kernel_tries = 0
        self.found: dict[Key, int] = {}  # a guess that starts a tree within the depth
        self.failed: dict[Key, int] = {}  # the largest width at which the search found none
        self.nodes = 0
        self._last_report = time.perf_counter()
        # The count's bound for every class: the finder's tries stay what they were (class bounds would change
        # which guesses a limited number of tries reaches, and with it the trees found).
        self.limits = solver.count_caps(2)

    def seed(self, found: dict[tuple[bytes, int], int]) -> None:
        """Take guesses known to start trees (`Solver.found_guesses`: sets by bytes and depth), so that `tree`
        follows them instead of searching those sets again."""
        self.found.update(found)

    def find(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = (), widths: tuple[int, ...] = WIDTHS) -> int:
        """A guess that starts a tree solving `subset` within `depth` guesses, or -1 if none was found at the widest."""
        for width in widths:
            try:
                guess = self._find(subset, depth, history, width)
            except SearchBudgetExceeded:
                if self.progress:
                    self.progress(f"{len(subset)} secrets within {depth}: none found within the budget of {self.budget}")
                return -1
            if guess >= 0:
                return guess
            if self.progress:
                self.progress(f"{len(subset)} secrets within {depth}: none found at width {width}")
        return -1

    @property
    def work(self) -> int:
        """Sets searched here and by the kernels, plus guesses tried at three left."""
        return self.nodes + self.kernel_calls + self.kernel_tries

    def _find(self, subset: np.ndarray, depth: int, history: tuple[int, ...], width: int) -> int:
        solver = self.solver
        s = len(subset)
        if s <= 2:
            return int(subset[0]) if depth >= s else -1
        if s > solver.caps[depth]:
            return -1
        key = (subset.tobytes(), depth)
        guess = self.found.get(key)
        if guess is not None:
            return guess
        if self.failed.get(key, 0) >= width:
            return -1
        if self.budget is not None and self.work >= self.budget:
            raise SearchBudgetExceeded
        if depth <= KERNEL_DEPTH:
            self.kernel_calls += 1
            guess, complete = self.last_guesses(subset, depth, width)
            if guess >= 0:
                self.found[key] = guess
            else:
                self.failed[key] = EVERY if complete else width
            return guess
        self.nodes += 1
        tried = width * LOW_LEVEL_WIDTH if depth == KERNEL_DEPTH + 1 else width
        for guess in self.ranked_guesses(subset, depth, history)[:tried].tolist():
            if self._guess_works(subset, depth, history, guess, width):
                self.found[key] = guess
                return guess
        self.failed[key] = width
        return -1

    def last_guesses(self, subset: np.ndarray, depth: int, width: int) -> tuple[int, bool]:
        """(a guess starting a tree of `subset` within `depth` <= `KERNEL_DEPTH` guesses or -1, whether every guess was tried).

        With three left, `TRIES_PER_WIDTH * width` guesses are tried, best first.
        """
        solver = self.solver
        if not solver.mask_kernels or depth > 3:
            return solver.find_guess(subset, depth), True
        if depth == 3:
            tries = -1 if width >= EVERY // TRIES_PER_WIDTH else TRIES_PER_WIDTH * width
            guess, tried = _finder_kernels._three_left_guess(
                solver.table, subset, solver.solved, solver.num_slots, *self.limits, solver.arrangements, solver.hard, tries,
                solver.cores.arrays(), NO_CLASSES,
            )
            self.kernel_tries += int(tried)
            return int(guess), tried != tries
        if depth == 2:
            return int(_separator_kernels._separating_guess(solver.table, subset, solver.hard)), True
        return -1, True  # one guess left solves one secret; larger sets never get here

    def _guess_works(self, subset: np.ndarray, depth: int, history: tuple[int, ...], guess: int, width: int) -> bool:
        parts = sorted(self.solver.split(subset, guess), key=len, reverse=True)
        after = history + (guess,)
        # Parts the memo or the kernel settles cheaply first: a guess fails there before any deep search.
        for part in parts:
            key = (part.tobytes(), depth - 1)
            if self.failed.get(key, 0) >= width:
                return False
        for part in parts:
            if self._find(part, depth - 1, after, width) < 0:
                return False
            self._report(after)
        return True

    def ranked_guesses(self, subset: np.ndarray, depth: int, history: tuple[int, ...]) -> np.ndarray:
        """Canonical guesses whose parts all fit `depth - 1`, best first (see the module's docstring)."""
        solver = self.solver
        candidates = solver.guess_pool(subset, history, True)
        counts = _code_kernels._partition_counts(solver.by_secret, candidates, subset, solver.num_slots).astype(np.int64)
        counts[:, solver.solved] = 0
        largest = counts.max(axis=1)
        squares = (counts * counts).sum(axis=1)
        member = np.zeros(solver.num_codes, np.bool_)
        member[subset] = True
        possible = member[candidates]
        keep = (largest <= solver.caps[depth - 1]) & ((largest < len(subset)) | possible)
        order = np.lexsort((candidates[keep], ~possible[keep], squares[keep], largest[keep]))
        return candidates[keep][order]

    def tree(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> Node:
        """The tree found for `subset` within `depth` (after `find` succeeded on it)."""
        names = self.solver.names
        if len(subset) == 1:
            return node(names[int(subset[0])])
        guess = self._find(subset, depth, history, EVERY) if len(subset) > 2 else int(subset[0])
        if guess < 0:
            raise ValueError("no tree found for this set")
        children = {
            self.solver.answer_to(guess, part): self.tree(part, depth - 1, history + (guess,))
            for part in self.solver.split(subset, guess)
        }
        return node(names[guess], children)

    def _report(self, path: tuple[int, ...]) -> None:
        now = time.perf_counter()
        if self.progress is None or now - self._last_report < 5.0:
            return
        self._last_report = now
        codes = self.solver.names
        self.progress(f"at {' '.join(codes[g] for g in path)}: {self.nodes} sets searched, {len(self.found)} solved")
