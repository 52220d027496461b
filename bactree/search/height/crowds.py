"""Crowd limits: the most rearrangements of one multiset of symbols that d guesses solve, counted per game.

Rearrangements of one multiset share as many symbols with any guess, so
a guess splits them by bulls alone: the ones with b bulls share one
answer, and a tree of d guesses must solve each such part within d - 1.
So if L(d - 1) bounds what d - 1 guesses solve of them, a first guess g
solves at most

    sum over b < n of min(L(d - 1), A(g, b)),  plus 1 if g is one of them,

where A(g, b) is how many of the rearrangements give g exactly b bulls,
and L(d) is the most of that over every code g (L(1) = 1: one guess finds
only itself). That holds in any tree, hard mode too, and for any set the
rearrangements sit in, since the other secrets only make parts larger.
Taking every minimum as L(d - 1), over the n bulls values, gives the
plain n^(d-1); counting A tightens it where few rearrangements have many
bulls: for 5 of 10, L = 1, 5, 21, 73, 120 against 1, 5, 25, 125. L is
the same for every multiset of a shape (its symbols' repeat counts),
since relabelling symbols maps the game onto itself; the game's limit is
the largest over its shapes.
"""

from __future__ import annotations

import numpy as np

from . import _crowd_kernels


# Most cells (codes x members x positions) compared at once: members go in chunks, so that games whose
# multisets have thousands of rearrangements stay within about 32 MB here.
COMPARED_CELLS = 1 << 25
# Most cells compared for one shape (about a second): past it the shape keeps the plain n^(d-1), capped by its
# rearrangements (8 of 8, one multiset of 40,320, would take about 50 s; Mastermind 6x6's largest shape 2 s).
MOST_CELLS = 10**8


def crowd_limits(
    codes: np.ndarray, multiset_of: np.ndarray, cells: int = COMPARED_CELLS, most_cells: int = MOST_CELLS
) -> list[int]:
    """[L(0), L(1), ...] for the game whose codes are `codes` (a row of symbols each) and `multiset_of` each
    code's multiset, numbered (`bactree.game.codes.multiset_of`), up to the depth from which L no longer grows: the
    last entry holds for every deeper one. L(0) = 0. `cells`, `most_cells`: see `COMPARED_CELLS`, `MOST_CELLS`."""
    num_codes, n = codes.shape
    step = max(1, cells // (num_codes * n))
    per_shape = []
    for members in _one_multiset_per_shape(codes, multiset_of):
        if num_codes * len(members) * n > most_cells:
            levels = [0, 1]
            while levels[-1] < len(members):
                levels.append(min(n * levels[-1], len(members)))
            per_shape.append(levels)
            continue
        counts = np.zeros((num_codes, n + 1), np.int64)  # A(g, b)
        for begin in range(0, len(members), step):
            chunk = codes[members[begin : begin + step]]
            bulls = (codes[:, None, :] == chunk[None, :, :]).sum(axis=2, dtype=np.int8)  # code x member
            for b in range(n + 1):
                counts[:, b] += (bulls == b).sum(axis=1)
        levels = [0, 1]
        while True:  # L never shrinks and never passes the group's size, so this ends
            level = int((np.minimum(counts[:, :n], levels[-1]).sum(axis=1) + counts[:, n]).max())
            if level == levels[-1]:
                break
            levels.append(level)
        per_shape.append(levels)
    deepest = max(len(levels) for levels in per_shape)
    return [max(levels[min(depth, len(levels) - 1)] for levels in per_shape) for depth in range(deepest)]


def _one_multiset_per_shape(codes: np.ndarray, multiset_of: np.ndarray) -> list[np.ndarray]:
    """The code indices of one multiset of each shape (the sorted counts of its symbols' repeats)."""
    first: dict[tuple[int, ...], int] = {}
    for index in np.unique(multiset_of, return_index=True)[1]:
        shape = tuple(sorted(np.unique(codes[index], return_counts=True)[1].tolist()))
        first.setdefault(shape, int(multiset_of[index]))
    return [np.flatnonzero(multiset_of == multiset) for multiset in first.values()]


class CrowdCache:
    """The codes that survive each crowd a solver's three-left searches met, so that a set whose crowds leave no
    code is refuted without the kernel's pass over every code (`_crowd_kernels._crowds_leave_no_guess`).

    On the sets of a 5 of 10 refutation with three guesses left, crowds
    make most of a set and most sets keep no code past them, while each
    crowd recurs across sets (13 times on average in session 36's record).
    Kept in arrays the kernel reads and extends (`slots` crowds, `cells`
    numbers); emptied between calls once a quarter of the slots or half the
    cells are used, since by then the search has moved on. A shortcut only:
    the verdicts are the kernel's.
    """

    def __init__(self, num_codes: int, slots: int = 1 << 16, cells: int = 1 << 22) -> None:
        self.keys = np.zeros(slots, np.uint64)  # a power of two
        self.at = np.zeros(slots, np.int64)
        self.data = np.zeros(cells, np.int32)
        self.fill = np.zeros(2, np.int64)  # crowds held, cells used
        self.num_codes = num_codes

    def __len__(self) -> int:
        return int(self.fill[0])

    def leave_no_guess(self, subset: np.ndarray, arrangements: tuple[np.ndarray, int, np.ndarray, int]) -> bool:
        """True if every code leaves a part of `subset` with more than `arrangements[1]` rearrangements of one
        multiset (`Solver.arrangements`): no guess solves `subset` within three guesses."""
        if 4 * self.fill[0] > len(self.keys) or 2 * self.fill[1] + self.num_codes > len(self.data):
            self.keys[:] = 0
            self.fill[:] = 0
        multiset_of, most, codes, num_symbols = arrangements
        return bool(_crowd_kernels._crowds_leave_no_guess(
            codes, num_symbols, subset, multiset_of, most, self.keys, self.at, self.data, self.fill,
        ))
