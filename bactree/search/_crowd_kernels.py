"""Numba kernels of crowds: rearrangements of one multiset of symbols, which only bulls tell apart.

Rearrangements of one multiset share as many symbols with any guess, so a
guess splits them by bulls alone: into at most n answers (0 to n bulls,
never n - 1 once all n symbols are shared). So a part holding more than n
of them has no separator, and d guesses solve at most n^(d-1) of them
(`Solver.crowd_limit`). The three-left kernel (`_finder_kernels`) and
`Solver.ordered_guesses` drop the guesses that leave such a part.

Whether a guess does is read from bit masks of each crowd's members
(`_crowd_masks`: per position and symbol, the members holding that symbol
there), without a read of the answer table: a guess's bulls on every
member at once are the sum of n masks, added bit-sliced, and a part too
large is a count of one bulls value past the limit. On the sets of a 5 of
10 refutation with three guesses left, where crowds make most of a set,
that rules out every code but a handful in about a third of a millisecond
(against about ten by reading the table), so the kernel counts the parts
of those few codes alone (see the docs' notes, session 36).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._separator_kernels import _bit_count

# The widest crowd and the longest code the bit masks take (64 members a word, bulls counted in three bits).
MASK_MEMBERS_MOST = 64
MASK_LENGTH_MOST = 7


@njit(cache=True)
def _crowds(subset, multiset_of, most):
    """The secrets of `subset` that are rearrangements of one multiset of symbols with more than `most` of them,
    grouped by multiset: (secrets, where each group starts, one more entry than groups).

    `most` is n for a part to be separated, n^(d-1) for d guesses to solve it.
    """
    k = subset.shape[0]
    ids = np.empty(k, np.int64)
    for i in range(k):
        ids[i] = multiset_of[subset[i]]
    order = np.argsort(ids, kind="mergesort")
    members = np.empty(k, np.int64)
    starts = np.zeros(k + 1, np.int64)
    num = used = 0
    i = 0
    while i < k:
        j = i
        while j < k and ids[order[j]] == ids[order[i]]:
            j += 1
        if j - i > most:
            for t in range(i, j):
                members[used] = subset[order[t]]
                used += 1
            num += 1
            starts[num] = used
        i = j
    return members[:used], starts[:num + 1]


@njit(cache=True)
def _crowded(table, guess, crowds, starts, solved, most, tally):
    """True if `guess` leaves a part holding more than `most` secrets of one group of `crowds` (`_crowds`): no guess
    separates that part. By reading the table; `tally` (one per answer, all 0) is scratch, left all 0."""
    for c in range(starts.shape[0] - 1):
        crowded = False
        for t in range(starts[c], starts[c + 1]):
            a = table[guess, crowds[t]]
            if a != solved:
                tally[a] += 1
                if tally[a] > most:
                    crowded = True
        for t in range(starts[c], starts[c + 1]):
            tally[table[guess, crowds[t]]] = 0
        if crowded:
            return True
    return False


@njit(cache=True)
def _crowd_masks(codes, num_symbols, crowds, starts):
    """masks[c, p, symbol]: the members of group c of `crowds` (`_crowds`) with `symbol` at position p, one bit each
    in the group's order; no groups (an empty first axis) when a group is wider than `MASK_MEMBERS_MOST` or codes
    longer than `MASK_LENGTH_MOST`, where `_crowded` reads the table instead.

    `codes`: every code's symbols (`bactree.codes.code_array`), `num_symbols` the alphabet's size.
    """
    n = codes.shape[1]
    num = starts.shape[0] - 1
    widest = 0
    for c in range(num):
        widest = max(widest, starts[c + 1] - starts[c])
    if widest > MASK_MEMBERS_MOST or n > MASK_LENGTH_MOST:
        num = 0
    masks = np.zeros((num, n, num_symbols), np.uint64)
    for c in range(num):
        for t in range(starts[c], starts[c + 1]):
            bit = np.uint64(1) << np.uint64(t - starts[c])
            for p in range(n):
                masks[c, p, codes[crowds[t], p]] |= bit
    return masks


@njit(cache=True)
def _crowded_by_masks(codes, guess, masks, starts, most):
    """`_crowded` from the groups' bit masks (`_crowd_masks`, with at least one group): no read of the table.

    Each member's bulls on `guess` is the number of positions where its mask
    for the guess's symbol has its bit, summed for all members at once in
    three bit planes (bulls up to 7); then each bulls value short of n, a
    part of its own, is counted by popcount.
    """
    n = codes.shape[1]
    zero = np.uint64(0)
    for c in range(masks.shape[0]):
        ones = twos = fours = zero
        for p in range(n):
            bits = masks[c, p, codes[guess, p]]
            carry = ones & bits
            ones ^= bits
            fours |= twos & carry
            twos ^= carry
        members = ~zero >> np.uint64(64 - (starts[c + 1] - starts[c]))
        for bulls in range(n):  # n bulls: the guess itself, solved
            part = members & (ones if bulls & 1 else ~ones) & (twos if bulls & 2 else ~twos)
            part &= fours if bulls & 4 else ~fours
            if _bit_count(part) > most:
                return True
    return False


@njit(cache=True)
def _crowded_guesses(table, guesses, subset, multiset_of, codes, num_symbols, most, solved, num_slots):
    """Per guess of `guesses`, True if it leaves a part of `subset` holding more than `most` rearrangements of one
    multiset of symbols (`_crowds`)."""
    crowds, starts = _crowds(subset, multiset_of, most)
    crowded = np.zeros(guesses.shape[0], np.bool_)
    if crowds.shape[0] == 0:
        return crowded
    masks = _crowd_masks(codes, num_symbols, crowds, starts)
    tally = np.zeros(num_slots, np.int64)
    for j in range(guesses.shape[0]):
        if masks.shape[0]:
            crowded[j] = _crowded_by_masks(codes, guesses[j], masks, starts, most)
        else:
            crowded[j] = _crowded(table, guesses[j], crowds, starts, solved, most, tally)
    return crowded
