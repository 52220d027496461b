"""Numba kernels of crowds: rearrangements of one multiset of symbols, which only bulls tell apart.

Rearrangements of one multiset share as many symbols with any guess, so a
guess splits them by bulls alone: into at most n answers (0 to n bulls,
never n - 1 once all n symbols are shared). So a part holding more than n
of them has no separator, and d guesses solve at most n^(d-1) of them,
fewer as `crowds.crowd_limits` counts (`Solver.crowd_limit`). The
three-left kernel (`_finder_kernels`) and `Solver.ordered_guesses` drop
the guesses that leave a part past the limit.

Whether a guess does is read without the answer table. First its total
bulls on the widest crowd, from a small table of how many members hold
each symbol at each position, against the least and most totals that
leave no part past the limit (`_crowd_sums`); then bit masks of each
crowd's members (`_crowd_masks`: per position and symbol, the members
holding that symbol there): a guess's bulls on every member at once are
the sum of n masks, added bit-sliced, and a part too large is a count of
one bulls value past the limit (`_crowded_in_planes`). On the sets of a
5 of 10 refutation with three guesses left, where crowds make most of a
set, that rules out every code but a handful in about a tenth of a
millisecond (against about ten by reading the table), so the kernel
counts the parts of those few codes alone (see the docs' notes, session
36).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._partition_kernels import _keep, _kept_value, _mix64
from ._separator_kernels import _bit_count

# The widest crowd and the longest code the bit masks take (64 members a word, bulls counted in three bits).
MASK_MEMBERS_MOST = 64
MASK_LENGTH_MOST = 7


@njit(cache=True)
def _crowds(subset, multiset_of, most):
    """The secrets of `subset` that are rearrangements of one multiset of symbols with more than `most` of them,
    grouped by multiset: (secrets, where each group starts, one more entry than groups).

    `most` is `Solver.crowd_limit(2)` (n) for a part to be separated, `crowd_limit(d)` for d guesses to solve it.
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

    `codes`: every code's symbols (`bactree.game.codes.code_array`), `num_symbols` the alphabet's size.
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
def _crowd_sums(masks, starts, most):
    """(sums, low, high) for the widest group of `masks` (`_crowd_masks`, with at least one group): sums[p, symbol]
    how many of its members have `symbol` at position p, and the least and the most total bulls a guess can give
    its members while leaving no part with more than `most` of them.

    A guess's total is the sum of sums[p, its symbol at p]; with at most
    `most` members at each bulls value short of n (and the guess itself at
    n), the total lies between the members packed from 0 bulls up and from
    n down. A total outside that range is a crowded part, found with n
    reads of a small table instead of the masks' bit planes.
    """
    num, n, num_symbols = masks.shape
    widest = 0
    for c in range(num):
        if starts[c + 1] - starts[c] > starts[widest + 1] - starts[widest]:
            widest = c
    sums = np.zeros((n, num_symbols), np.int64)
    for p in range(n):
        for symbol in range(num_symbols):
            sums[p, symbol] = _bit_count(masks[widest, p, symbol])
    members = starts[widest + 1] - starts[widest]
    low = 0
    left = members
    for bulls in range(n):
        take = min(most, left)
        low += take * bulls
        left -= take
    if left == 1:
        low += n  # the guess itself
    elif left > 1:
        low = n * members + 1  # more than every bulls value holds: every guess crowds it
    high = n if members else 0
    left = members - 1
    for bulls in range(n - 1, -1, -1):
        take = min(most, left)
        high += take * bulls
        left -= take
    return sums, low, high


