"""Numba kernel of the counting bounds per answer class (`bactree.search.class_caps`).

Self-contained: numba's cache does not see changes to callees in other files.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _class_caps_pass(table, guess, orbit_of, previous, solved, num_slots):
    """For each answer a: a bound of the most secrets of `guess`'s answer class a that d guesses can solve.

    `previous[o, b]` bounds what d - 1 guesses solve of the answer class b
    of any code of orbit o. A tree solving a set X of class a within d
    guesses starts with some code h; X's secrets are h itself (if h is in
    the class) and, for each other answer b of h, the secrets of X in h's
    class b, of which the tree solves at most min(how many the class a
    shares with h's class b, `previous[orbit of h, b]`). The bound is the
    most of that sum over every code h, and never more than the class
    holds. One streaming pass per class over its secrets' rows of the table
    (`table[x, h]` equals `table[h, x]`) counts the shared secrets of every
    code h at once.
    """
    num_codes = table.shape[1]
    row_g = table[guess]
    sizes = np.zeros(num_slots, np.int64)
    for x in range(num_codes):
        sizes[row_g[x]] += 1
    caps = np.zeros(num_slots, np.int64)
    shared = np.zeros(num_slots * num_codes, np.int32)
    for a in range(num_slots):
        if sizes[a] == 0:
            continue
        shared[:] = 0
        for x in range(num_codes):
            if row_g[x] != a:
                continue
            row = table[x]
            for h in range(num_codes):
                shared[row[h] * num_codes + h] += 1
        best = 0
        for h in range(num_codes):
            total = 1 if row_g[h] == a else 0
            o = orbit_of[h]
            for b in range(num_slots):
                if b == solved:
                    continue
                c = shared[b * num_codes + h]
                if c > 0:
                    total += min(np.int64(c), previous[o, b])
            best = max(best, total)
        caps[a] = min(best, sizes[a])
    return caps
