"""Greedy trees of the least-cost search: a good tree quickly, whose cost bounds the exact search from above.

At each set a greedy tree makes the greedy rule's guess (`GREEDY_RULES`,
`greedy_order`) and values small sets exactly (`CostSearch.kernel_max_set`).
An exact build starts a large part's search below the greedy total
(`greedy_total`, no tree built); a budgeted build (`refine`) starts from the
greedy tree (`greedy_tree`) and keeps the rule's guess where its budget
runs out. Both are remembered in the `CostSearch` they are given
(`greedy_tree_memo`, `greedy_total_memo`), which they call back into, typed by
`state.SearchState` so that this file does not import the search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ...game import _answer_kernels
from .. import _greedy_kernels as _strategy_kernels
from ...treefile import Node, node
from ._cost_kernels import INFINITE

if TYPE_CHECKING:
    from .state import SearchState

# Rules for the guess a greedy tree (and `refine` past its budget) makes: see `greedy_order`.
GREEDY_RULES = ("bound", "entropy")


def greedy_tree(search: SearchState, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> tuple[int, Node]:
    """A good tree quickly, as (cost, node): the greedy rule's guess at each node, exact on small sets.

    Budgeted builds (`refine.refine`) start from its cost, and their
    budgets count the sets searched, so the small sets' trees are read
    back here as they always were (the shipped budgeted trees depend on
    it). Remembered per (set, depth, history), so that `refine`, which
    asks again for each part, walks the greedy tree once.
    """
    names = search.solver.names
    s = len(subset)
    if s == 1:
        return int(search.floor_at(depth)[1]), node(names[int(subset[0])])
    if s <= search.kernel_max_set:
        cost = search.solve(subset, depth, INFINITE, history, kernel=False)
        if cost >= INFINITE:  # no tree within `depth`: the caller tries its next guess
            return INFINITE, node(names[int(subset[0])])
        return cost, search.tree(subset, depth, history)
    key = (subset.tobytes(), depth, history)
    known = search.greedy_tree_memo.get(key)
    if known is None:
        cost, guess, below = _greedy_step(search, subset, depth, history, greedy_tree)
        children = {search.solver.answer_to(guess, part): sub_node for part, (_, sub_node) in below}
        known = search.greedy_tree_memo[key] = cost, node(names[guess], children)
    return known


def greedy_total(search: SearchState, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> tuple[int, int]:
    """(cost, first guess) of `greedy_tree`'s tree, without building it: an upper bound for the exact search.

    Small sets are valued by the kernel, which names no guess (their first
    guess is given as -1): `greedy_tree` reads their trees back, a search of
    every guess of each small set that an exact build would throw away.
    """
    s = len(subset)
    if s == 1:
        return int(search.floor_at(depth)[1]), int(subset[0])
    if s <= search.kernel_max_set:
        return search.solve(subset, depth, INFINITE, history), -1
    key = (subset.tobytes(), depth, history)
    known = search.greedy_total_memo.get(key)
    if known is None:
        search.between_steps()
        cost, guess, _ = _greedy_step(search, subset, depth, history, greedy_total)
        known = search.greedy_total_memo[key] = cost, guess
    return known


def _greedy_step(
    search: SearchState, subset: np.ndarray, depth: int, history: tuple[int, ...], value_of: Callable[..., tuple[int, Any]]
) -> tuple[int, int, list[tuple[np.ndarray, tuple[int, Any]]]]:
    """(total, guess, [(part, value_of(part))]) for the first guess in the greedy order whose parts keep within
    `depth`, each part valued by `value_of(search, part, depth - 1, history + (guess,))`; (INFINITE, lowest secret,
    []) when none does."""
    s = len(subset)
    for guess in greedy_order(search, subset, depth, history, search.candidates(subset, depth, history)[0]):
        total, below = search.cost.guess_cost(s, depth), []
        for part in search.solver.split(subset, guess):
            value = value_of(search, part, depth - 1, history + (guess,))
            below.append((part, value))
            total += value[0]
            if value[0] >= INFINITE:
                break  # this guess cannot keep within `depth`
        if total < INFINITE:
            return total, guess, below
    return INFINITE, int(subset[0]), []


def greedy_order(
    search: SearchState, subset: np.ndarray, depth: int, history: tuple[int, ...], guesses: np.ndarray
) -> list[int]:
    """`CostSearch.candidates`' guesses in the order a greedy tree tries them on `subset`: the rule's pick first.

    Rule "bound": the best-bound guess (the first candidate). Rule
    "entropy": the guess whose answer has the most entropy (every part
    counted, the all-bulls one too; ties: a still-possible code, then the
    first in the candidates' order, best bound first), as the `entropy`
    strategy plays. Candidates hold the lowest code of each distinct
    partition, and a partition's codes share their entropy and whether
    they are still possible, so the pick is the strategy's unless
    several partitions tie on both: the strategy then takes the lowest
    code, this rule the best bound.
    """
    order = guesses.tolist()
    if search.greedy_rule == "bound" or len(order) < 2:
        return order
    solver = search.solver
    counts = _answer_kernels._partition_counts(solver.by_secret, guesses, subset, solver.num_slots).astype(np.float64)
    scores = (counts * np.log2(np.maximum(counts, 1.0))).sum(axis=1)
    possible = counts[:, solver.solved] > 0
    pick = order[int(_strategy_kernels._pick_best(scores, possible))]
    return [pick] + [guess for guess in order if guess != pick]
