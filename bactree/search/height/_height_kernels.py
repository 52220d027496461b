"""Numba kernel of the depth-bounded search: a guess that solves a set within a number of guesses.

`bactree.search.height.solver` drives `_find_guess` for the lower levels of the
worst-case search, and `_cost_kernels._least_cost` calls it for node
counts (a tree of still-possible guesses has one node per secret). It
splits sets with the kernels of `_partition_kernels`.

numba's cache does not see a change to a callee in another file: after
editing this file or `_partition_kernels`, delete
`bactree/search/*/__pycache__`, or stale compiled code keeps running.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._partition_kernels import _answers_of, _count_parts, _fitting_guesses, _split


@njit(cache=True)
def _find_guess(table, by_secret, subset, depth, first, guesses, solved, num_slots, caps):
    """A guess after which `subset` is solved within `depth` guesses in all, or -1 if none.

    Tries the guesses of `first` in order or, when `first` is empty, every
    code of `subset` (still-possible guesses) and then the rest of `guesses`;
    below this level every code of the set and of `guesses` is tried (empty
    `guesses`: still-possible guesses only, as in hard mode). A guess is dropped as soon as one of its parts is too large for the depth
    left (`caps[d]` bounds what d guesses can solve) or cannot be solved, the
    largest parts tried first.
    """
    s = subset.shape[0]
    if s == 1:
        return subset[0]
    if depth <= 1 or s > caps[depth]:
        return -1
    if s == 2:
        return subset[0]
    num_codes = table.shape[1]
    member = np.zeros(num_codes, np.bool_)
    for x in subset:
        member[x] = True
    counts = np.zeros(num_slots, np.int64)
    limit = caps[depth - 1]
    order = np.empty(num_slots, np.int64)
    num_first = first.shape[0]
    total = num_first if num_first > 0 else s + guesses.shape[0]
    # Three guesses left: most guesses leave a part too large for two, so count them all at once.
    screened = depth == 3 and num_first == 0 and guesses.shape[0] > s
    fits = _fitting_guesses(by_secret, subset, solved, num_slots, limit) if screened else member
    for idx in range(total):
        if num_first > 0:
            g = first[idx]
        elif idx < s:
            g = subset[idx]
        else:
            g = guesses[idx - s]
            if member[g]:
                continue
        if screened and not fits[g]:
            continue
        row = _answers_of(table, by_secret, g, subset)
        if not _count_parts(row, subset, counts, solved, limit):
            continue
        if depth == 2:
            return g
        if not member[g] and counts.max() == s:
            continue  # the guess tells nothing
        # Parts of 3 or more need a search; smaller ones fit any depth >= 2 left.
        ordered, starts, _ = _split(row, subset, num_slots)
        num_big = 0
        for a in range(num_slots):
            if a != solved and counts[a] >= 3:
                order[num_big] = a
                num_big += 1
        # Largest part first: the likeliest to fail.
        big = order[:num_big]
        big_sizes = np.empty(num_big, np.int64)
        for j in range(num_big):
            big_sizes[j] = -counts[big[j]]
        big = big[np.argsort(big_sizes, kind="mergesort")]
        works = True
        for a in big:
            part = ordered[starts[a]:starts[a + 1]]
            if _find_guess(table, by_secret, part, depth - 1, first[:0], guesses, solved, num_slots, caps) < 0:
                works = False
                break
        if works:
            return g
    return -1
