"""Numba kernels of a guess's bound from its parts' floors: the guesses worth searching on a set, and a lookahead.

A guess on a set costs at least its own cost plus a floor for each part it
leaves, by the part's size and answer class (`part_floor`). These kernels
count the parts of every guess of a pool on a set and keep the guesses
below a bound (`_candidate_guesses`, `_bases_below`), or find the least
such bound over the pool (`_least_base`: one guess of lookahead). Cheap
bounds from the number of parts alone (`_cheap_bases`), or from how many
parts a group of codes of one multiset of symbols can make at most
(`_group_bounds`), leave most guesses uncounted. Partitions come
from `_partition_kernels`; after editing it, delete
`bactree/search/*/__pycache__` (numba's cache does not see a callee's
change in another file).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._partition_kernels import (
    MASK_SLOTS, _answers_of, _distinct_partitions, _guess_bases, _popcount, _shared_counts, _wide_masks, _wide_score,
)

INFINITE = 1 << 60  # the cost of an impossible tree; sums of a few stay below int64 overflow
# `_bases_below` seeks the least bound of the guesses it leaves out level by level of their cheap bounds this often,
# then counts the rest at once.
LEFT_OUT_LEVELS = 3
# `_least_base` bounds groups of codes of one multiset of symbols first (`_least_base_by_group`) when its pool holds
# at least this many codes per group: below it, the cheap bound of every code costs less than the groups' counts.
GROUPED_POOL_PER_GROUP = 4
# `_least_base_below` counts every guess at once on sets of at least this many secrets (`_guess_bases`, one streaming
# pass over the secrets' rows), with no cheap bound first: there the cheap bounds let about three guesses in four
# through, each then counted alone on its own row of the table, a cache miss at every secret. On an exact 5 of 10
# task's first sets (0B1C then 15367) 39 s of CPU so, 26 with the rest streamed after the first guess, 21-24 with
# every guess streamed (2026-11-28, session 32: docs/notes/search-speedups.md); from 60 about the same, from 150 or
# 200 slower.
STREAM_MIN_SET = 100
# `_distinct_partitions` keeps the answers it reads for its exact comparisons up to this many bytes (secrets times
# candidates): past it (large sets), it reads them again from the table.
DEDUPE_ANSWERS_MAX = 1 << 24



@njit(cache=True)
def _candidate_guesses(table, by_secret, subset, pool, solved, num_slots, part_floor, orbit_of, cap, here, bound, dedupe):
    """`CostSearch.candidates` in one call: (guesses, their bounds, least bound left out), best bound first.

    Of `pool` (ascending, as the search's pools are: every code, masks of
    it, or `np.intersect1d`) it keeps the guesses whose parts all fit
    `cap` and that tell something (split `subset` or may solve it), with
    bound `here` + the parts' floors (`part_floor[orbit, answer, size]`, as
    `_guess_bases` reads it) below `bound`; with `dedupe`, only the
    first guess of each distinct partition. Sorted by bound, then largest
    part, then code (as `np.lexsort` would). The third value is the least
    bound of the guesses dropped for reaching `bound` (INFINITE if none).
    Every guess is counted in one streaming pass: the cheap bounds first
    (`_bases_below`) cost more here than they save (the search's bound
    leaves many guesses in, and their least left-out bound is wanted too).
    """
    s = subset.shape[0]
    sums, largest, hits = _guess_bases(by_secret, subset, pool, solved, num_slots, part_floor, orbit_of)
    num = pool.shape[0]
    keep = np.zeros(num, np.bool_)
    left_out = INFINITE
    for j in range(num):
        if largest[j] <= cap and (largest[j] < s or hits[j]):
            if here + sums[j] >= bound:
                left_out = min(left_out, here + sums[j])
            else:
                keep[j] = True
    kept = np.flatnonzero(keep)  # in code order, the pool's
    if dedupe:
        kept = kept[_distinct_partitions(table, by_secret, pool[kept], subset, solved, num_slots, DEDUPE_ANSWERS_MAX)]
    order = kept[_by_bound(sums, largest, kept)]
    return pool[order], here + sums[order], left_out


@njit(cache=True)
def _by_bound(sums, largest, kept):
    """The order of `kept` (guesses' indices, in code order) by bound (`sums`), then largest part, then code.

    One sort of the three packed in a word where they fit (sums below
    2**30, fewer than 2**17 guesses; parts hold fewer than 2**16 secrets),
    else two stable sorts.
    """
    num = kept.shape[0]
    most = 0
    for i in range(num):
        most = max(most, sums[kept[i]])
    if most >= 1 << 30 or num >= 1 << 17:
        order = np.argsort(largest[kept], kind="mergesort")
        return order[np.argsort(sums[kept[order]], kind="mergesort")]
    keys = np.empty(num, np.int64)
    for i in range(num):
        keys[i] = (sums[kept[i]] << 33) | (largest[kept[i]] << 17) | i
    return np.argsort(keys, kind="mergesort")


@njit(cache=True)
def _bases_below(table, by_secret, subset, pool, solved, num_slots, part_floor, orbit_of, cap, here, bound, floor_row, levels):
    """The guesses of `pool` worth searching on `subset` below `bound`: (their indices in `pool`, in its order; their
    bounds; their largest parts; the least bound of the others that fit).

    A guess fits when its parts all fit `cap` and it tells something
    (splits `subset` or may solve it); its bound is `here` plus its parts'
    floors (`part_floor[orbit, answer, size]`, as `_guess_bases` sums
    them). Every guess's cheap bound comes first (`_cheap_bases`, with
    `floor_row` the floors one guess deeper): a guess whose cheap bound
    reaches `bound` is out without its own, and the least bound of those
    left out is found from the lowest cheap bound up (`levels` levels,
    `LEFT_OUT_LEVELS` in the search, then the rest counted at once). When
    most guesses pass the cheap bound, every guess is counted in one
    streaming pass instead (`_guess_bases`).
    """
    s = subset.shape[0]
    num = pool.shape[0]
    cheap = _cheap_bases(by_secret, subset, pool, solved, num_slots, here, floor_row, cap)
    index = np.empty(num, np.int64)
    bases = np.empty(num, np.int64)
    largest = np.empty(num, np.int64)
    kept = 0
    left_out = INFINITE
    below = 0
    for j in range(num):
        if cheap[j] < bound:
            below += 1
    if below * 4 > num:
        sums, parts_largest, hits = _guess_bases(by_secret, subset, pool, solved, num_slots, part_floor, orbit_of)
        for j in range(num):
            if parts_largest[j] <= cap and (parts_largest[j] < s or hits[j]):
                if here + sums[j] >= bound:
                    left_out = min(left_out, here + sums[j])
                else:
                    index[kept], bases[kept], largest[kept] = j, here + sums[j], parts_largest[j]
                    kept += 1
        return index[:kept], bases[:kept], largest[:kept], left_out
    counts = np.zeros(num_slots, np.int64)
    for j in range(num):
        if cheap[j] >= bound:
            continue
        g = pool[j]
        total, big, hit = _guess_base(_answers_of(table, by_secret, g, subset), subset, solved, part_floor[orbit_of[g]], counts)
        if big > cap or (not hit and big == s):
            continue
        if here + total >= bound:
            left_out = min(left_out, here + total)
        else:
            index[kept], bases[kept], largest[kept] = j, here + total, big
            kept += 1
    floor_seen = bound
    for _ in range(levels):
        least = INFINITE
        for j in range(num):
            if floor_seen <= cheap[j] < least:
                least = cheap[j]
        if least >= left_out:
            return index[:kept], bases[:kept], largest[:kept], left_out
        for j in range(num):
            if cheap[j] == least:
                g = pool[j]
                total, big, hit = _guess_base(_answers_of(table, by_secret, g, subset), subset, solved, part_floor[orbit_of[g]], counts)
                if big <= cap and (hit or big < s):
                    left_out = min(left_out, here + total)
        floor_seen = least + 1
    # Still open after a few levels (guesses that do not fit, as a cap on the height makes them): count the rest.
    rest = pool[(cheap >= floor_seen) & (cheap < left_out)]
    left_out = min(left_out, here + _least_counted(by_secret, subset, rest, solved, num_slots, part_floor, orbit_of, cap))
    return index[:kept], bases[:kept], largest[:kept], left_out


@njit(cache=True)
def _least_base(table, by_secret, grouped, subset, pool, solved, num_slots, part_floor, orbit_of, cap, floor_row):
    """The least bound `_candidate_guesses` would give any guess of `pool` (INFINITE if none fits): a lookahead.

    By groups of codes of one multiset of symbols (`_least_base_by_group`)
    where the game's codes are grouped (`grouped`,
    `bactree.game.codes.grouped_answers`) and the pool holds at least
    `GROUPED_POOL_PER_GROUP` codes per group; else every guess's cheap
    bound (`_least_base_below`).
    """
    num_groups = grouped[1].shape[1]
    if num_groups > 0 and pool.shape[0] >= GROUPED_POOL_PER_GROUP * num_groups:
        return _least_base_by_group(table, by_secret, grouped, subset, pool, solved, num_slots, part_floor, orbit_of, cap, floor_row)
    return _least_base_below(table, by_secret, subset, pool, solved, num_slots, part_floor, orbit_of, cap, floor_row, INFINITE)


@njit(cache=True)
def _least_base_below(table, by_secret, subset, pool, solved, num_slots, part_floor, orbit_of, cap, floor_row, least):
    """The least of `least` and of the bounds `_candidate_guesses` would give the guesses of `pool`.

    Every guess's cheap bound first (`_cheap_bases`, with `floor_row` the
    floors one guess deeper); a guess's own bound is computed only while
    its cheap one is below the least found so far, from the guess of least
    cheap bound on, then in the pool's order (sorting the cheap bounds
    costs more than it saves on a pool of every code); past a quarter of
    the guesses, the rest are counted at once (`_guess_bases`). On sets of
    `STREAM_MIN_SET` secrets or more every guess is counted at once, with
    no cheap bound first.
    """
    s = subset.shape[0]
    num = pool.shape[0]
    if num == 0:
        return least
    if s >= STREAM_MIN_SET:
        return min(least, _least_counted(by_secret, subset, pool, solved, num_slots, part_floor, orbit_of, cap))
    cheap = _cheap_bases(by_secret, subset, pool, solved, num_slots, 0, floor_row, cap)
    first = np.argmin(cheap)
    if cheap[first] >= least:
        return least
    counts = np.zeros(num_slots, np.int64)
    total, largest, hit = _guess_base(table[pool[first]], subset, solved, part_floor[orbit_of[pool[first]]], counts)
    if largest <= cap and (largest < s or hit):
        least = min(least, total)
    evaluated = 1
    for j in range(num):
        if j == first or cheap[j] >= least:
            continue
        if 4 * evaluated > num:
            rest = pool[j:][cheap[j:] < least]
            return min(least, _least_counted(by_secret, subset, rest, solved, num_slots, part_floor, orbit_of, cap))
        g = pool[j]
        total, largest, hit = _guess_base(_answers_of(table, by_secret, g, subset), subset, solved, part_floor[orbit_of[g]], counts)
        evaluated += 1
        if largest <= cap and (largest < s or hit):
            least = min(least, total)
    return least


@njit(cache=True)
def _least_base_by_group(table, by_secret, grouped, subset, pool, solved, num_slots, part_floor, orbit_of, cap, floor_row):
    """`_least_base` by groups of codes of one multiset of symbols: the group of least bound (`_group_bounds`) counted
    first, then only the groups whose bound is below the least it gives.

    Both steps count their codes as `_least_base_below` does. The same
    least as every code's cheap bound would give: on a sample of 5 of 9's
    one-guess lookaheads (parts of 31 to 400 secrets of 0B2C after 12567,
    2026-11-28) 1.67 times faster, 7 times on parts under 50 secrets.
    """
    _, shared, starts, most_bulls, members = grouped
    bounds = _group_bounds(shared, most_bulls, subset, cap, floor_row)
    member = np.zeros(table.shape[0], np.bool_)
    member[pool] = True
    order = np.argsort(bounds, kind="mergesort")
    picked = np.empty(pool.shape[0], np.int64)
    least = INFINITE
    num_picked = 0
    for i in range(order.shape[0]):
        k = order[i]
        if bounds[k] >= least:
            break
        for j in range(starts[k], starts[k + 1]):
            if member[members[j]]:
                picked[num_picked] = members[j]
                num_picked += 1
        if i == 0:
            least = _least_base_below(
                table, by_secret, subset, picked[:num_picked], solved, num_slots, part_floor, orbit_of, cap, floor_row, least,
            )
            num_picked = 0
    return _least_base_below(
        table, by_secret, subset, picked[:num_picked], solved, num_slots, part_floor, orbit_of, cap, floor_row, least,
    )


@njit(cache=True)
def _group_bounds(shared, most_bulls, subset, cap, floor_row):
    """Per group of codes of one multiset of symbols, a lower bound of the parts' floors any of its codes leaves of
    `subset` (INFINITE when none fits `cap` or tells anything).

    Every code of a group shares as many symbols (v) with a secret
    (`shared`), and the secrets that share v with it give it at most
    `most_bulls[v]` answers besides all-bulls, so the parts it leaves of
    them cost at least their count split as evenly as can be over that
    many parts (`_even_split_floor`, the floors one guess deeper in
    `floor_row`; a part's own floor by its answer class is at least as
    high); parts of different v never mix, so the sum over v bounds every
    code of the group, and a v whose secrets cannot fit `cap` rules the
    group out. Of the secrets sharing all n symbols one may be the guess
    itself (solved, in no part), so one fewer is counted there. A group of
    one part at most and no secret sharing every symbol tells nothing.
    """
    num_groups, levels = shared.shape[1], most_bulls.shape[0]
    counts = _shared_counts(shared, subset, levels)
    bounds = np.empty(num_groups, np.int64)
    for k in range(num_groups):
        total = parts = 0
        for v in range(levels):
            n = counts[v, k] - 1 if v == levels - 1 else counts[v, k]
            if n <= 0:
                continue
            most = min(n, most_bulls[v])
            if n > most * cap:
                total = INFINITE
                break
            total += _even_split_floor(n, most, floor_row)
            parts += most
        if parts <= 1 and counts[levels - 1, k] == 0:
            total = INFINITE
        bounds[k] = total
    return bounds


@njit(cache=True)
def _even_split_floor(n, parts, floor_row):
    """The floors (`floor_row[size]`) of `n` secrets in `parts` parts (1 <= parts <= n) as even as can be: the least
    any split into that many parts costs, as `floor_row` is convex."""
    if n < 2 * parts:  # parts of 1 and 2 secrets: no division
        return (n - parts) * floor_row[2] + (2 * parts - n) * floor_row[1]
    size, larger = n // parts, n % parts  # `larger` parts of size + 1, the rest of size
    return larger * floor_row[size + 1] + (parts - larger) * floor_row[size]


@njit(cache=True)
def _least_counted(by_secret, subset, guesses, solved, num_slots, part_floor, orbit_of, cap):
    """The least sum of parts' floors of the `guesses` that fit `cap` and tell something (INFINITE if none), every
    guess counted in one streaming pass (`_guess_bases`)."""
    s = subset.shape[0]
    sums, largest, hits = _guess_bases(by_secret, subset, guesses, solved, num_slots, part_floor, orbit_of)
    least = INFINITE
    for j in range(guesses.shape[0]):
        if largest[j] <= cap and (largest[j] < s or hits[j]):
            least = min(least, sums[j])
    return least


@njit(cache=True)
def _cheap_bases(by_secret, subset, pool, solved, num_slots, here, floor_row, cap):
    """For each guess of `pool` on `subset`: `here` plus a lower bound of its parts' floors from how many parts it makes.

    `floor_row[c]` bounds a part of c secrets (`_floor_at` one guess
    deeper; a part's floor by its answer class is at least as high). It is
    convex in c (nodes and crush grow linearly, and the level fill by one
    more guess per secret at each level), so k parts holding the n secrets
    a guess does not solve cost at least what k parts as equal as can be
    do. One bit per answer and guess is set row by row (a streaming pass
    over the secrets' rows, `by_secret`, whose writes go to one word per
    guess in order): cheaper than counting every part. A guess that cannot
    fit `cap` (more secrets than its parts hold at `cap` each) or tells
    nothing (one part, no all-bulls) gets INFINITE.
    """
    num = pool.shape[0]
    if num_slots > MASK_SLOTS:
        return _wide_cheap_bases(by_secret, subset, pool, solved, num_slots, here, floor_row, cap)
    masks = np.zeros(num, np.uint64)
    for x in subset:
        row = by_secret[x]
        for j in range(num):
            masks[j] |= np.uint64(1) << np.uint64(row[pool[j]])
    solved_bit = np.uint64(1) << np.uint64(solved)
    s = subset.shape[0]
    cheap = np.empty(num, np.int64)
    for j in range(num):
        n = s - 1 if masks[j] & solved_bit else s
        cheap[j] = _cheap_base(n, s, np.int64(_popcount(masks[j] & ~solved_bit)), here, floor_row, cap)
    return cheap


@njit(cache=True)
def _wide_cheap_bases(by_secret, subset, pool, solved, num_slots, here, floor_row, cap):
    """`_cheap_bases` for rules of more than `MASK_SLOTS` answers, the parts counted from multi-word masks."""
    num = pool.shape[0]
    masks = _wide_masks(by_secret, subset, pool, num_slots)
    word, bit = solved >> 6, np.uint64(1) << np.uint64(solved & 63)
    s = subset.shape[0]
    cheap = np.empty(num, np.int64)
    for j in range(num):
        hit = (masks[j, word] & bit) != 0
        n = s - 1 if hit else s
        cheap[j] = _cheap_base(n, s, _wide_score(masks, j, solved) - (2 if hit else 0), here, floor_row, cap)
    return cheap


@njit(cache=True)
def _cheap_base(n, s, parts, here, floor_row, cap):
    """One guess's `_cheap_bases` entry: it leaves `n` of the `s` secrets in `parts` parts other than all bulls."""
    if parts == 0:
        return here
    if n > parts * cap or (parts == 1 and n == s):
        return INFINITE
    return here + _even_split_floor(n, parts, floor_row)


@njit(cache=True)
def _guess_base(row, subset, solved, part_floor, counts):
    """One guess's (sum of its parts' floors, largest part, solves one) on `subset`, as `_guess_bases` gives them.

    `row` is the guess's row of the table, `part_floor[answer, size]` its
    parts' floors; `counts` (one per answer, all 0) is scratch, left all 0.
    """
    for i in range(subset.shape[0]):
        counts[row[subset[i]]] += 1
    total = 0
    largest = 0
    hit = False
    for i in range(subset.shape[0]):
        a = row[subset[i]]
        c = counts[a]
        if c == 0:
            continue  # this answer's part is summed already
        counts[a] = 0
        if a == solved:
            hit = True
        else:
            total += part_floor[a, c]
            largest = max(largest, c)
    return total, largest, hit
