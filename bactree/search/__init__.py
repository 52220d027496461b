"""The exact search: least height (`height`) and least additive cost (`cost`) of trees, with proofs.

    height      `Solver`: the game's tables, symmetry, and the worst-case search
    cost        `CostSearch`: branch and bound for expected length, node counts, crush and chains
    cost_model  `Cost` (what a tree's guesses cost) and the counting floors every tree of a set stays above
    class_caps  counting bounds per answer class: the most secrets of one class that d guesses can solve
    greedy_trees  greedy trees: a good tree quickly, its cost an upper bound for the exact search
    deep        lower bounds two guesses deep (`others_bound`), which both searches below use
    refine      `refine`: a budgeted search's tree with a proven lower bound (bounds by `deep`)
    finder      `TreeFinder`: a tree of a given height found fast by iterative broadening (proves no refutation)
    refutations `RefutationStore`: sets refuted within d guesses, found again in any image under symmetry
    cores       `CoreStore`: least sets no guess separates, kept for every three-left search of a solver
    crowds      `crowd_limits`: the most rearrangements of one multiset of symbols that d guesses solve
    screens     `ClassScreen`: a set's answer classes as bit masks, to screen its parts' guesses
    memo_store  the cost search's slow-won values of sets on disk, so a long exact build resumes from them
    _partition_kernels  numba kernels of how a guess splits a set (parts, labels, counts)
    _height_kernels     numba kernel of the depth-bounded search (`_find_guess`)
    _cost_kernels       numba kernels of the least-cost search (bounds, memo, the screen of guesses)
    _base_kernels       numba kernels of a guess's bound from its parts' floors (candidates, lookahead)
    _small_set_kernels  numba kernels that search small sets whole (`_least_cost`)
    _class_cap_kernels  numba kernel of the counting bounds per answer class
    _symmetry   numba kernels of symmetry (a history's stabiliser, a set's own maps, least guesses of each orbit)
    _memo       the kernels' memo table of values and bounds (open addressing in one array, made by a cached kernel)
    _context    a cost search's constant state as one numba object, so its kernels take one argument for it
    _separator_kernels  numba kernels of two guesses left (a guess that gives every secret its own answer)
    _finder_kernels     numba kernels of the finder's last three guesses (built on `_separator_kernels`)
    _core_kernels       numba kernels of the stores of cores: least sets no guess separates, found by containment
    _crowd_kernels      numba kernels of crowds: rearrangements of one multiset, which only bulls tell apart

The kernels call across files (`_partition_kernels`, `_height_kernels`,
`_base_kernels`, `_cost_kernels`, `_small_set_kernels`; `_separator_kernels`,
`_core_kernels`, `_crowd_kernels` and `_finder_kernels`, which reads guesses'
answers with `_partition_kernels`' `_answers_of`), and numba's cache does not see a change to a callee
in another file: after editing any kernel, delete `bactree/search/__pycache__`.

Data flows down: `refine` drives `cost`, `cost` drives `height`'s `Solver`,
`deep`'s bounds and `greedy_trees` (which call back into the `CostSearch`
they are given, importing it only for type hints), all call the kernels, and
nothing here imports the build or the CLI.
"""

from __future__ import annotations

from .cost import INFINITE, CostSearch
from .cost_model import TOTAL_GUESSES, Cost
from .finder import TreeFinder
from .greedy_trees import GREEDY_RULES, greedy_order, greedy_total, greedy_tree
from .height import Progress, Solver, level_caps
from .deep import DEEPER_CALLS, others_bound
from .refine import refine

__all__ = [
    "DEEPER_CALLS", "GREEDY_RULES", "INFINITE", "TOTAL_GUESSES", "Cost", "CostSearch", "Progress", "Solver", "TreeFinder",
    "greedy_order", "greedy_total", "greedy_tree", "level_caps", "others_bound", "refine",
]
