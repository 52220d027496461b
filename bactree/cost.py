"""Exact minimum of an additive cost over trees of bounded height: branch and bound.

A tree's cost adds up over its nodes: each guess made on a set S of
still-possible secrets costs `Cost.guess_cost(|S|)`. Counting 1 per node
gives the node count (the worst-case tie-break); counting |S| gives the total
number of guesses over all secrets (the expected-length objective).

The search returns the exact minimum when it is below the bound it is given
and otherwise a proven lower bound at least that large (the least bound over
every guess, not just the one given); both are memoised per (set, height).
Before the parts of a guess are searched, their floors are raised to what the
memo holds and, for total guesses, by one guess of lookahead, so most guesses
are ruled out with no search below them. Ties go to the lowest code, so a
build is reproducible.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from . import _search_kernels
from .search import Progress, Solver
from .treefile import Node, node

INFINITE = _search_kernels.INFINITE

# Sets at least this large are searched over canonical guesses only (symmetry).
SYMMETRY_MIN_SET = 24
# Node counts: sets at most this large first try the kernel's search for a tree of
# still-possible guesses (no memo); larger ones leave it to the memoised search.
PERFECT_CHECK_MAX_SET = 100
# Sets at most this large are valued by the numba kernel `_least_cost` (own memo, no symmetry).
KERNEL_MAX_SET = 30


@dataclass(frozen=True)
class Cost:
    """An additive tree cost: what one guess costs on a set of `size` secrets."""

    name: str
    per_secret: bool  # True: a guess costs |S| (total guesses); False: 1 (nodes)

    def guess_cost(self, size: int) -> int:
        return size if self.per_secret else 1


NODES = Cost("nodes", per_secret=False)
TOTAL_GUESSES = Cost("total", per_secret=True)


def level_fill(size: int, branching: int) -> int:
    """Least total guesses for `size` secrets: one solved at depth 1, b**(k-1) at depth k."""
    total, depth, room = 0, 1, 1
    while size > 0:
        placed = min(size, room)
        total += placed * depth
        size -= placed
        depth += 1
        room *= branching
    return total


class BudgetExceeded(Exception):
    """The search examined more sets than its budget allowed; nothing it returned is wrong, it just stopped."""


class CostSearch:
    """Branch and bound for one cost over one game, sharing a `Solver`'s tables.

    While `refine` runs, `budget` caps the sets searched here (not in the
    kernel); past it `solve` raises `BudgetExceeded`. It counts work, not
    time, so runs are reproducible.
    """

    def __init__(self, solver: Solver, cost: Cost, progress: Progress | None = None) -> None:
        self.solver = solver
        self.budget: int | None = None
        self.progress = progress
        self._last_report = time.perf_counter()
        self.cost = cost
        self.branching = len(solver.game.answers) - 1
        sizes = np.arange(solver.num_codes + 1)
        if cost.per_secret:
            self.floor = np.array([level_fill(int(k), self.branching) for k in sizes], np.int64)
        else:
            self.floor = sizes.astype(np.int64)
        self.exact: dict[tuple[bytes, int], tuple[int, int]] = {}
        key_type = numba.types.UniTuple(numba.types.uint64, 2)
        self.kernel_exact = numba.typed.Dict.empty(key_type, numba.types.int64)
        self.kernel_lower = numba.typed.Dict.empty(key_type, numba.types.int64)
        self.lower: dict[tuple[bytes, int], int] = {}
        self.nodes_searched = 0

    # -- bounds -----------------------------------------------------------
    def lower_bound(self, subset: np.ndarray, depth: int) -> int:
        """A cheap proven lower bound on the cost of `subset` within `depth` guesses."""
        s = len(subset)
        if s > self.solver.caps[depth]:
            return INFINITE
        return int(self.floor[s])  # level filling (total guesses), one node per secret (nodes)

    def _known_bound(self, key: tuple[bytes, int], subset: np.ndarray, depth: int) -> int:
        return max(self.lower_bound(subset, depth), self.lower.get(key, 0))

    # -- search -----------------------------------------------------------
    def solve(
        self, subset: np.ndarray, depth: int, bound: int = INFINITE, history: tuple[int, ...] = (), kernel: bool = True
    ) -> int:
        """Exact least cost of `subset` within `depth` guesses if below `bound`, else a lower bound >= bound.

        Small sets go to the numba kernel, which values them without naming a
        guess; `kernel=False` searches here so that the best guess is recorded.
        """
        s = len(subset)
        if s == 1:
            return 1 if depth >= 1 else INFINITE
        if s > self.solver.caps[depth]:
            return INFINITE
        if kernel and s <= KERNEL_MAX_SET:
            solver = self.solver
            return int(
                _search_kernels._least_cost(
                    solver.table, subset, depth, bound, solver.solved,
                    solver.num_slots, solver.caps, self.floor, self.cost.per_secret,
                    self.kernel_exact, self.kernel_lower,
                )
            )
        key = (subset.tobytes(), depth)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        floor = self._known_bound(key, subset, depth)
        if floor >= bound:
            return floor
        if not self.cost.per_secret and s <= PERFECT_CHECK_MAX_SET:
            guess = self._perfect_guess(subset, depth)
            if guess >= 0:
                self.exact[key] = (s, guess)
                return s
            floor = max(floor, s + 1)
            if floor >= bound:
                self.lower[key] = max(self.lower.get(key, 0), floor)
                return floor
        self.nodes_searched += 1
        if self.budget is not None and self.nodes_searched > self.budget:
            raise BudgetExceeded
        solver = self.solver
        best, best_guess = bound, -1
        guesses, bases, fail_low = self.candidates(subset, depth, history, bound)
        # `fail_low`: the least proven bound among guesses that cannot beat `bound`.
        # The kernel skips the guesses whose small parts' bounds rule them out; each one
        # it stops at is finished here: large parts raised, then the parts searched.
        index = 0
        while True:
            index, fail_low, ordered, starts, slots, known, raised = _search_kernels._screen_guesses(
                solver.table, subset, guesses, bases, index, depth - 1, best, best_guess, fail_low, solver.solved,
                solver.num_slots, solver.caps, self.floor, self.cost.per_secret, self.kernel_exact,
                self.kernel_lower, KERNEL_MAX_SET,
            )
            if index >= len(guesses):
                break
            guess, base = int(guesses[index]), int(bases[index])
            index += 1
            # Ties are taken only by a lower code, so the lowest optimal guess wins.
            limit = best + 1 if (best_guess >= 0 and guess < best_guess) else best
            total = self._finish_guess(
                subset, depth, history, guess, base + int(raised), limit, ordered, starts, slots, known
            )
            if total < limit:
                best, best_guess = total, guess
            else:
                fail_low = min(fail_low, total)
            if self.progress:
                self._report(history, guess, best if best_guess >= 0 else None)
        if best_guess >= 0:
            self.exact[key] = (best, best_guess)
            return best
        proven = max(floor, fail_low)
        self.lower[key] = max(self.lower.get(key, 0), proven)
        return proven

    def lookahead_bound(self, subset: np.ndarray, depth: int, history: tuple[int, ...]) -> int:
        """A proven lower bound of `subset` at least one guess deeper than the floor, remembered.

        The least, over every guess, of its cost plus the floor of its parts:
        where a search of `subset` would start. A bound already remembered
        came from such a lookahead or from a search, which proves at least as
        much, so it is returned as it is. Sets of up to `KERNEL_MAX_SET` get
        the kernel's cheaper bound from how many answers a guess can get.
        """
        s = len(subset)
        solver = self.solver
        if not self.cost.per_secret:
            return self.memo_bound(subset, depth)  # one node per secret: a guess of the set meets the floor
        if s <= 2 or s > solver.caps[depth]:
            return self.lower_bound(subset, depth)
        if s <= KERNEL_MAX_SET:
            return int(_search_kernels._lookahead(
                solver.table, subset, depth, solver.solved, solver.caps, self.floor, self.kernel_exact,
                self.kernel_lower,
            ))
        key = (subset.tobytes(), depth)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        if key in self.lower:
            return self._known_bound(key, subset, depth)
        pool = solver.canonical_guesses(history) if s >= SYMMETRY_MIN_SET else solver.all_guesses
        least = _search_kernels._least_base(
            solver.table, subset, pool, solver.solved, solver.num_slots, self.floor, solver.caps[depth - 1]
        )
        lookahead = INFINITE if least >= INFINITE else self.cost.guess_cost(s) + int(least)
        bound = max(self.lower_bound(subset, depth), lookahead)
        self.lower[key] = bound
        return bound

    def _finish_guess(
        self, subset: np.ndarray, depth: int, history: tuple[int, ...], guess: int, total: int, limit: int,
        ordered: np.ndarray, starts: np.ndarray, slots: np.ndarray, known: np.ndarray,
    ) -> int:
        """The cost of `guess` on `subset` if below `limit`, else a lower bound >= `limit`.

        Takes `_open_guess`'s findings (`total`: the guess's bound with them):
        the large parts, first by size, are raised the way the kernel raised
        the small ones (to what the memo holds, then all but the largest by
        one guess of lookahead), then the parts are searched, largest first.
        """
        after = history + (guess,)
        for i, answer in enumerate(slots.tolist()):
            part = ordered[starts[answer] : starts[answer + 1]]
            if total >= limit or len(part) <= KERNEL_MAX_SET:
                break
            bound = self.memo_bound(part, depth - 1) if i == 0 else self.lookahead_bound(part, depth - 1, after)
            total += bound - int(known[answer])
            known[answer] = bound
        for answer in slots.tolist():
            if total >= limit:
                break
            if starts[answer + 1] - starts[answer] > 2:  # parts of at most 2 are exact in the floor
                part, part_known = ordered[starts[answer] : starts[answer + 1]], int(known[answer])
                total += self.solve(part, depth - 1, limit - total + part_known, after) - part_known
        return total

    def guess_value(self, subset: np.ndarray, depth: int, guess: int, bound: int, history: tuple[int, ...]) -> int:
        """The least cost of `subset` within `depth` guesses when the first is `guess`, if below `bound`.

        Otherwise a proven lower bound >= `bound`, as `solve` does for all guesses.
        """
        solver = self.solver
        parts = solver.split(subset, guess)
        base = self.cost.guess_cost(len(subset)) + sum(int(self.floor[len(part)]) for part in parts)
        if base >= bound:
            return base
        ordered, starts, slots, known, raised = _search_kernels._open_guess(
            solver.table, subset, guess, depth - 1, solver.solved, solver.num_slots, solver.caps, self.floor,
            self.cost.per_secret, self.kernel_exact, self.kernel_lower, KERNEL_MAX_SET, bound - base,
        )
        return self._finish_guess(
            subset, depth, history, guess, base + int(raised), bound, ordered, starts, slots, known
        )

    def memo_bound(self, subset: np.ndarray, depth: int) -> int:
        """The best proven lower bound the memos hold for `subset` (at least the floor); no search."""
        s = len(subset)
        if s <= 2 or s > self.solver.caps[depth]:
            return self.lower_bound(subset, depth)
        if s <= KERNEL_MAX_SET:
            return int(_search_kernels._memo_bound(subset, depth, self.floor, self.kernel_exact, self.kernel_lower)[0])
        key = (subset.tobytes(), depth)
        hit = self.exact.get(key)
        return hit[0] if hit is not None else self._known_bound(key, subset, depth)

    def _report(self, history: tuple[int, ...], guess: int, best: int | None) -> None:
        """A progress line at most every 2 s: where the search is and the best cost found there."""
        now = time.perf_counter()
        if now - self._last_report < 2.0:
            return
        self._last_report = now
        codes = self.solver.game.codes
        path = history + (guess,)
        where = " ".join(codes[g] for g in path[:4]) + (" ..." if len(path) > 4 else "")
        found = "none yet" if best is None else str(best)
        self.progress(f"at {where}: best here {found}; {self.nodes_searched} sets searched")

    def _perfect_guess(self, subset: np.ndarray, depth: int) -> int:
        """For node counts: the lowest still-possible guess of a tree using only such guesses, or -1."""
        solver = self.solver
        return int(
            _search_kernels._find_guess(
                solver.table, subset, depth, solver.no_guesses, solver.no_guesses,
                solver.solved, solver.num_slots, solver.caps,
            )
        )

    def candidates(
        self, subset: np.ndarray, depth: int, history: tuple[int, ...], bound: int = INFINITE, dedupe: bool = True
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """(guesses, lower bounds of the cost with each, least bound left out), most promising first.

        Kept: one guess per distinct partition (the lowest code; every guess
        with `dedupe=False`, when only the least bound matters), bound below
        `bound`. The third value is the least bound of the guesses left out
        for reaching `bound` (INFINITE if none): the search proves no less.
        """
        solver = self.solver
        s = len(subset)
        pool = solver.canonical_guesses(history) if s >= SYMMETRY_MIN_SET else solver.all_guesses
        guesses, bases, left_out = _search_kernels._candidate_guesses(
            solver.table, subset, pool, solver.solved, solver.num_slots, self.floor, solver.caps[depth - 1],
            self.cost.guess_cost(s), bound, dedupe,
        )
        return guesses, bases, int(left_out)

    def greedy(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> tuple[int, Node]:
        """A good tree quickly, as (cost, node): the best-bound guess at each node, exact on small sets.

        Its cost is an upper bound that lets the exact search prune from the start.
        """
        game = self.solver.game
        s = len(subset)
        if s == 1:
            return 1, node(game.codes[int(subset[0])])
        if s <= KERNEL_MAX_SET:
            cost = self.solve(subset, depth, INFINITE, history, kernel=False)
            if cost >= INFINITE:  # no tree within `depth`: the caller tries its next guess
                return INFINITE, node(game.codes[int(subset[0])])
            return cost, self.tree(subset, depth, history)
        for guess in self.candidates(subset, depth, history)[0].tolist():
            total = self.cost.guess_cost(s)
            children = {}
            for part in self.solver.split(subset, guess):
                sub_cost, children[self.solver.answer_to(guess, part)] = self.greedy(part, depth - 1, history + (guess,))
                total += sub_cost
                if sub_cost >= INFINITE:
                    break  # this guess cannot keep within `depth`
            if total < INFINITE:
                return total, node(game.codes[guess], children)
        return INFINITE, node(game.codes[int(subset[0])])

    def refine(self, subset: np.ndarray, depth: int, history: tuple[int, ...], budget: int) -> tuple[int, int, Node]:
        """(cost, proven lower bound, tree): exact if `budget` searched sets suffice, else best effort.

        Past the budget the best-bound guess is kept here and each of its
        parts is refined in turn, so only the top of a hard set stays greedy.
        The bound is the least, over every first guess, of its cost plus a
        bound of each part (the kept guess: its parts' refined bounds; the
        others: one more guess of lookahead).
        """
        s = len(subset)
        if s == 1:
            return 1, 1, node(self.solver.game.codes[int(subset[0])])
        greedy_cost, _ = self.greedy(subset, depth, history)
        self.budget = self.nodes_searched + budget
        try:
            cost = self.solve(subset, depth, greedy_cost + 1, history, kernel=False)
            return cost, cost, self.tree(subset, depth, history)
        except BudgetExceeded:
            pass
        finally:
            self.budget = None
        guesses, bases, _ = self.candidates(subset, depth, history)
        candidates = list(zip(guesses.tolist(), bases.tolist()))
        guess = candidates[0][0]
        total = lower = self.cost.guess_cost(s)
        children = {}
        for part in self.solver.split(subset, guess):  # parts of the kept guess
            part_cost, part_lower, children[self.solver.answer_to(guess, part)] = self.refine(
                part, depth - 1, history + (guess,), budget
            )
            total += part_cost
            lower += part_lower
        # Any other first guess costs at least its own cost plus its parts' bounds.
        for other, base in candidates[1:]:
            if base >= lower:
                break  # sorted by base: no later guess can go lower
            bound = self.cost.guess_cost(s)
            for part in self.solver.split(subset, other):
                bound += self.lookahead_bound(part, depth - 1, history + (other,))
                if bound >= lower:
                    break
            lower = min(lower, bound)
        if self.progress:
            self.progress(f"{len(subset)} secrets past the budget: total {total}, lower bound {lower}")
        return total, lower, node(self.solver.game.codes[guess], children)

    def tree(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> Node:
        """The tree of least cost for `subset`, read back from the search (lowest code on ties)."""
        game = self.solver.game
        if len(subset) == 1:
            return node(game.codes[int(subset[0])])
        _, guess = self.best_guess(subset, depth, history)
        return self.tree_after(subset, depth, guess, history)

    def tree_after(self, subset: np.ndarray, depth: int, guess: int, history: tuple[int, ...] = ()) -> Node:
        """The tree of least cost for `subset` whose first guess is `guess`."""
        children = {
            self.solver.answer_to(guess, part): self.tree(part, depth - 1, history + (guess,))
            for part in self.solver.split(subset, guess)
        }
        return node(self.solver.game.codes[guess], children)

    def best_guess(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> tuple[int, int]:
        """(least cost, lowest guess reaching it) for `subset` within `depth` guesses."""
        cost = self.solve(subset, depth, INFINITE, history, kernel=False)
        if len(subset) == 1:
            return cost, int(subset[0])
        if cost >= INFINITE:
            raise ValueError("no tree of that height exists")
        return cost, self.exact[(subset.tobytes(), depth)][1]
