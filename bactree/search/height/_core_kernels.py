"""Numba kernels of the stores of unsolvable sets (`bactree.search.height.cores`): cores shrunk, stored and found again.

A part that no code separates holds a least subset with no separator, its
core (`_least_core`); every set holding a stored core has no separator
either, so the three-left kernel (`_finder_kernels._three_left_search`)
and `Solver.find_guess` look up cores by their lowest secrets
(`_holds_core`) before they scan any code.

numba's cache does not see a change to a callee in another file: after
editing `_separator_kernels` or `_partition_kernels`, delete
`bactree/search/*/__pycache__`, or these kernels keep the old code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._partition_kernels import _mix64
from ._separator_kernels import MAX_SLOTS, _bit_count, _separators

# `_least_core` deletes secrets against about this many codes first, and gives up past the second figure.
CORE_CODES = 256
CORE_CODES_MOST = 4096


@njit(cache=True)
def _pair_slot(first, second, mask):
    """The slot of the pair index (`heads[0]`, `mask + 1` slots) for cores whose two lowest secrets are `first` and `second`."""
    return np.int64(_mix64((np.uint64(first) << np.uint64(32)) + np.uint64(second)) & np.uint64(mask))


@njit(cache=True)
def _low_slot(low, mask):
    """The slot of the lowest-secret index (`heads[1]`, and its counts `heads[2]`) for cores whose lowest is `low`."""
    return np.int64(_mix64(np.uint64(low) + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(mask))


@njit(cache=True)
def _held_from(members, first, end, inside):
    """True if every secret of `members[first:end]` is flagged in `inside`."""
    for t in range(first, end):
        if not inside[members[t]]:
            return False
    return True


@njit(cache=True)
def _holds_core(part, members, starts, chains, heads, inside):
    """True if `part` holds every secret of one stored core: then no guess separates it.

    A core is found from its lowest secret: for each secret of `part` that
    is some core's lowest (`heads[2]` counts them by slot), either its
    cores are walked (`chains[1]`), or, when they outnumber the secrets of
    `part`, each of its pairs with a higher secret of `part` is looked up
    in the index of cores by their two lowest secrets (`heads[0]`,
    `chains[0]`): whichever checks fewer cores. The pairs alone cost a
    lookup per pair of `part`, which for the sets of a hundred secrets that
    `Solver.unsolved` holds was a fifth of a 5 of 10 refutation. Members
    are checked by `inside` (a flag per code, all False on entry and on
    return).
    """
    mask = heads.shape[1] - 1
    k = part.shape[0]
    for i in range(k):
        inside[part[i]] = True
    held = False
    for i in range(k):
        low = part[i]
        slot = _low_slot(low, mask)
        if heads[2, slot] == 0:
            continue
        if heads[2, slot] <= k:  # walk the cores of this slot
            c = heads[1, slot]
            while c >= 0 and not held:
                at = starts[c]
                held = members[at] == low and _held_from(members, at + 1, starts[c + 1], inside)
                c = chains[1, c]
        else:  # look up the pairs of `low` and a higher secret of `part`
            for j in range(k):
                high = part[j]
                if high <= low:
                    continue
                c = heads[0, _pair_slot(low, high, mask)]
                while c >= 0 and not held:
                    at = starts[c]
                    held = members[at] == low and members[at + 1] == high and _held_from(
                        members, at + 2, starts[c + 1], inside,
                    )
                    c = chains[0, c]
                if held:
                    break
        if held:
            break
    for i in range(k):
        inside[part[i]] = False
    return held


@njit(cache=True)
def _without_separator(table, part, codes):
    """A least subset of `part` that no code of `codes` separates, by deleting secrets in turn (`part` has none).

    A secret goes if the rest still has no separator among `codes`: with
    the answer masks of the secrets kept so far and of every later one
    (`after[i]`), code j separates the rest when the union of the two has
    as many answers as the rest has secrets. What stays is minimal: each
    secret kept was needed when it was tested, and stays needed as the rest shrinks.
    """
    m = part.shape[0]
    num = codes.shape[0]
    one = np.uint64(1)
    after = np.zeros((m + 1, num), np.uint64)
    for i in range(m - 1, -1, -1):
        row = table[part[i]]
        for j in range(num):
            after[i, j] = after[i + 1, j] | (one << np.uint64(row[codes[j]]))
    kept_answers = np.zeros(num, np.uint64)
    num_kept = 0
    keep = np.zeros(m, np.bool_)
    for i in range(m):
        rest = num_kept + m - 1 - i
        for j in range(num):
            if _bit_count(kept_answers[j] | after[i + 1, j]) == rest:
                keep[i] = True  # without secret i, code j would separate the rest
                break
        if keep[i]:
            row = table[part[i]]
            for j in range(num):
                kept_answers[j] |= one << np.uint64(row[codes[j]])
            num_kept += 1
    return part[keep]


@njit(cache=True)
def _least_core(table, part, distinct):
    """A minimal subset of `part` that no code separates (`part` has none; `distinct[g]`: answers code g gives it).

    Deleting secrets against all the codes would cost a scan of every code
    per secret; instead the secrets are deleted against the codes likeliest
    to separate a subset (those giving `part` the most answers, about
    `CORE_CODES`), the result checked against every code, and any code that
    separates it joins the few and the deletion starts again. A result no
    code separates is minimal against every code as it is against the few.
    Past `CORE_CODES_MOST` codes the part itself is returned (seldom).
    """
    num_codes = table.shape[1]
    k = part.shape[0]
    levels = np.zeros(MAX_SLOTS + 1, np.int64)
    for g in range(num_codes):
        levels[distinct[g]] += 1
    least = k - 1  # codes giving more than `least` answers are taken (none gives k)
    taken = 0
    while least > 0 and taken + levels[least] <= CORE_CODES:
        taken += levels[least]
        least -= 1
    codes = np.empty(CORE_CODES_MOST, np.int64)
    num = 0
    for g in range(num_codes):
        if distinct[g] > least or (taken == 0 and distinct[g] == least and num < CORE_CODES):
            codes[num] = g
            num += 1
    found = np.empty(CORE_CODES, np.int64)
    while True:
        core = _without_separator(table, part, codes[:num])
        more = _separators(table, core, np.empty(0, np.uint8), found)
        if more == 0:
            return core
        if num + more > CORE_CODES_MOST:
            return part.copy()
        for i in range(more):  # element by element: a slice copy links numba's shape-error text into every caller
            codes[num + i] = found[i]
        num += more


@njit(cache=True)
def _index_core(n, members, starts, chains, heads):
    """Enter core `n` in both indexes: by its two lowest secrets and by its lowest."""
    mask = heads.shape[1] - 1
    at = starts[n]
    slot = _pair_slot(members[at], members[at + 1], mask)
    chains[0, n] = heads[0, slot]
    heads[0, slot] = n
    slot = _low_slot(members[at], mask)
    chains[1, n] = heads[1, slot]
    heads[1, slot] = n
    heads[2, slot] += 1


@njit(cache=True)
def _store_core(core, members, starts, chains, heads, fill):
    """Add `core` (two or more codes) to the store, ascending, if it has room (`fill`: cores, members held)."""
    core = core[np.argsort(core, kind="mergesort")]
    n, used = fill[0], fill[1]
    if n + 1 >= starts.shape[0] or used + core.shape[0] > members.shape[0]:
        return
    for i in range(core.shape[0]):
        members[used + i] = core[i]
    starts[n + 1] = used + core.shape[0]
    _index_core(n, members, starts, chains, heads)
    fill[0] = n + 1
    fill[1] = used + core.shape[0]


@njit(cache=True)
def _index_cores(members, starts, num_cores, chains, heads):
    """Fill `heads` and `chains` afresh for the first `num_cores` cores (after the store has grown)."""
    heads[0, :] = -1
    heads[1, :] = -1
    heads[2, :] = 0
    for n in range(num_cores):
        _index_core(n, members, starts, chains, heads)
