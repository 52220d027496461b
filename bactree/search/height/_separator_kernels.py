"""Numba kernels of two guesses left: a set is solved within two only by a guess that gives each secret its own answer.

`height._find_guess` once tested that by reading each guess's row of the
answer table at the set's secrets, a cache miss per secret for each of
30240 guesses on 5 of 10; `_separators` tests every guess at once in a
streaming pass over the secrets' rows (the table is symmetric), with the
answers seen so far as one 64-bit mask per guess. The three-guesses-left
kernels (`_finder_kernels`) build on these.

numba's cache does not see a change to a callee in another file: after
editing this file, delete `bactree/search/*/__pycache__`, or the kernels of
`_finder_kernels` keep the old code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Answers are bits of a 64-bit mask: games of at most 6 positions ((6 + 1) ** 2 = 49 answers).
MAX_SLOTS = 64
# Codes whose answer masks `_separators` keeps at once: 8 KB, within the first-level cache.
SCAN_BLOCK = 1024


@njit(cache=True)
def _bit_count(v):
    """The number of bits set in the 64-bit word `v` (LLVM makes the loop one popcount)."""
    count = 0
    while v:
        v &= v - np.uint64(1)
        count += 1
    return count


@njit(cache=True)
def _separators(table, part, distinct, found):
    """How many codes give every secret of `part` its own answer (at most `len(found)`); they go in `found`, lowest first.

    Each code's answers are OR-ed into a 64-bit mask, one block of codes
    at a time (the masks stay in the first-level cache), and a code
    separates when its mask has as many bits as `part` has secrets. When
    `distinct` is not empty, `distinct[g]` gets the number of answers code
    g gives (every code's when none separates).
    """
    num_codes = table.shape[1]
    k = part.shape[0]
    seen_by = np.empty(SCAN_BLOCK, np.uint64)
    one = np.uint64(1)
    count = 0
    for low in range(0, num_codes, SCAN_BLOCK):
        width = min(num_codes - low, SCAN_BLOCK)
        seen_by[:width] = 0
        for x in part:
            row = table[x, low:low + width]
            for g in range(width):
                seen_by[g] |= one << np.uint64(row[g])
        for g in range(width):
            answers = _bit_count(seen_by[g])
            if distinct.shape[0]:
                distinct[low + g] = answers
            if answers == k:
                found[count] = low + g
                count += 1
                if count == found.shape[0]:
                    return count
    return count


@njit(cache=True)
def _separating_guess(table, part, hard):
    """A guess giving every secret of `part` its own answer (two guesses then solve it), or -1.

    Codes of `part` are tried first, in order, then (unless `hard`) every
    code from the lowest: the first that separates is returned.
    """
    k = part.shape[0]
    for i in range(k):
        row = table[part[i]]
        seen = np.uint64(0)
        distinct = True
        for x in part:
            bit = np.uint64(1) << np.uint64(row[x])
            if seen & bit:
                distinct = False
                break
            seen |= bit
        if distinct:
            return part[i]
    if hard:
        return -1
    found = np.empty(1, np.int64)
    return found[0] if _separators(table, part, np.empty(0, np.uint8), found) else -1
