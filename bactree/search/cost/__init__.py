"""The least-cost search: trees of least total guesses (or nodes, crush, chains), with a proof.

    search        `CostSearch`: branch and bound over guesses, on a `Solver`'s tables and symmetry
    cost_model    `Cost` (what a tree's guesses cost) and the counting floors every tree of a set stays above
    deep          lower bounds two guesses deep (`others_bound`, `guess_bound`, `deeper_bound`)
    parts         how a guess's parts are searched: its slack spread over them, or largest first
    greedy_trees  greedy trees: a good tree quickly, its cost an upper bound for the exact search
    refine        `refine`: a budgeted search's tree with a proven lower bound (bounds by `deep`)
    memo_store    the search's slow-won values of sets on disk, so a long exact build resumes from them
    warm_up       `compile_kernels`: the search's kernels called once each on small sets, so numba compiles them
    _cost_kernels       numba kernels of the search (bounds, memo, the screen of guesses)
    _base_kernels       numba kernels of a guess's bound from its parts' floors (candidates, lookahead)
    _small_set_kernels  numba kernels that search small sets whole (`_least_cost`)
    _memo               the kernels' memo table of values and bounds (open addressing in one array)
    _context            the search's constant state as one numba object, so its kernels take one argument for it

Data flows down: `refine` drives `search`; `search` calls its helpers
(`deep`, `parts`, `greedy_trees`, `memo_store`), which take the search as an argument
typed by the `SearchState` protocol of `state` and so never import the class
that calls them; all call the kernels, and the kernels call the least-height
search's `_height_kernels` for small sets.
"""

from __future__ import annotations

from .cost_model import TOTAL_GUESSES, Cost
from .deep import DEEPER_CALLS, others_bound
from .greedy_trees import GREEDY_RULES, greedy_order, greedy_total, greedy_tree
from .refine import refine
from .search import INFINITE, CostSearch

__all__ = [
    "DEEPER_CALLS", "GREEDY_RULES", "INFINITE", "TOTAL_GUESSES", "Cost", "CostSearch",
    "greedy_order", "greedy_total", "greedy_tree", "others_bound", "refine",
]