@njit(cache=True)
def _crowded_in_planes(codes, guess, masks, starts, most):
    """True if `guess` leaves a part with more than `most` members of one group of `masks` (`_crowd_masks`).

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
def _uncrowded_guesses(codes, subset, member, hard, masks, starts, most, order):
    """The guesses of a three-left search that leave no crowded part, in its order (codes of `subset` first, then
    the rest from the lowest; `member` flags `subset`'s codes; in `hard` mode its codes alone), put in `order`:
    how many. `masks` has at least one group (`_crowd_masks`).

    Each code's total on the widest group (`_crowd_sums`) is read here, not
    in a function of its own: a call per code passing arrays costs two
    reference counts an array, more than the test.
    """
    sums, low, high = _crowd_sums(masks, starts, most)
    n = codes.shape[1]
    s = subset.shape[0]
    num = 0
    for idx in range(s + (0 if hard else codes.shape[0])):
        g = subset[idx] if idx < s else idx - s
        if idx >= s and member[g]:
            continue
        total = 0
        for p in range(n):
            total += sums[p, codes[g, p]]
        if total < low or total > high or _crowded_in_planes(codes, g, masks, starts, most):
            continue
        order[num] = g
        num += 1
    return num


@njit(cache=True)
def _crowded_guesses(table, guesses, subset, multiset_of, codes, num_symbols, most, solved, num_slots):
    """Per guess of `guesses`, True if it leaves a part of `subset` holding more than `most` rearrangements of one
    multiset of symbols (`_crowds`): from the crowds' masks where they fit, else from the table."""
    crowds, starts = _crowds(subset, multiset_of, most)
    crowded = np.zeros(guesses.shape[0], np.bool_)
    if crowds.shape[0] == 0:
        return crowded
    masks = _crowd_masks(codes, num_symbols, crowds, starts)
    tally = np.zeros(num_slots, np.int64)
    for j in range(guesses.shape[0]):  # once per set decided with four guesses left: not worth `_uncrowded_guesses`
        if masks.shape[0]:
            crowded[j] = _crowded_in_planes(codes, guesses[j], masks, starts, most)
        else:
            crowded[j] = _crowded(table, guesses[j], crowds, starts, solved, most, tally)
    return crowded


@njit(cache=True)
def _survivors_of_crowd(codes, num_symbols, crowd, most, out):
    """Every code that leaves no part with more than `most` members of `crowd` (one group of `_crowds`, at most
    `MASK_MEMBERS_MOST` members), ascending, put in `out`: how many."""
    starts = np.zeros(2, np.int64)
    starts[1] = crowd.shape[0]
    masks = _crowd_masks(codes, num_symbols, crowd, starts)
    sums, low, high = _crowd_sums(masks, starts, most)
    n = codes.shape[1]
    num = 0
    for g in range(codes.shape[0]):
        total = 0
        for p in range(n):
            total += sums[p, codes[g, p]]
        if low <= total <= high and not _crowded_in_planes(codes, g, masks, starts, most):
            out[num] = g
            num += 1
    return num


@njit(cache=True)
def _crowd_key(crowd):
    """A hash of `crowd`'s members (ascending), never 0."""
    key = np.uint64(crowd.shape[0])
    for i in range(crowd.shape[0]):
        key = _mix64(key ^ np.uint64(crowd[i]))
    return key | np.uint64(1)


@njit(cache=True)
def _crowds_leave_no_guess(codes, num_symbols, subset, multiset_of, most, keys, at, data, fill):
    """True if every code leaves a part of `subset` with more than `most` rearrangements of one multiset (a crowd):
    then no guess solves `subset` within three, as `_uncrowded_guesses` finding none says (not in hard mode).

    A code that survives `subset` survives each of its crowds alone, so
    only the survivors of one crowd need checking against the others (by
    their bit planes, `_crowded_in_planes`): those of the crowd with the
    fewest, among the crowds whose survivors are cached (crowds recur
    across the sets of a search), or else of the widest crowd, found by a
    pass over every code and cached. The cache: `keys` (a hash per slot, 0
    empty), `at[slot]` (where its entry starts in `data`: its member count,
    its members ascending, its survivors' count, its survivors: a table of
    `_partition_kernels._kept_value` whose values are those places), `fill`
    (entries, cells of `data` used); new crowds are kept while there is
    room (`bactree.search.height.crowds.CrowdCache` makes room between calls).
    False when a crowd is too wide for masks or codes too long.
    """
    crowds, starts = _crowds(subset, multiset_of, most)
    num = starts.shape[0] - 1
    if num == 0 or codes.shape[1] > MASK_LENGTH_MOST:
        return False
    widest = 0
    for c in range(num):
        if starts[c + 1] - starts[c] > MASK_MEMBERS_MOST:
            return False
        if starts[c + 1] - starts[c] > starts[widest + 1] - starts[widest]:
            widest = c
    best_first, best_count = -1, codes.shape[0] + 1  # the shortest cached list of survivors
    for c in range(num):
        members = crowds[starts[c]:starts[c + 1]]
        crowd = members[np.argsort(members, kind="mergesort")]  # a stable sort: numba compiles one sort for all
        entry = _kept_value(keys, at, at, data, crowd, _crowd_key(crowd))
        if entry >= 0:
            first = entry + 1 + crowd.shape[0]
            if data[first] < best_count:
                best_first, best_count = first + 1, data[first]
    if best_first < 0:  # none cached: the widest crowd's, found and kept if there is room
        members = crowds[starts[widest]:starts[widest + 1]]
        crowd = members[np.argsort(members, kind="mergesort")]
        m = crowd.shape[0]
        scratch = np.empty(codes.shape[0], np.int64)
        count = _survivors_of_crowd(codes, num_symbols, crowd, most, scratch)
        used = fill[1]
        if 2 * (fill[0] + 1) > keys.shape[0] or used + m + count + 2 > data.shape[0]:
            data = np.empty(m + count + 2, np.int32)  # no room: a list of its own, not kept
            used = 0
        else:
            _keep(keys, at, at, _crowd_key(crowd), used, used)
            fill[0] += 1
            fill[1] = used + m + count + 2
        data[used] = m
        data[used + 1 + m] = count
        for i in range(m):  # element by element: slice copies link numba's shape-error text into every caller
            data[used + 1 + i] = crowd[i]
        for i in range(count):
            data[used + 2 + m + i] = scratch[i]
        best_first, best_count = used + 2 + m, count
    masks = _crowd_masks(codes, num_symbols, crowds, starts)
    for i in range(best_count):
        if not _crowded_in_planes(codes, np.int64(data[best_first + i]), masks, starts, most):
            return False
    return True
