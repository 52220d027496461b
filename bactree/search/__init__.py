"""The exact search: least height (`height`) and least additive cost (`cost`) of trees, with proofs.

    height      `Solver`: the game's tables, symmetry, and the worst-case search
    cost        `CostSearch`: branch and bound for expected length, node counts, crush and chains
    cost_model  `Cost` (what a tree's guesses cost) and the counting floors every tree of a set stays above
    deep        lower bounds two guesses deep (`others_bound`), which both searches below use
    refine      `refine`: a budgeted search's tree with a proven lower bound (bounds by `deep`)
    finder      `TreeFinder`: a tree of a given height found fast by iterative broadening (proves no refutation)
    refutations `RefutationStore`: sets refuted within d guesses, found again in any image under symmetry
    memo_store  the cost search's slow-won values of sets on disk, so a long exact build resumes from them
    _partition_kernels  numba kernels of how a guess splits a set (parts, labels, counts)
    _height_kernels     numba kernel of the depth-bounded search (`_find_guess`)
    _cost_kernels       numba kernels of the least-cost search (bounds, memo, branch and bound)
    _symmetry   numba kernels of symmetry (a history's stabiliser, a set's own maps, least guesses of each orbit)
    _memo       the kernels' memo tables (typed dicts made by a cached kernel)
    _finder_kernels  numba kernels of the finder's last three guesses

The kernels call across `_partition_kernels`, `_height_kernels` and
`_cost_kernels`, and numba's cache does not see a change to a callee in
another file: after editing any of them, delete `bactree/search/__pycache__`.

Data flows down: `refine` drives `cost`, `cost` drives `height`'s `Solver`
and `deep`'s bounds (which call back into the `CostSearch` they are given,
importing it only for type hints), all call the kernels, and nothing here
imports the build or the CLI.
"""

from __future__ import annotations

from .cost import GREEDY_RULES, INFINITE, CostSearch
from .cost_model import TOTAL_GUESSES, Cost
from .finder import TreeFinder
from .height import Progress, Solver, level_caps
from .deep import DEEPER_CALLS, others_bound
from .refine import refine

__all__ = [
    "DEEPER_CALLS", "GREEDY_RULES", "INFINITE", "TOTAL_GUESSES", "Cost", "CostSearch", "Progress", "Solver", "TreeFinder",
    "level_caps", "others_bound", "refine",
]
