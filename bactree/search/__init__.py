"""The exact searches: least height (`height/`) and least additive cost (`cost/`) of trees, with proofs.

    height/     the worst-case search: `Solver` (the game's tables, symmetry, the depth-bounded
                search), `TreeFinder` (a tree of a given height found fast), and the stores and
                counting bounds that prune it (refutations, cores, crowds, class caps, screens)
    cost/       the least-cost search: `CostSearch` (branch and bound for expected length, node
                counts, crush and chains), its bounds (`cost_model`, `deep`), greedy trees,
                `refine` and the memo files of long runs
    _partition_kernels  numba kernels of how a guess splits a set (parts, labels, counts): both use them
    _symmetry           numba kernels of symmetry (a history's stabiliser, a set's own maps, least
                        guesses of each orbit), behind the `Solver` both searches start from
    _greedy_kernels     numba kernels that score every guess's split of a set for the greedy rules
                        (the cost search's greedy trees and `bactree.strategies`)
    provenance          the digest of the search code that files of claims name, so that only
                        the same code's claims are believed (it reads the pipeline's source, imports none)

Data flows down: `cost` drives `height`'s `Solver` (its tables, symmetry and
worst-case bounds), never the other way; both call the kernels here and the
game's answer table (`bactree.game.codes`); nothing here imports the build
pipeline, the features above it or the command line.

The kernels call across files, and numba's cache does not see a change to a
callee in another file: after editing any kernel, delete the
`__pycache__` folders under `bactree/search/`.
"""

from __future__ import annotations

from .cost import DEEPER_CALLS, GREEDY_RULES, INFINITE, TOTAL_GUESSES, Cost, CostSearch, greedy_order, greedy_total, greedy_tree, others_bound, refine
from .height import Progress, Solver, TreeFinder, level_caps

__all__ = [
    "DEEPER_CALLS", "GREEDY_RULES", "INFINITE", "TOTAL_GUESSES", "Cost", "CostSearch", "Progress", "Solver", "TreeFinder",
    "greedy_order", "greedy_total", "greedy_tree", "level_caps", "others_bound", "refine",
]
