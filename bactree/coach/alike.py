"""Classes of alike guesses at one set of secrets: guesses a ranking lists once, as they have one value.

Two relations each keep a guess's value on the secrets S: splitting S into
the same parts (and solving the same secret, if any), and lying in one orbit
under S's own symmetries (the maps sending S onto itself). Their union is
not transitive: in 3 of '1234' with repeats, on S = {214, 234, 241, 243},
223 lies in 212's orbit and 212 splits S as 112 does, yet 223 and 112 are
neither. A ranking that skipped each guess alike to one already valued
therefore listed different guesses when it visited them in another order,
as it does on the same position carried by a symmetry (the book's
canonical history and the one typed).

The classes here are those of the union's closure. A symmetry σ of S sends
a guess's partition onto its image's, so g and k are in one class exactly
when σ(parts of g) = parts of k for some σ, that is when some code of g's
orbit splits S as k does; a class is keyed by the least partition key over
an orbit (`GuessClasses.key`), read from the orbit's rows of the answer
table only: no pass over every code per guess.
"""

from __future__ import annotations

import numpy as np

from ..search import Solver


def partition_keys(rows: np.ndarray, solved: int, num_slots: int) -> np.ndarray:
    """Per row of answers (one guess's answers to each secret), each secret labelled by the first secret of its part,
    the solved secret by -1: two rows label alike exactly when they split the secrets alike, solving the same one."""
    count, size = rows.shape
    answers = rows.astype(np.int64) + num_slots * np.arange(count, dtype=np.int64)[:, None]
    _, first, inverse = np.unique(answers.ravel(), return_index=True, return_inverse=True)
    labels = (first[inverse] % size).reshape(count, size)
    labels[rows == solved] = -1
    return labels


class GuessClasses:
    """The classes of alike guesses on one set, each keyed by its partitions up to the set's symmetries."""

    def __init__(self, solver: Solver, subset: np.ndarray) -> None:
        """`solver` gives the answer table and the set's orbits (`Solver.set_orbit_names`); `subset`: the secrets."""
        self.solver, self.subset = solver, subset
        self.names = solver.set_orbit_names(subset)  # per code, its orbit's name
        self.by_name = np.argsort(self.names, kind="stable")  # the codes, orbit after orbit
        self.sorted_names = self.names[self.by_name]
        self.keys: dict[int, bytes] = {}

    def orbit(self, guess: int) -> np.ndarray:
        """The codes a symmetry of the set sends `guess` to, itself included."""
        name = self.names[guess]
        low, high = np.searchsorted(self.sorted_names, [name, name + 1])
        return self.by_name[low:high]

    def key(self, guess: int) -> bytes:
        """The key of `guess`'s class: the least partition key of its orbit's codes (kept for the whole orbit)."""
        found = self.keys.get(guess)
        if found is None:
            solver, orbit = self.solver, self.orbit(guess)
            rows = solver.table[orbit[:, None], self.subset[None, :]]
            found = min(row.tobytes() for row in partition_keys(rows, solver.solved, solver.num_slots))
            self.keys.update(dict.fromkeys(orbit.tolist(), found))
        return found
