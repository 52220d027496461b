"""The symmetries a search prunes its guesses by: one guess of each orbit, under a history's stabiliser or a set's own.

A game of every code maps onto itself under permutations of positions
combined with relabellings of symbols. The maps that fix every earlier
guess (the history's stabiliser) send a guess's parts onto another
guess's parts, so the two start trees of the same height and cost: the
least code of each orbit is enough (`canonical_guesses`). A set may have
more maps of its own (`set_canonical_guesses`, `set_orbit_names`). A word
list almost never has any, nor Wordle's marks: without `symmetric` every
guess is its own orbit. `Solver` holds one of these and answers for it.
"""

from __future__ import annotations

import numpy as np

from .._symmetry import _canonical_mask, _least_images, _least_in_orbits, _set_automorphisms, _stabiliser

# Most bytes of canonical-guess arrays a solver keeps; past it the cache starts afresh. Each
# history's array can hold every code (262 KB on Mastermind 5x8), and a long search meets
# thousands of histories: uncapped, the cache reached 549 MB on one 5 of 9 part.
CANONICAL_CACHE_BYTES = 256 << 20
# Most histories a solver remembers canonical guesses for, past which the cache starts afresh too: most
# histories deep in a search share one array (no bytes counted), but each key costs about 200 bytes, and the
# kernel's sets ask for every history they are met under (millions in a long 5 of 9 search).
CANONICAL_CACHE_ENTRIES = 1 << 18
# Most symbol maps `_set_automorphisms` checks for one set before it gives up and the history's
# stabiliser is used alone; the group's elements then cost `_least_in_orbits` one pass each over the codes.
SET_SYMMETRY_CAP = 512


class GuessSymmetry:
    """The orbits of guesses under the symmetries of a history or of a set, for `codes` (rows of symbol indices).

    `perms`: the permutations of positions (the identity alone without
    `symmetric`); `all_guesses`: every code's index, the array handed back
    when every code is canonical, so it costs nothing to remember.
    """

    def __init__(self, codes: np.ndarray, perms: np.ndarray, num_symbols: int, symmetric: bool, all_guesses: np.ndarray) -> None:
        self.codes = codes
        self.perms = perms
        self.num_symbols = num_symbols
        self.symmetric = symmetric
        self.all_guesses = all_guesses
        self._canonical: dict[tuple[int, ...], np.ndarray] = {}
        self._canonical_bytes = 0  # held by `_canonical` apart from `all_guesses`, which it shares
        self._index_of: np.ndarray | None = None

    def canonical_guesses(self, history: tuple[int, ...]) -> np.ndarray:
        """Guesses that are least in their orbit under the stabiliser of `history` (not to be written to).

        Remembered per history, within `CANONICAL_CACHE_BYTES` and
        `CANONICAL_CACHE_ENTRIES`; when every
        code is canonical (a trivial stabiliser, common deep in a search) the
        array is `all_guesses` itself, so it costs nothing to remember. When
        only the identity fixes the history, a code is canonical when the
        symbols the history leaves unused come in it in order, the least
        first: one array serves every history that leaves the same symbols
        unused (deep in 5 of 9's searches, two of nine: 36 arrays where
        there were thousands of histories).
        """
        if not self.symmetric:
            return self.all_guesses
        key = tuple(sorted(set(history)))
        found = self._canonical.get(key)
        if found is None:
            if len(self._canonical) >= CANONICAL_CACHE_ENTRIES:
                self._forget_canonical()
            past = self.codes[list(key)] if key else self.codes[:0]
            shared = None
            if key and len(_stabiliser(past, self.perms, self.num_symbols)[0]) == 1:
                shared = (-1, *sorted(set(range(self.num_symbols)) - set(past.ravel().tolist())))
                found = self._canonical.get(shared)
            if found is None:
                mask = _canonical_mask(self.codes, past, self.perms, self.num_symbols)
                found = self.all_guesses if mask.all() else self.all_guesses[mask]
                size = 0 if found is self.all_guesses else found.nbytes
                if self._canonical_bytes + size > CANONICAL_CACHE_BYTES:
                    self._forget_canonical()
                self._canonical_bytes += size
                if shared is not None:
                    self._canonical[shared] = found
            self._canonical[key] = found
        return found

    def _forget_canonical(self) -> None:
        """Start the cache of canonical guesses afresh."""
        self._canonical.clear()
        self._canonical_bytes = 0

    def set_canonical_guesses(self, subset: np.ndarray, history: tuple[int, ...]) -> np.ndarray:
        """The history's canonical guesses that are also least in their orbit under the set's own symmetries.

        Every map that sends `subset` onto itself (a relabelling of positions
        and symbols) sends a guess's parts onto another guess's parts, so the
        two start trees of the same height and cost: one guess of each orbit
        is enough. That group holds the history's stabiliser and can be far
        larger (16 maps fix the 312-secret set of 5 of 10 after 01234/0B2C,
        15367, 50642, against 2 that fix its history), and ties go to the least
        code as before, so the search finds the same guess. Sets whose maps
        take more than `SET_SYMMETRY_CAP` checks to list keep the history's
        guesses.
        """
        pool = self.canonical_guesses(history)
        group = self.set_group(subset)
        if group is None:
            return pool
        return pool[_least_in_orbits(self.codes[pool], *group)]

    def set_orbit_names(self, subset: np.ndarray) -> np.ndarray:
        """For every code, the least code a symmetry of `subset` sends it to: one name per orbit of guesses.

        Guesses with one name split the set alike up to a relabelling, so
        they have one value under any objective. Past `SET_SYMMETRY_CAP`
        each code is its own name.
        """
        group = self.set_group(subset)
        if group is None:
            return self.all_guesses
        return self.index_of()[self._code_values(_least_images(self.codes, *group))]

    def set_group(self, subset: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(perm rows, symbol maps, used symbols) of the maps sending `subset` onto itself; None past `SET_SYMMETRY_CAP`."""
        if not self.symmetric:
            return None
        member = np.zeros(len(self.codes), np.bool_)
        member[subset] = True
        rows, maps, used, complete = _set_automorphisms(
            self.codes, subset, member, self.perms, self.num_symbols, self.index_of(), SET_SYMMETRY_CAP
        )
        return (rows, maps, used) if complete else None

    def index_of(self) -> np.ndarray:
        """index_of[v]: the index of the code whose symbols, read as digits in base `num_symbols`, make v; else -1."""
        if self._index_of is None:
            self._index_of = np.full(self.num_symbols ** self.codes.shape[1], -1, np.int64)
            self._index_of[self._code_values(self.codes)] = np.arange(len(self.codes))
        return self._index_of

    def _code_values(self, codes: np.ndarray) -> np.ndarray:
        """Each code's symbols read as digits in base `num_symbols`."""
        k, n = self.num_symbols, self.codes.shape[1]
        return codes.astype(np.int64) @ (k ** np.arange(n - 1, -1, -1, dtype=np.int64))
