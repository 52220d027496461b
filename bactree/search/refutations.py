"""Sets refuted within d guesses, remembered up to symmetry, so a search refutes each shape once.

A least-height search asks the same question of many sets: is there a tree
that solves this set within d guesses? The answer depends on the set alone,
not on the guesses that led to it, and it is the same for every image of
the set under the game's symmetries (a relabelling of positions and
symbols keeps every answer, so it maps trees onto trees). Measured on the
312-secret set of 5 of 10 (see the docs' notes), the parts that a search
of it refutes within three guesses recur as images of one another far more
often than byte for byte. `RefutationStore` keeps each refuted set under a
key that every image shares (`shape_key`: the sorted rows of the sorted
answers its secrets give one another) and, on a matching key, confirms an
image by finding a map (`_set_maps`), so a hit is always exact.

Only refutations are kept: a set that has a tree is searched again, so the
guess a search returns, and with it every tree, stays what it was.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ._symmetry import _set_maps

# Most symbol maps `_set_maps` checks to confirm one image; past it the set counts as not known.
CONFIRM_CAP = 4096


def shape_key(table: np.ndarray, subset: np.ndarray, depth: int) -> bytes:
    """Bytes that every image of the set `subset` shares (with `depth`): a digest of its sorted rows of sorted mutual answers.

    A digest, not the rows (a set's size squared in bytes): keys that
    collide only cost a failed search for a map.
    """
    block = np.sort(table[np.ix_(subset, subset)], axis=1)
    block = block[np.lexsort(block.T[::-1])]
    digest = hashlib.blake2b(np.ascontiguousarray(block).tobytes(), digest_size=16).digest()
    return depth.to_bytes(2, "little") + len(subset).to_bytes(4, "little") + digest


class RefutationStore:
    """Sets known to have no tree within some number of guesses, found again in any image.

    `max_bytes` caps what the stored sets and their keys hold; past it the
    store starts afresh (a refutation forgotten is only searched again).
    """

    def __init__(
        self, codes: np.ndarray, table: np.ndarray, perms: np.ndarray, num_symbols: int, index_of: np.ndarray,
        max_bytes: int = 256 << 20,
    ) -> None:
        self.codes = codes
        self.table = table
        self.perms = perms
        self.num_symbols = num_symbols
        self.index_of = index_of
        self.max_bytes = max_bytes
        self.held = 0
        self.hits = 0
        self._sets: dict[bytes, list[np.ndarray]] = {}
        self._member = np.zeros(len(codes), np.bool_)

    def __len__(self) -> int:
        return sum(len(sets) for sets in self._sets.values())

    def refuted(self, subset: np.ndarray, depth: int) -> bool:
        """True if an image of `subset` is stored as refuted within `depth` guesses."""
        stored = self._sets.get(shape_key(self.table, subset, depth))
        if not stored:
            return False
        member = self._member
        member[subset] = True
        try:
            for other in stored:
                found = _set_maps(
                    self.codes, other, subset, member, self.perms, self.num_symbols, self.index_of, CONFIRM_CAP, 1
                )[0]
                if len(found):
                    self.hits += 1
                    return True
            return False
        finally:
            member[subset] = False

    def add(self, subset: np.ndarray, depth: int) -> None:
        """Remember that `subset` has no tree within `depth` guesses."""
        key = shape_key(self.table, subset, depth)
        size = subset.nbytes + len(key)
        if self.held + size > self.max_bytes:
            self._sets.clear()
            self.held = 0
        self._sets.setdefault(key, []).append(subset.copy())
        self.held += size
