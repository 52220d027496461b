"""Exact minimum of an additive cost over trees of bounded height: branch and bound.

A tree's cost adds up over its nodes: each guess made on a set S of
still-possible secrets with d guesses left costs `Cost.guess_cost(|S|, d)`.
Counting 1 per node gives the node count (the worst-case tie-break);
counting |S| gives the total number of guesses over all secrets (the
expected-length objective); counting 1 for a guess made with one guess left
gives crush, the secrets solved at the least height. A chain of these keys,
compared in order, is one weighted sum (`Cost.chain`).

In hard mode (`Solver.hard`) every guess is a still-possible code, that is a
code of the set being searched. The floors and lookahead bounds below hold
for any tree, so they hold for the fewer trees of hard mode too; a hard
search keeps its own memo (one `CostSearch` per solver and cost).

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
from typing import TYPE_CHECKING, Callable

import numpy as np

from ...compile_clock import Deadline
from ...treefile import Node, node
from . import _base_kernels, _context, _cost_kernels, _memo, _small_set_kernels, deep
from ..height import _height_kernels
from .cost_model import Cost, class_cost_floors, cost_floors, level_fills
from .greedy_trees import GREEDY_RULES
from .parts import largest_first, spread_over_parts
from ..height.solver import Progress, Solver

if TYPE_CHECKING:
    from .memo_store import MemoKeeper

INFINITE = _cost_kernels.INFINITE

# Sets at least this large are searched over canonical guesses only (symmetry). Below the kernel's sets this counts
# where a set is searched here whole (a small part of the first guess, `kernel=False`): in-process expected builds on
# one core, 2026-11-28, 24 -> 16: 3 of 10 0.080 -> 0.066 s, 4 of 9 0.613 -> 0.567, Mastermind 4x6 and 4x7 and 4 of 10
# within the noise; 4 to 16 alike on 3 of 10.
SYMMETRY_MIN_SET = 16
# Sets at least this large are also searched over one guess per orbit of their own symmetries; below it,
# listing a set's maps and filtering its guesses cost more than the guesses they save (in-process expected
# builds on one core, 2026-11-27: 4 of 10 20.8 -> 19.4 s CPU, 4 of 9 2.59 -> 2.46, Mastermind 4x7 2.64 -> 2.55).
# `refine` lowers it to 0 (`CostSearch.set_symmetry_min_set`): see there.
SET_SYMMETRY_MIN_SET = 150
# For costs counting total guesses, on sets at least this large a guess the kernel's screen leaves is bounded two
# guesses deep (`deep.guess_bound`) before any search below it: most guesses that are not the best are ruled out so,
# far cheaper than by searching their parts (in-process expected builds on one core, 2026-11-27: 4 of 10 21.0 -> 11.2
# s CPU, 4 of 9 2.14 -> 1.28, Mastermind 4x7 2.30 -> 2.05). `refine` turns it off (`CostSearch.deep_screen_min_set`).
DEEP_SCREEN_MIN_SET = 400
# The same on a word list's sets (`Solver.symmetric` off): no relabellings cut a set's guesses to a few classes, so
# bounding one two guesses deep tries every guess of every large part, and below about a thousand secrets that costs
# more than it saves (`en-4`, the exact search of four first guesses below 7,523, ranks 20, 300, 700 and 1200 of
# `scripts/probe_list_bounds.py refute`, one process, 2026-12-04: 84.7 s of CPU at 400, 67.6 at 700 to 1500 (the root
# only), 92.4 at 200, 101.2 with no screen).
LIST_DEEP_SCREEN_MIN_SET = 1000
# Node counts: sets at most this large first try the kernel's search for a tree of
# still-possible guesses (no memo); larger ones leave it to the memoised search.
PERFECT_CHECK_MAX_SET = 100
# A search keeps its memo as long as it lives (an exact build's worker: the whole run). Past this many of the kernel's
# bounds (rows of 24 bytes, at most two thirds full) or of the Python levels' bounds (keyed by the sets' bytes: hundreds
# each) it forgets them (values stay: far fewer, and trees are read from them). Counted between steps
# (`CostSearch.between_steps`: a set searched here, a guess finished, a greedy step, a small set named), from the
# `MEMO_CHECK_FROM_SETS`-th set searched here on, so that small builds never load the counting kernel. Without a cap an
# exact 5 of 9 worker grew about 2.5 MB per second of CPU, the kernel's bounds nearly all of it (2026-11-28). `refine`
# turns the caps off (`CostSearch.memo_caps`): a budgeted build's tree depends on the sets its budget reaches.
MEMO_CAP_KERNEL_BOUNDS = 20_000_000
MEMO_CAP_BOUNDS = 1_000_000
MEMO_CHECK_FROM_SETS = 256
# Sets at most this large are valued by the numba kernel `_least_cost` (own memo, no symmetry).
KERNEL_MAX_SET = 30
# A search's progress lines come at most this often (seconds).
REPORT_SECONDS = 2.0


def _writable(subset: np.ndarray) -> np.ndarray:
    """`subset`, or a copy of it if it is read-only: Ray hands parts over so, and `_small_set_kernels._small_set`
    crashes on a read-only array once numba loads that signature from its cache (a segfault)."""
    return subset if subset.flags.writeable else subset.copy()


class BudgetExceeded(Exception):
    """The search examined more sets than its budget allowed; nothing it returned is wrong, it just stopped."""


class CostSearch:
    """Branch and bound for one cost over one game, sharing a `Solver`'s tables.

    While `refine.refine` runs, `budget` caps the sets searched here (not in the
    kernel); past it `solve` raises `BudgetExceeded`. It counts work, not
    time, so runs are reproducible. Sets of `set_symmetry_min_set` secrets
    or more are searched over one guess per orbit of their own symmetries
    (`SET_SYMMETRY_MIN_SET`); on sets of `deep_screen_min_set` or more a
    guess is bounded two guesses deep before it is searched
    (`DEEP_SCREEN_MIN_SET`; `LIST_DEEP_SCREEN_MIN_SET` on a word list). With `small_set_shortcuts` (the default) a set
    the kernel values right after a history tries only the history's
    canonical guesses, and a small set's best guess is named by a kernel;
    both change which bounds the memo holds, so budgeted builds, whose
    trees depend on the sets a budget reaches, turn them off, as they turn
    off `memo_caps` (bounds forgotten past `MEMO_CAP_BOUNDS`) and `spread_slack`
    (a guess's parts searched in rounds, `parts.spread_over_parts`; without
    it, `parts.largest_first`). `deadline`
    (a `Deadline`, which leaves out compiling) stops a search the same way
    once passed: for callers that answer in bounded time
    (`bactree.coach`) rather than reproducibly.
    """

    def __init__(
        self, solver: Solver, cost: Cost, progress: Progress | None = None, greedy_rule: str = "bound",
        class_bounds: bool = True,
    ) -> None:
        """`class_bounds`: bound a guess's parts by their answer class (`Solver.class_caps`, built for the whole game:
        seconds on the largest ones) where the cost counts guesses; without, by their size alone (weaker, as valid)."""
        if greedy_rule not in GREEDY_RULES:
            raise ValueError(f"unknown greedy rule {greedy_rule!r}: choose one of {', '.join(GREEDY_RULES)}")
        self.solver = solver
        self.greedy_rule = greedy_rule
        self.budget: int | None = None
        self.set_symmetry_min_set = SET_SYMMETRY_MIN_SET
        self.deep_screen_min_set = DEEP_SCREEN_MIN_SET if solver.symmetric else LIST_DEEP_SCREEN_MIN_SET
        self.small_set_shortcuts = True
        self.memo_caps = True
        self.spread_slack = True
        self.deadline: Deadline | None = None
        self.progress = progress
        self._last_report = time.perf_counter()
        self.cost = cost
        self.weights = np.array(cost.weights, np.int64)
        self.hard = solver.hard
        self.branching = len(solver.game.answers) - 1
        self.level_fill = level_fills(solver.num_secrets + 2, self.branching)
        self.floor = cost_floors(cost, solver.caps, self.level_fill)
        self.lookahead = cost.weights[1] > 0  # the kernels' lookahead bounds total guesses
        # Floors by answer class take a row per orbit of codes: a few in a game of every code, but one per code in a
        # word list's (no relabellings), past memory there (1,500 words: orbits x answers x sizes x depths): off.
        if self.lookahead and class_bounds and solver.symmetric:
            class_caps = solver.class_caps
            class_totals = class_caps.floors(solver.num_secrets + 1)
            class_totals[:, solver.solved] = self.level_fill
            self.orbit_of = class_caps.orbit_of
        else:  # nodes and crush, word lists (or no class bounds): no bound by class, one orbit
            class_totals = np.broadcast_to(self.level_fill, (1, solver.num_slots, len(self.level_fill)))
            self.orbit_of = np.zeros(solver.num_codes, np.int64)
        self.class_floor = class_cost_floors(cost, self.floor, self.level_fill, class_totals)
        self.exact: dict[tuple[bytes, int], tuple[int, int]] = {}
        self.kernel_memo = _memo._new_memo()
        self.kernel_bounds_forgotten = 0  # how often `_cap_memo` dropped the kernel's bounds
        self.context = self._new_context()
        self.lower: dict[tuple[bytes, int], int] = {}
        # `greedy_trees`' trees and totals, per (set, depth, history).
        self.greedy_tree_memo: dict[tuple[bytes, int, tuple[int, ...]], tuple[int, Node]] = {}
        self.greedy_total_memo: dict[tuple[bytes, int, tuple[int, ...]], tuple[int, int]] = {}
        self.nodes_searched = 0
        self.keeper: MemoKeeper | None = None  # notes the sets long to settle, for a file (`memo_store`)

    # -- bounds -----------------------------------------------------------
    def lower_bound(self, subset: np.ndarray, depth: int) -> int:
        """A cheap proven lower bound on the cost of `subset` within `depth` guesses."""
        s = len(subset)
        if s > self.solver.caps[depth]:
            return INFINITE
        return int(self.floor_at(depth)[s])

    @property
    def kernel_max_set(self) -> int:
        """The largest set the numba kernel values (`KERNEL_MAX_SET`, read when asked: tests lower it)."""
        return KERNEL_MAX_SET

    def floor_at(self, depth: int) -> np.ndarray:
        """Proven lower bounds by set size within `depth` guesses (`cost_floors`)."""
        return self.floor[min(depth, len(self.floor) - 1)]

    def part_floor_at(self, depth: int) -> np.ndarray:
        """Proven lower bounds [orbit, answer, size] of a guess's parts within `depth` guesses (`class_cost_floors`)."""
        return self.class_floor[min(depth, len(self.class_floor) - 1)]

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
            return int(self.floor_at(depth)[1]) if depth >= 1 else INFINITE
        if s > self.solver.caps[depth]:
            return INFINITE
        if kernel and s <= KERNEL_MAX_SET:
            return int(
                _small_set_kernels._small_set_in(
                    self.context, _writable(subset), depth, bound, self._history_pool(subset, history), -1,
                )
            )
        key = (subset.tobytes(), depth)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        floor = self._known_bound(key, subset, depth)
        if floor >= bound:
            return floor
        if self.cost.nodes_only and s <= PERFECT_CHECK_MAX_SET:
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
        self.between_steps()
        started = time.process_time()
        best, best_guess = bound, -1
        own_symmetry = s >= self.set_symmetry_min_set
        guesses, bases, fail_low = self.candidates(subset, depth, history, bound, own_symmetry=own_symmetry)
        best, best_guess, fail_low = self.best_of(subset, depth, history, guesses, bases, 0, best, best_guess, fail_low)
        if best_guess >= 0:
            self.exact[key] = (best, best_guess)
        else:
            self.lower[key] = max(self.lower.get(key, 0), floor, fail_low)
        if self.keeper is not None:
            self.keeper.searched(key, started)
        return best if best_guess >= 0 else max(floor, fail_low)

    def best_of(
        self, subset: np.ndarray, depth: int, history: tuple[int, ...], guesses: np.ndarray, bases: np.ndarray,
        index: int, best: int, best_guess: int, fail_low: int, decided: Callable[[int, int, int, int], None] | None = None,
    ) -> tuple[int, int, int]:
        """(best, its guess or -1, fail_low): `solve`'s loop over `candidates`' `guesses` from `index` on.

        `best` is the cost to beat, reached by `best_guess` (-1: none yet);
        `fail_low` the least proven bound among the guesses that cannot beat
        it. The kernel skips the guesses whose small parts' bounds rule them
        out; each one it stops at is finished here (large parts raised, then
        the parts searched), and then `decided(index, best, best_guess,
        fail_low)` is called: every guess before `index` is decided, so a
        caller can save those four and later resume the loop from them
        (`bactree.pipeline.first_guesses`, the root of a word list's build).
        """
        while True:
            index, fail_low, ordered, starts, slots, known, raised = _cost_kernels._screen_guesses_in(
                self.context, subset, guesses, bases, index, depth - 1, best, best_guess, fail_low,
            )
            if index >= len(guesses):
                return best, best_guess, fail_low
            guess, base = int(guesses[index]), int(bases[index])
            index += 1
            # Ties are taken only by a lower code, so the lowest optimal guess wins.
            limit = best + 1 if (best_guess >= 0 and guess < best_guess) else best
            total = self._finish_guess(
                subset, depth, history, guess, base, int(raised), limit, ordered, starts, slots, known
            )
            if total < limit:
                best, best_guess = total, guess
            else:
                fail_low = min(fail_low, total)
            self.between_steps()  # a guess of a large set may take seconds, and every set below it may be the kernel's
            if self.progress:
                self._report(history, guess, best if best_guess >= 0 else None)
            if decided is not None:
                decided(index, best, best_guess, fail_low)

    def _history_pool(self, subset: np.ndarray, history: tuple[int, ...]) -> np.ndarray:
        """The guesses canonical under the stabiliser of `history` for the kernel to try on `subset` (the set those
        guesses left), or an empty array when the history is unknown (empty), when `subset` is not every code
        giving the history's answers, when the stabiliser leaves every code canonical, or without
        `small_set_shortcuts`.

        Deep in its own search the kernel knows no history and tries one
        code per class of relabellings of the symbols the set does not use;
        just below the first guesses the history's symmetries are far more
        (on 3 of 10, a search 2.3 times faster). The kernel takes the
        smaller of the two pools.
        """
        if not history or not self.small_set_shortcuts:
            return subset[:0]
        solver = self.solver
        pool = solver.canonical_guesses(history)
        if pool is solver.all_guesses:
            return subset[:0]
        if not solver.history_determines(subset, history):
            return subset[:0]  # a set searched from some other root (a caller's own set): the stabiliser need not keep it
        if self.hard:
            pool = np.intersect1d(pool, subset, assume_unique=True)
        return pool

    def _new_context(self) -> _context.Context:
        """The kernels' view of this search (`_context`): its constant arrays and its kernel memo table, shared.

        Made when the search is (the cap empties the memo table in place):
        whoever replaces one of these arrays afterwards (a test's floors), or
        lowers `KERNEL_MAX_SET` once the search is made, must make it again.
        """
        solver = self.solver
        # Without lookahead no regrouped table: the kernels compile without the lookahead's code.
        new = _context._new_context if self.lookahead else _context._new_no_lookahead_context
        return new(
            _context.readonly(solver.table), _context.readonly(solver.by_secret), solver.grouped if self.lookahead else None,
            solver.codes, solver.solved, solver.num_slots, solver.caps, self.floor, self.class_floor, self.orbit_of,
            self.lookahead, self.level_fill, self.weights, self.hard, solver.symmetric, self.kernel_memo, KERNEL_MAX_SET,
        )

    def _cap_memo(self) -> None:
        """Forget the bounds past `MEMO_CAP_KERNEL_BOUNDS` or `MEMO_CAP_BOUNDS`, but those a `keeper` writes to its file.

        Forgetting is always sound (a set without a bound is searched again)
        and depends only on counts, so a build stays reproducible.
        """
        if _memo._memo_bounds(self.kernel_memo) > MEMO_CAP_KERNEL_BOUNDS:
            _memo._memo_forget_bounds(self.kernel_memo)
            self.kernel_bounds_forgotten += 1
        if len(self.lower) > MEMO_CAP_BOUNDS:
            kept = self.keeper.keys if self.keeper is not None else ()
            self.lower = {key: self.lower[key] for key in kept if key in self.lower}

    def between_steps(self) -> None:
        """Between two steps of a search (a set begun, a guess finished, a greedy step, a small set named):
        `check_deadline`, and forget bounds past the memo's caps (`_cap_memo`) once this search has searched
        `MEMO_CHECK_FROM_SETS` sets."""
        self.check_deadline()
        if self.memo_caps and self.nodes_searched >= MEMO_CHECK_FROM_SETS:
            self._cap_memo()

    def check_deadline(self) -> None:
        """Stop (`BudgetExceeded`) once the clock is past `deadline`: `solve` asks at every set, `deep` at every guess."""
        if self.deadline is not None and self.deadline.passed():
            raise BudgetExceeded

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
        if self.cost.nodes_only:
            return self.memo_bound(subset, depth)  # one node per secret: a guess of the set meets the floor
        if s <= 2 or s > solver.caps[depth]:
            return self.lower_bound(subset, depth)
        if s <= KERNEL_MAX_SET:
            if not self.lookahead:
                return self.memo_bound(subset, depth)  # the kernel's bound counts total guesses
            return int(_cost_kernels._lookahead_in(self.context, subset, depth))
        key = (subset.tobytes(), depth)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        if key in self.lower:
            return self._known_bound(key, subset, depth)
        pool = solver.guess_pool(subset, history, s >= SYMMETRY_MIN_SET)
        least = _base_kernels._least_base(
            solver.table, solver.by_secret, solver.grouped, subset, pool, solver.solved, solver.num_slots,
            self.part_floor_at(depth - 1),
            self.orbit_of, solver.caps[depth - 1], self.floor_at(depth - 1),
        )
        lookahead = INFINITE if least >= INFINITE else self.cost.guess_cost(s, depth) + int(least)
        bound = max(self.lower_bound(subset, depth), lookahead)
        self.lower[key] = bound
        return bound

    def _finish_guess(
        self, subset: np.ndarray, depth: int, history: tuple[int, ...], guess: int, base: int, raised: int, limit: int,
        ordered: np.ndarray, starts: np.ndarray, slots: np.ndarray, known: np.ndarray,
    ) -> int:
        """The cost of `guess` on `subset` if below `limit`, else a lower bound >= `limit`.

        Takes `_open_guess`'s findings (`base`: the guess's bound from its
        parts' floors, `raised`: how far they lifted it). On a large set the
        guess is first bounded two guesses deep (`deep.guess_bound`), which
        rules out most guesses that cannot reach `limit` with no search below
        them. Then the large parts, first by size, are raised the way the
        kernel raised the small ones (to what the memo holds, then all but
        the largest by one guess of lookahead), and the parts are searched
        (`parts`: the slack spread over them, or largest first).
        """
        if self.lookahead and len(subset) >= self.deep_screen_min_set and base + raised < limit < INFINITE:
            bound = deep.guess_bound(self, subset, depth, history, guess, base, limit)
            if bound >= limit:
                return bound
        total = base + raised
        after = history + (guess,)
        for i, answer in enumerate(slots.tolist()):
            part = ordered[starts[answer] : starts[answer + 1]]
            if total >= limit or len(part) <= KERNEL_MAX_SET:
                break
            bound = self.memo_bound(part, depth - 1) if i == 0 else self.lookahead_bound(part, depth - 1, after)
            if bound > known[answer]:  # the class floor may be higher still
                total += bound - int(known[answer])
                known[answer] = bound
        search_parts = spread_over_parts if self.spread_slack else largest_first
        return search_parts(self, depth - 1, after, limit, total, ordered, starts, slots, known)

    def guess_value(self, subset: np.ndarray, depth: int, guess: int, bound: int, history: tuple[int, ...]) -> int:
        """The least cost of `subset` within `depth` guesses when the first is `guess`, if below `bound`.

        Otherwise a proven lower bound >= `bound`, as `solve` does for all guesses.
        """
        solver = self.solver
        parts = solver.split(subset, guess)
        part_floor = self.part_floor_at(depth - 1)[self.orbit_of[guess]]
        base = self.cost.guess_cost(len(subset), depth) + sum(
            int(part_floor[solver.table[guess, part[0]], len(part)]) for part in parts
        )
        if base >= bound:
            return base
        ordered, starts, slots, known, raised = _cost_kernels._open_guess_in(self.context, subset, guess, depth - 1, bound - base)
        return self._finish_guess(subset, depth, history, guess, base, int(raised), bound, ordered, starts, slots, known)

    def remember_lower(self, subset: np.ndarray, depth: int, bound: int) -> None:
        """Keep `bound`, proven of `subset` within `depth` guesses: for sets above the kernel's size (smaller ones
        are the kernel memo's)."""
        key = (subset.tobytes(), depth)
        self.lower[key] = max(self.lower.get(key, 0), bound)

    def memo_bound(self, subset: np.ndarray, depth: int) -> int:
        """The best proven lower bound the memos hold for `subset` (at least the floor); no search."""
        s = len(subset)
        if s <= 2 or s > self.solver.caps[depth]:
            return self.lower_bound(subset, depth)
        if s <= KERNEL_MAX_SET:
            return int(_cost_kernels._memo_bound_in(self.context, subset, depth)[0])
        key = (subset.tobytes(), depth)
        hit = self.exact.get(key)
        return hit[0] if hit is not None else self._known_bound(key, subset, depth)

    def _report(self, history: tuple[int, ...], guess: int, best: int | None) -> None:
        """A progress line at most every `REPORT_SECONDS`: where the search is and the best cost found there."""
        now = time.perf_counter()
        if now - self._last_report < REPORT_SECONDS:
            return
        self._last_report = now
        codes = self.solver.names
        path = history + (guess,)
        where = " ".join(codes[g] for g in path[:4]) + (" ..." if len(path) > 4 else "")
        found = "none yet" if best is None else str(best)
        self.progress(f"at {where}: best here {found}; {self.nodes_searched} sets searched")

    def _perfect_guess(self, subset: np.ndarray, depth: int) -> int:
        """For node counts: the lowest still-possible guess of a tree using only such guesses, or -1."""
        solver = self.solver
        return int(
            _height_kernels._find_guess(
                solver.table, solver.by_secret, subset, depth, solver.no_guesses, solver.no_guesses,
                solver.solved, solver.num_slots, solver.caps,
            )
        )

    def candidates(
        self, subset: np.ndarray, depth: int, history: tuple[int, ...], bound: int = INFINITE, dedupe: bool = True,
        own_symmetry: bool = False,
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """(guesses, lower bounds of the cost with each, least bound left out), most promising first.

        Kept: one guess per distinct partition (the lowest code; every guess
        with `dedupe=False`, when only the least bound matters), bound below
        `bound`. The third value is the least bound of the guesses left out
        for reaching `bound` (INFINITE if none): the search proves no less.
        With `own_symmetry` (the search), one guess of each orbit under the
        set's own symmetries: the lowest best guess is still among them
        (its images cost the same), but listings of guesses keep every class.
        """
        solver = self.solver
        s = len(subset)
        pool = solver.guess_pool(subset, history, s >= SYMMETRY_MIN_SET, own=own_symmetry)
        guesses, bases, left_out = _base_kernels._candidate_guesses(
            solver.table, solver.by_secret, subset, pool, solver.solved, solver.num_slots, self.part_floor_at(depth - 1),
            self.orbit_of, solver.caps[depth - 1], self.cost.guess_cost(s, depth), bound, dedupe,
        )
        return guesses, bases, int(left_out)

    def tree(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> Node:
        """The tree of least cost for `subset`, read back from the search (lowest code on ties)."""
        if len(subset) == 1:
            return node(self.solver.names[int(subset[0])])
        _, guess = self.best_guess(subset, depth, history)
        return self.tree_after(subset, depth, guess, history)

    def tree_after(self, subset: np.ndarray, depth: int, guess: int, history: tuple[int, ...] = ()) -> Node:
        """The tree of least cost for `subset` whose first guess is `guess`."""
        children = {
            self.solver.answer_to(guess, part): self.tree(part, depth - 1, history + (guess,))
            for part in self.solver.split(subset, guess)
        }
        return node(self.solver.names[guess], children)

    def best_guess(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> tuple[int, int]:
        """(least cost, lowest guess reaching it) for `subset` within `depth` guesses."""
        cost = self.solve(subset, depth, INFINITE, history)  # a small set's value from the kernel, mostly remembered
        if len(subset) == 1:
            return cost, int(subset[0])
        if cost >= INFINITE:
            raise ValueError("no tree of that height exists")
        key = (subset.tobytes(), depth)
        if key not in self.exact and self.small_set_shortcuts and not self.cost.nodes_only and len(subset) <= KERNEL_MAX_SET:
            self.between_steps()  # as the search below would, at every set
            guess = int(_small_set_kernels._small_set_in(
                self.context, _writable(subset), depth, INFINITE, self._history_pool(subset, history), cost,
            ))
            if guess >= 0:  # always, as the value is the set's least: else the search below names it
                self.exact[key] = (cost, guess)
        if key not in self.exact:
            # Searched here to name the guess; bounded by the value, the screen drops every guess that cannot reach it,
            # and the lowest guess reaching it is still the one kept.
            self.solve(subset, depth, cost + 1, history, kernel=False)
        return cost, self.exact[key][1]
