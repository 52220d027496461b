"""Counting bounds per answer class: the most secrets of one answer class that d guesses can solve.

`level_caps` bounds what d guesses solve by one secret per answer and
level, the same for every part. A part, though, is the set's share of one
answer class of its guess (every code giving that answer), and most classes
are far harder than the count says: of the 7051 codes of Mastermind 5x8 that
answer 0B2C to 00123, no tree of 3 guesses solves more than 276, where the
count allows 381. `ClassCaps.at(d)[o, a]` bounds what d guesses solve of the
answer class a of any code of orbit o (codes alike under relabellings of
positions and symbols, which keep answers: a class's bound is its orbit's):

    within 1 guess: min(1, class size);
    within d: the most, over every code h as the next guess, of
        [h is in the class] + the sum over h's other answers b of
        min(secrets the class shares with h's class b, the bound within d - 1 of h's class b),

never more than the class holds (`_class_caps`: what it needs of every
code h counted once per orbit, `_class_rows`, then a pass per depth over
the distinct rows, a few percent of the codes). Within 2 this is exact: the most
answers one guess gets from the class. A guess whose part exceeds its
class's bound at the depth left cannot start a tree there, so the exhaustive
search drops it before searching it, and a set larger than `whole(d)`
(one code plus its classes' bounds, at the best code) has no tree of d.
Sound in hard mode too: fewer guesses solve no more.

The bounds tighten only the first few depths; once a depth's bounds are
the class sizes (or the depth before's) every deeper one is too, and no
pass is made.
"""

from __future__ import annotations

import numpy as np

from . import _class_cap_kernels

# Most bytes `_class_caps_of_each_code` may hold for one guess's counts (answers squared times codes, int32): 6 MB for a
# 1,500-word list under bulls and cows, 2.7 GB for Wordle's 12,972 guesses, whose bounds are then the class sizes.
EACH_CODE_MAX_BYTES = 1 << 28


def code_orbits(codes: np.ndarray, num_symbols: int) -> np.ndarray:
    """Each code's orbit under relabellings of positions and symbols, numbered 0, 1, ...: codes with the same sorted symbol counts."""
    counts = np.zeros((len(codes), num_symbols), np.int64)
    np.add.at(counts, (np.arange(len(codes))[:, None], codes.astype(np.int64)), 1)
    _, orbit_of = np.unique(-np.sort(-counts, axis=1), axis=0, return_inverse=True)
    return orbit_of.reshape(-1).astype(np.int64)


class ClassCaps:
    """Counting bounds per answer class of one game, computed a depth at a time as the search asks for them."""

    def __init__(
        self, table: np.ndarray, by_secret: np.ndarray, codes: np.ndarray, num_symbols: int, solved: int,
        num_slots: int, symmetric: bool = True,
    ) -> None:
        """`table[g, s]` and `by_secret[s, g]`: the answers by guess and by secret (`Solver.by_secret`). `symmetric`:
        whether relabellings map the game onto itself (every code over the symbols); else (a word list) each code is
        an orbit of its own, and where counting each code's classes would hold more than `EACH_CODE_MAX_BYTES`
        (Wordle's 243 answers squared per code) the bounds past one guess are the class sizes."""
        self.table = table
        self.by_secret = by_secret
        self.solved = solved
        self.num_slots = num_slots
        self.orbit_of = code_orbits(codes, num_symbols) if symmetric else np.arange(len(codes), dtype=np.int64)
        self.symmetric = symmetric
        self.representatives = np.unique(self.orbit_of, return_index=True)[1]
        self.sizes = np.array(
            [np.bincount(table[g], minlength=num_slots) for g in self.representatives], np.int64
        )
        self._rows: list[tuple[np.ndarray, np.ndarray]] | None = None  # `_class_rows` of each representative
        self._by_depth = [np.zeros_like(self.sizes), np.minimum(self.sizes, 1)]
        # The last depth's bounds are the class sizes, or those of the depth before: then so are all deeper ones
        # (each pass is monotone in the bounds it starts from, and a pass from the same bounds gives the same).
        self._saturated = False
        if not symmetric and num_slots * num_slots * len(codes) * 4 > EACH_CODE_MAX_BYTES:
            self._by_depth.append(self.sizes)  # no class holds more than its codes: sound, and nothing tightens
            self._saturated = True

    def at(self, depth: int) -> np.ndarray:
        """Bounds [orbit, answer] of what `depth` guesses solve of each answer class (class sizes once nothing tightens)."""
        while len(self._by_depth) <= depth and not self._saturated:
            previous = self._by_depth[-1]
            if self.symmetric:
                if self._rows is None:
                    self._rows = [_class_cap_kernels._class_rows(self.table, self.by_secret, g, self.orbit_of, self.num_slots)
                                  for g in self.representatives]
                caps = np.array([
                    _class_cap_kernels._class_caps(rows, starts, sizes, previous, self.solved)
                    for (rows, starts), sizes in zip(self._rows, self.sizes)
                ])
            else:  # a row per code and class would not fit: each depth counted afresh
                caps = _class_cap_kernels._class_caps_of_each_code(self.table, self.by_secret, previous, self.solved, self.num_slots)
            self._by_depth.append(caps)
            self._saturated = bool((caps == self.sizes).all() or (caps == previous).all())
        return self._by_depth[min(depth, len(self._by_depth) - 1)]

    def whole(self, depth: int) -> int:
        """A bound of the most secrets of the game `depth` guesses solve: one code and its classes' bounds within depth - 1, at the best code."""
        if depth <= 1:
            return depth
        inner = self.at(depth - 1).copy()
        inner[:, self.solved] = 0
        return int(1 + inner.sum(axis=1).max())

    def floors(self, largest: int) -> np.ndarray:
        """floors[o, a, c]: the least total guesses any tree takes on c secrets of an answer class a of orbit o (c <= `largest`).

        Past k guesses at most `at(k)` of the class's secrets are found, so
        at least c - at(k) need a (k + 1)-th guess, and the total is the sum
        of those counts over k: `level_fill` with the class's bounds for the
        count's. Used by `scripts/first_guess_bounds.py` (a lead for the cost
        search, which bounds parts by `level_fill` alone).
        """
        sizes = np.arange(largest + 1)
        floors = np.zeros((*self.sizes.shape, largest + 1), np.int64)
        depth = 0
        while True:
            floors += np.maximum(0, sizes - self.at(depth)[:, :, None])
            if depth >= len(self._by_depth) - 1 and self._saturated:
                return floors  # the bounds are the class sizes from here on: no secret of the class is left
            depth += 1

    def fits(self, guesses: np.ndarray, counts: np.ndarray, depth: int) -> np.ndarray:
        """Per guess: True if none of its parts (`counts[i, answer]`, all-bulls aside) exceeds its class's bound within `depth`."""
        caps = self.at(depth)[self.orbit_of[guesses]]
        caps[:, self.solved] = np.iinfo(np.int64).max
        return (counts <= caps).all(axis=1)
