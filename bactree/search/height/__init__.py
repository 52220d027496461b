"""The least-height (worst-case) search: the fewest guesses that solve every secret, with a proof.

    solver       `Solver`: the game's tables and the depth-bounded search (`least_height`)
    guess_symmetry  `GuessSymmetry`: one guess per orbit, under a history's stabiliser or a set's own maps
    finder       `TreeFinder`: a tree of a given height found fast by iterative broadening (proves no refutation)
    refutations  `RefutationStore`: sets refuted within d guesses, found again in any image under symmetry
    cores        `CoreStore`: least sets no guess separates, kept for every three-left search of a solver
    crowds       `crowd_limits`: the most rearrangements of one multiset of symbols that d guesses solve
    class_caps   counting bounds per answer class: the most secrets of one class that d guesses can solve
    screens      `ClassScreen`: a set's answer classes as bit masks, to screen its parts' guesses
    _height_kernels     numba kernel of the depth-bounded search (`_find_guess`)
    _separator_kernels  numba kernels of two guesses left (a guess that gives every secret its own answer)
    _finder_kernels     numba kernels of the finder's last three guesses (built on `_separator_kernels`)
    _core_kernels       numba kernels of the stores of cores: least sets no guess separates, found by containment
    _crowd_kernels      numba kernels of crowds: rearrangements of one multiset, which only bulls tell apart
    _class_cap_kernels  numba kernel of the counting bounds per answer class

Data flows down: `finder` drives a `Solver`; the `Solver` asks the stores
and bounds, which call the kernels; the kernels read guesses' answers with
`bactree.search._partition_kernels`. Nothing here imports the cost search.
"""

from __future__ import annotations

from .finder import TreeFinder
from .solver import Progress, Solver, level_caps

__all__ = ["Progress", "Solver", "TreeFinder", "level_caps"]
