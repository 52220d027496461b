"""Budgeted search: a good tree with a proven lower bound where the exact search would take too long.

`refine` gives a set the exact search within a budget of searched sets;
past it, it keeps the greedy rule's guess (`greedy_trees.greedy_order`) and
refines each of its parts in turn, so only the top of a hard set stays
greedy. Its lower bound is the least, over every guess, of the guess's cost
plus a bound of each of its parts: the kept guess's parts' refined bounds,
and for every other guess one guess of lookahead, two on large sets where
one is not enough (`bactree.search.cost.deep`).
"""

from __future__ import annotations

import numpy as np

from ...treefile import Node, node
from . import search as cost
from .search import INFINITE, BudgetExceeded, CostSearch
from .deep import DEEPER_CALLS, others_bound
from .greedy_trees import greedy_order, greedy_tree

# `refine` reports the sets past its budget from this size up.
REPORT_MIN_SET = 200


def refine(
    search: CostSearch, subset: np.ndarray, depth: int, history: tuple[int, ...], budget: int,
    deeper_calls: int = DEEPER_CALLS,
) -> tuple[int, int, Node]:
    """(cost, proven lower bound, tree): exact if `budget` searched sets suffice, else best effort.

    Past the budget the greedy rule's guess is kept here and each of its
    parts is refined in turn, so only the top of a hard set stays greedy;
    sets of up to `KERNEL_MAX_SET` secrets are always exact. The bound is
    the least, over every first guess, of its cost plus a bound of each
    part (the kept guess: its parts' refined bounds; the others: one more
    guess of lookahead, and up to `deeper_calls` of their large parts per
    set one more: more calls, a higher bound for more work).

    Every set searched counts against the budget, and trying one guess per
    orbit of a set's own symmetries at every size searches fewest: `search`
    does so from here on (`CostSearch.set_symmetry_min_set` 0), and does not
    bound guesses two deep before searching them
    (`CostSearch.deep_screen_min_set`) nor take the small sets' shortcuts
    (`CostSearch.small_set_shortcuts`) nor cap its memo
    (`CostSearch.memo_caps`) nor spread a guess's slack over its parts
    (`CostSearch.spread_slack`), as the budgeted trees shipped were built.
    """
    search.set_symmetry_min_set = 0
    search.deep_screen_min_set = INFINITE
    search.small_set_shortcuts = False
    search.memo_caps = False
    search.spread_slack = False
    return _refined(search, subset, depth, history, budget, deeper_calls)


def _refined(
    search: CostSearch, subset: np.ndarray, depth: int, history: tuple[int, ...], budget: int, deeper_calls: int
) -> tuple[int, int, Node]:
    """`refine`'s recursion: the set and each part of its kept guess, in turn."""
    s = len(subset)
    if s == 1:
        alone = int(search.floor_at(depth)[1])
        return alone, alone, node(search.solver.names[int(subset[0])])
    if s <= cost.KERNEL_MAX_SET or budget > 0:  # with no budget, a large set's search stops at once
        greedy_cost, _ = greedy_tree(search, subset, depth, history)
        search.budget = search.nodes_searched + budget
        try:
            value = search.solve(subset, depth, greedy_cost + 1, history, kernel=False)
            return value, value, search.tree(subset, depth, history)
        except BudgetExceeded:
            pass
        finally:
            search.budget = None
    guesses, bases, _ = search.candidates(subset, depth, history)
    guess = greedy_order(search, subset, depth, history, guesses)[0]
    total = lower = search.cost.guess_cost(s, depth)
    children = {}
    for part in search.solver.split(subset, guess):  # parts of the kept guess
        part_cost, part_lower, children[search.solver.answer_to(guess, part)] = _refined(
            search, part, depth - 1, history + (guess,), budget, deeper_calls
        )
        total += part_cost
        lower += part_lower
    lower = others_bound(search, subset, depth, history, guesses, bases, guess, lower, deeper_calls=deeper_calls)
    if search.progress and s >= REPORT_MIN_SET:
        search.progress(f"{len(subset)} secrets past the budget: total {total}, lower bound {lower}")
    return total, lower, node(search.solver.names[guess], children)
