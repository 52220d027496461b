"""Stores of unsolvable sets found by a solver: cores that no guess separates, and sets three guesses do not solve.

With two guesses left a set is solved only by a guess that gives each of
its secrets its own answer (a separator). A set with no separator holds a
minimal subset with none, its core (every secret of it needed), and every
set that holds the core has no separator either: a guess separating the
larger set would separate the core. The three-left kernel
(`_finder_kernels._three_left_search`) shrinks each part it finds without
a separator to a core and keeps it here, so later searches of the same
solver, under any history, settle a part that holds a stored core without
scanning every code. The parts of one search of 5 of 10 are all drawn from
a few hundred secrets, and their cores (about 7 secrets) recur across the
searches: see the docs' notes, 2026-11-26 (late night).

Cores hold when every code may be guessed; in hard mode a set's guesses are
its own codes, so a larger set may have a separator its core lacks, and the
kernel keeps none. A core is a shortcut, never a verdict of its own: the
kernel's answers and the guesses it tries are the same with the store
empty, full or absent.

The same store serves one level up (`Solver.unsolved`): a set that no three
guesses solve makes every set holding it unsolvable within three too (a
tree for the larger set would solve the smaller), so `Solver.find_guess`
keeps each set the three-left kernel refutes, whole, and refutes a set
holding one without a search. Deciding a set with four guesses left, the
later guesses' parts often hold an earlier one's refuted part (measured
on the 312-secret set of 5 of 10: see the docs' notes, 2026-11-28).

Memory: the store starts small and doubles while more than half full, up
to `MOST_MEMBERS` secrets held (about 150 MB with the index); past that it
is emptied and starts again, since by then the search has moved on to
other sets.
"""

from __future__ import annotations

import numpy as np

from . import _core_kernels

# Most secrets the cores of one store hold, all cores together.
MOST_MEMBERS = 1 << 24
FIRST_MEMBERS = 1 << 15
MEMBERS_PER_CORE = 4  # room for cores per member slot: cores hold 3 secrets or more


class CoreStore:
    """The cores a solver's three-left searches found, in arrays the kernel reads and extends."""

    def __init__(self, most_members: int = MOST_MEMBERS) -> None:
        self.most_members = most_members
        self._allocate(min(FIRST_MEMBERS, most_members))

    def _allocate(self, members: int) -> None:
        cores = max(members // MEMBERS_PER_CORE, 2)
        self.members = np.zeros(members, np.int32)
        self.starts = np.zeros(cores + 1, np.int64)
        # Two indexes of the cores: by their two lowest secrets (row 0) and by their lowest (row 1, with
        # each slot's count of cores in row 2 of `heads`); `heads` has a power of two of slots.
        self.chains = np.full((2, cores), -1, np.int32)
        self.heads = np.full((3, 2 * cores), -1, np.int32)
        self.heads[2] = 0
        self.fill = np.zeros(2, np.int64)  # cores held, members held

    def __len__(self) -> int:
        return int(self.fill[0])

    def holds(self, subset: np.ndarray, inside: np.ndarray) -> bool:
        """True if `subset` holds every secret of a stored set (`inside`: a False flag per code, left so)."""
        if not self.fill[0]:
            return False
        return bool(_core_kernels._holds_core(subset, self.members, self.starts, self.chains, self.heads, inside))

    def add(self, subset: np.ndarray) -> None:
        """Store `subset` (two or more secrets), making room first as `arrays` does."""
        _core_kernels._store_core(subset, *self.arrays())

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(members, starts, chains, heads, fill) for the kernel, with room for at least as many cores again as are held.

        The kernel adds cores only while they fit; between searches a store
        past half full doubles, or at `most_members` starts empty.
        """
        num_cores, used = int(self.fill[0]), int(self.fill[1])
        if 2 * used > len(self.members) or 2 * num_cores > self.chains.shape[1]:
            size = 2 * len(self.members)
            if size > self.most_members:
                self._allocate(len(self.members))
            else:
                old_members, old_starts = self.members, self.starts
                self._allocate(size)
                self.members[:used] = old_members[:used]
                self.starts[:num_cores + 1] = old_starts[:num_cores + 1]
                self.fill[:] = num_cores, used
                _core_kernels._index_cores(self.members, self.starts, num_cores, self.chains, self.heads)
        return self.members, self.starts, self.chains, self.heads, self.fill
