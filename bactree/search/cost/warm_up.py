"""Compile the cost search's kernels ahead of their first use: `compile_kernels` runs a few small searches.

A worst-case build searches for the least height first and only then runs
the tie-break's cost search, so on an empty numba cache it compiles the
height search's kernels and then, one after the other, the cost search's
(each about half of a first run's minute). `compile_kernels` calls each
cost kernel the tie-break calls, with the same argument types (the same
solver's arrays, a `CostSearch` of the same cost), on small sets of the
game; numba compiles them and writes them to its cache (`cache=True`), so
a second process running it while the first searches for the height
(`bactree.pipeline.warm_up`) leaves the first only to load them. Which
results these searches find does not matter, and nothing they remember is
shared: only the cache on disk.
"""

from __future__ import annotations

import numpy as np

from ..height.solver import Solver
from .cost_model import Cost
from .search import INFINITE, KERNEL_MAX_SET, PERFECT_CHECK_MAX_SET, BudgetExceeded, CostSearch

# Python-level sets each warm-up search may take: enough to reach the kernels below its set, no more.
WARM_UP_BUDGET = 4


def warm_up_sets(solver: Solver) -> list[np.ndarray]:
    """Parts of the game's secrets under its first code, one of each size the search treats its own way.

    The smallest part above `PERFECT_CHECK_MAX_SET` (the screen of guesses
    and `_candidate_guesses`), above `KERNEL_MAX_SET` (the perfect-guess
    check of `_find_guess`) and of 3 or more secrets (`_small_set`'s kernel):
    those there are, largest first.
    """
    secrets = solver.secrets
    answers = solver.table[0, secrets]
    parts = sorted((secrets[answers == answer] for answer in np.unique(answers)), key=len)
    chosen = []
    for low in (PERFECT_CHECK_MAX_SET, KERNEL_MAX_SET, 2):
        part = next((part for part in parts if len(part) > low), None)
        if part is not None and not any(part is kept for kept in chosen):
            chosen.append(part)
    return chosen


def compile_candidates(solver: Solver, cost: Cost) -> None:
    """Call `_candidate_guesses` and `_screen_guesses_in`, which list and screen a set's guesses, as a search would.

    The build's own share of the warm-up (`bactree.pipeline.warm_up`): it
    compiles these kernels while the second process compiles the small
    sets' search, which takes longer, so that the second process then loads
    them. The screen is called past the last guess: compiled, nothing run.
    """
    sets = warm_up_sets(solver)
    if sets:
        search = CostSearch(solver, cost)
        guesses, bases, _ = search.candidates(sets[0], len(solver.caps) - 1, ())
        search.best_of(sets[0], len(solver.caps) - 1, (), guesses, bases, len(guesses), INFINITE, -1, INFINITE)


def compile_kernels(solver: Solver, cost: Cost) -> None:
    """Call the kernels of a search for the least `cost` on `solver`'s game once each, so that numba compiles them.

    Each set of `warm_up_sets` is valued within every guess the solver
    allows (within a budget of `WARM_UP_BUDGET` sets: past it the search
    stops, its kernels called) and the smallest's tree is named. The types
    of every argument are those of the build's own search, so the build then
    loads from numba's cache what was compiled here. The smallest set comes
    first: its kernel (`_small_set_in`) takes longest, and the larger sets'
    `_candidate_guesses` is by then in the cache if the build compiled it
    meanwhile (`compile_candidates`).
    """
    search = CostSearch(solver, cost)
    depth = len(solver.caps) - 1
    sets = warm_up_sets(solver)
    for subset in reversed(sets):
        search.budget = search.nodes_searched + WARM_UP_BUDGET
        try:
            search.solve(subset, depth)
        except BudgetExceeded:
            pass
    search.budget = None
    if sets and len(sets[-1]) <= KERNEL_MAX_SET:
        search.tree(sets[-1], depth)
