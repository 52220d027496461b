"""Numba kernels of the least-cost search: bounds, memo look-ups and the screen of guesses.

`bactree.search.cost` (and `refine`) drive these for the heavy inner
loops: floors by set size, a guess's bound from its parts, a one-guess
lookahead, the memo (typed dicts keyed by `_set_key`) and the screen of
guesses; `_small_set_kernels` builds the branch and bound of small sets on
them. Partitions come from `_partition_kernels`. The kernels here call
each other, so they stay in one file.

numba's cache does not see a change to a callee in another file: after
editing `_partition_kernels` or `_height_kernels`, delete
`bactree/search/__pycache__`, or these kernels keep their old code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._partition_kernels import (
    _count_parts, _distinct_partitions, _guess_bases, _most_answers, _popcount, _split_into,
)

INFINITE = 1 << 60  # the cost of an impossible tree; sums of a few stay below int64 overflow
# `_bases_below` seeks the least bound of the guesses it leaves out level by level of their cheap bounds this often,
# then counts the rest at once.
LEFT_OUT_LEVELS = 3


@njit(cache=True)
def _set_key(subset, depth):
    """Two independent 64-bit hashes of a sorted set and a depth: the memo key (collisions ~2**-128)."""
    h1 = np.uint64(1469598103934665603)
    h2 = np.uint64(depth) * np.uint64(0x9E3779B97F4A7C15)
    for x in subset:
        v = np.uint64(x) + np.uint64(1)
        h1 = (h1 ^ v) * np.uint64(1099511628211)
        z = h2 + v * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(31))) * np.uint64(0x94D049BB133111EB)
        h2 = z ^ (z >> np.uint64(29))
    return (h1, h2)


@njit(cache=True)
def _floor_at(floor, depth):
    """`floor[depth]`: proven lower bounds by set size within `depth` guesses.

    Rows past the last repeat it: a cost that does not depend on depth (nodes,
    total guesses) has one row, and with crush (secrets solved at the last
    guess) every row from the first depth whose lower levels hold every code on
    is alike.
    """
    return floor[min(depth, floor.shape[0] - 1)]


@njit(cache=True)
def _floor_of(floor, depth, size):
    """`_floor_at(floor, depth)[size]` without making a view: for the hottest lookups."""
    return floor[min(depth, floor.shape[0] - 1), size]


@njit(cache=True)
def _candidate_guesses(table, subset, pool, solved, num_slots, part_floor, orbit_of, cap, here, bound, dedupe):
    """`CostSearch.candidates` in one call: (guesses, their bounds, least bound left out), best bound first.

    Of `pool` it keeps the guesses whose parts all fit
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
    sums, largest, hits = _guess_bases(table, subset, pool, solved, num_slots, part_floor, orbit_of)
    num = pool.shape[0]
    keep = np.zeros(num, np.bool_)
    left_out = INFINITE
    for j in range(num):
        if largest[j] <= cap and (largest[j] < s or hits[j]):
            if here + sums[j] >= bound:
                left_out = min(left_out, here + sums[j])
            else:
                keep[j] = True
    kept = np.flatnonzero(keep)
    kept = kept[np.argsort(pool[kept], kind="mergesort")]
    if dedupe:
        kept = kept[_distinct_partitions(table, pool[kept], subset, solved, num_slots)]
    order = kept[np.argsort(largest[kept], kind="mergesort")]
    order = order[np.argsort(sums[order], kind="mergesort")]
    return pool[order], here + sums[order], left_out


@njit(cache=True)
def _bases_below(table, subset, pool, solved, num_slots, part_floor, orbit_of, cap, here, bound, floor_row, levels):
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
    cheap = _cheap_bases(table, subset, pool, solved, here, floor_row, cap)
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
        sums, parts_largest, hits = _guess_bases(table, subset, pool, solved, num_slots, part_floor, orbit_of)
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
        total, big, hit = _guess_base(table[g], subset, solved, part_floor[orbit_of[g]], counts)
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
                total, big, hit = _guess_base(table[g], subset, solved, part_floor[orbit_of[g]], counts)
                if big <= cap and (hit or big < s):
                    left_out = min(left_out, here + total)
        floor_seen = least + 1
    # Still open after a few levels (guesses that do not fit, as a cap on the height makes them): count the rest.
    rest = pool[(cheap >= floor_seen) & (cheap < left_out)]
    left_out = min(left_out, here + _least_counted(table, subset, rest, solved, num_slots, part_floor, orbit_of, cap))
    return index[:kept], bases[:kept], largest[:kept], left_out


@njit(cache=True)
def _least_base(table, subset, pool, solved, num_slots, part_floor, orbit_of, cap, floor_row):
    """The least bound `_candidate_guesses` would give any guess of `pool` (INFINITE if none fits): a lookahead.

    Every guess's cheap bound first (`_cheap_bases`, with `floor_row` the
    floors one guess deeper); a guess's own bound is computed only while
    its cheap one is below the least found so far, from the guess of least
    cheap bound on; past a quarter of the guesses, the rest are counted at
    once (`_guess_bases`).
    """
    s = subset.shape[0]
    num = pool.shape[0]
    cheap = _cheap_bases(table, subset, pool, solved, 0, floor_row, cap)
    first = np.argmin(cheap)
    if cheap[first] >= INFINITE:
        return INFINITE  # no guess fits
    counts = np.zeros(num_slots, np.int64)
    total, largest, hit = _guess_base(table[pool[first]], subset, solved, part_floor[orbit_of[pool[first]]], counts)
    least = total if largest <= cap and (largest < s or hit) else INFINITE
    evaluated = 1
    for j in range(num):
        if j == first or cheap[j] >= least:
            continue
        if 4 * evaluated > num:
            rest = pool[j:][cheap[j:] < least]
            return min(least, _least_counted(table, subset, rest, solved, num_slots, part_floor, orbit_of, cap))
        g = pool[j]
        total, largest, hit = _guess_base(table[g], subset, solved, part_floor[orbit_of[g]], counts)
        evaluated += 1
        if largest <= cap and (largest < s or hit):
            least = min(least, total)
    return least


@njit(cache=True)
def _least_counted(table, subset, guesses, solved, num_slots, part_floor, orbit_of, cap):
    """The least sum of parts' floors of the `guesses` that fit `cap` and tell something (INFINITE if none), every
    guess counted in one streaming pass (`_guess_bases`)."""
    s = subset.shape[0]
    sums, largest, hits = _guess_bases(table, subset, guesses, solved, num_slots, part_floor, orbit_of)
    least = INFINITE
    for j in range(guesses.shape[0]):
        if largest[j] <= cap and (largest[j] < s or hits[j]):
            least = min(least, sums[j])
    return least


@njit(cache=True)
def _still_possible_value(table, subset, solved, num_slots, part_floor, orbit_of, here, outside, limit):
    """The least cost of `subset` when still-possible guesses settle it, or -1 if they may not.

    Values each guess of `subset` (costing `here`) from its part sizes
    (|subset|**2 lookups): `part_floor[orbit, answer, size]` is exact for
    parts of at most 2, larger ones are only bounded. If the best exact value is no more than
    every other bound here and than `outside`, a lower bound of what any
    guess outside `subset` could reach (INFINITE in hard mode, where there
    is none), it is the least cost: no full scan of the codes is needed.
    """
    counts = np.zeros(num_slots, np.int64)
    best_exact = INFINITE
    best_bound = INFINITE
    for g in subset:
        if not _count_parts(table[g], subset, counts, solved, limit):
            continue
        total = here
        largest = 0
        floor_g = part_floor[orbit_of[g]]
        for a in range(num_slots):
            if a != solved:
                total += floor_g[a, counts[a]]
                largest = max(largest, counts[a])
        if largest <= 2:
            best_exact = min(best_exact, total)
        else:
            best_bound = min(best_bound, total)
    if best_exact <= best_bound and best_exact <= outside:
        return best_exact
    return -1


@njit(cache=True)
def _memo_bound(subset, depth, floor, exact, lower):
    """(the best lower bound the memo holds for `subset` within `depth` guesses, at least the floor; whether it holds one).

    Sets of at most 2 count as held: their floor is exact.
    """
    s = subset.shape[0]
    if s <= 2:
        return _floor_of(floor, depth, s), True
    return _keyed_bound(_set_key(subset, depth), s, depth, floor, exact, lower)


@njit(cache=True)
def _keyed_bound(key, size, depth, floor, exact, lower):
    """`_memo_bound` of a set of `size` secrets (3 or more) whose memo key is `key`, already made."""
    least = _floor_of(floor, depth, size)
    if key in exact:
        return exact[key], True
    if key in lower:
        return max(least, lower[key]), True
    return least, False


@njit(cache=True)
def _lookahead(table, grouped, subset, depth, solved, caps, floor, level_fill, weights, hard, exact, lower):
    """For costs that count total guesses: a lower bound for `subset` from how finely one guess can split it; remembered in `lower`.

    A value already in the memo came from such a lookahead or from a
    search, which proves at least as much, so it is returned as it is;
    else `_split_bound`'s bound is remembered.
    """
    s = subset.shape[0]
    if s > caps[depth]:
        return INFINITE
    known, held = _memo_bound(subset, depth, floor, exact, lower)
    if held:
        return known
    least = _split_bound(table, grouped, subset, depth, solved, caps, floor, level_fill, weights, hard)
    lower[_set_key(subset, depth)] = least
    return least


@njit(cache=True)
def _split_bound(table, grouped, subset, depth, solved, caps, floor, level_fill, weights, hard):
    """A lower bound for `subset` (of 3 to `caps[depth]` secrets) within `depth` guesses from how finely one guess can
    split it; no memo.

    A part of c secrets costs at least 2c - 1 guesses (one found at once, the
    rest later), so a guess that gets k answers besides all-bulls, hit = 1 if
    one is all-bulls, leaves at least 2 * (|subset| - hit) - k below it: the
    total is at least 3 * |subset| - max(k + 2 * hit). The floor counts the
    total as `level_fill` (weighted by `weights[1]`), and each key of a
    weighted cost may be bounded on its own, so the floor's total part is
    replaced by this bound when it is larger.
    """
    s = subset.shape[0]
    branching = caps[2] - 1 if caps.shape[0] > 2 else s  # answers besides all-bulls (`level_caps`)
    total = 3 * s - _most_answers(table, subset, solved, hard, branching, grouped)
    least = _floor_of(floor, depth, s)
    return max(least, least + weights[1] * (total - level_fill[s]))


@njit(cache=True)
def _open_guess(
    table, grouped, subset, guess, depth, solved, num_slots, caps, floor, class_floor, orbit_of, lookahead, level_fill,
    weights, hard, exact, lower, kernel_max, room,
):
    """The parts of `subset` under `guess` with the bounds the kernel can give them before any search.

    Returns `(ordered, starts, slots, known, raised)`: the secrets grouped by
    answer, where each answer's group starts, the answers with a part from
    the largest part down (answer order on ties), per answer a proven lower
    bound of its part within `depth` guesses, and how far these bounds rise
    above the parts' floors in all. A bound is the part's floor by its
    answer class (`class_floor`, as `_guess_bases` sums them), raised for
    parts of 3 to `kernel_max` secrets to what the memo holds and then, if
    `lookahead` (costs counting total guesses) and for the parts the memo
    does not hold but the largest (searched first anyway), to the lookahead
    bound (`_lookahead`: remembered), until the bounds have risen by
    `room`: the guess is out of reach by then. Each part is keyed once.
    """
    ordered, starts, counts, slots, known, open_keys, is_open = _open_scratch(subset.shape[0], num_slots)
    num_parts, raised = _open_guess_into(
        table, grouped, subset, guess, depth, solved, num_slots, caps, floor, class_floor, orbit_of, lookahead, level_fill,
        weights, hard, exact, lower, kernel_max, room, ordered, starts, counts, slots, known, open_keys, is_open,
    )
    return ordered, starts, slots[:num_parts], known, raised


@njit(cache=True)
def _open_scratch(size, num_slots):
    """The arrays `_open_guess_into` fills, for sets of up to `size` secrets."""
    return (
        np.empty(size, np.int64), np.empty(num_slots + 1, np.int64), np.empty(num_slots, np.int64),
        np.empty(num_slots, np.int64), np.empty(num_slots, np.int64), np.empty((num_slots, 2), np.uint64),
        np.empty(num_slots, np.bool_),
    )


@njit(cache=True)
def _open_guess_into(
    table, grouped, subset, guess, depth, solved, num_slots, caps, floor, class_floor, orbit_of, lookahead, level_fill,
    weights, hard, exact, lower, kernel_max, room, ordered, starts, counts, slots, known, open_keys, is_open,
):
    """`_open_guess` into arrays the caller holds (`_open_scratch`), so a loop over guesses allocates nothing.

    Returns `(the number of parts, raised)`; the answers with a part are
    `slots[:number]`, from the largest part down (answer order on ties).
    """
    _split_into(table[guess], subset, ordered, starts, counts)
    num_parts = 0
    for a in range(num_slots):
        if a == solved or counts[a] == 0:
            continue
        j = num_parts  # insertion by size, after the equal ones: a stable sort, largest first
        while j > 0 and counts[slots[j - 1]] < counts[a]:
            slots[j] = slots[j - 1]
            j -= 1
        slots[j] = a
        num_parts += 1
    part_floor = _floor_at(class_floor, depth)[orbit_of[guess]]
    raised = 0
    for a in slots[:num_parts]:
        c = counts[a]
        known[a] = part_floor[a, c]
        is_open[a] = False  # a part of 3 to `kernel_max` the memo does not hold, by its key in `open_keys`
        if 2 < c <= kernel_max:
            key = _set_key(ordered[starts[a]:starts[a + 1]], depth)
            held, is_held = _keyed_bound(key, c, depth, floor, exact, lower)
            if not is_held:
                open_keys[a, 0], open_keys[a, 1] = key
                is_open[a] = True
            if held > known[a]:
                raised += held - known[a]
                known[a] = held
    if lookahead:
        for a in slots[1:num_parts]:
            if raised >= room:
                break
            if not is_open[a]:
                continue
            c = counts[a]
            bound = INFINITE
            if c <= caps[depth]:
                bound = _split_bound(
                    table, grouped, ordered[starts[a]:starts[a + 1]], depth, solved, caps, floor, level_fill, weights, hard,
                )
                lower[(open_keys[a, 0], open_keys[a, 1])] = bound
            if bound > known[a]:
                raised += bound - known[a]
                known[a] = bound
    return num_parts, raised


@njit(cache=True)
def _screen_guesses(
    table, grouped, subset, guesses, bases, start, depth, best, best_guess, fail_low, solved, num_slots, caps, floor,
    class_floor, orbit_of, lookahead, level_fill, weights, hard, exact, lower, kernel_max,
):
    """The next guess, from `start` on, that its parts' bounds do not rule out: the search's loop without the search.

    `guesses` are sorted by their bound `bases`; a guess is ruled out when
    its bound, raised by `_open_guess`, reaches `best` (or `best + 1` for a
    code below `best_guess`, since ties go to the lowest code; `best_guess`
    is -1 while nothing is found). Returns `(index, fail_low, ordered,
    starts, slots, known, raised)`: the guess's index and `_open_guess`'s
    findings for it, or the number of guesses when none is left; `fail_low`
    is lowered to the least bound of the guesses ruled out.
    """
    ordered, starts, counts, slots, known, open_keys, is_open = _open_scratch(subset.shape[0], num_slots)
    for i in range(start, guesses.shape[0]):
        guess = guesses[i]
        base = bases[i]
        if base > best or (base == best and best_guess < 0):
            fail_low = min(fail_low, base)
            break  # sorted by bound: no later guess can do better
        limit = best + 1 if (best_guess >= 0 and guess < best_guess) else best
        if base >= limit:
            continue
        num_parts, raised = _open_guess_into(
            table, grouped, subset, guess, depth, solved, num_slots, caps, floor, class_floor, orbit_of, lookahead, level_fill,
            weights, hard, exact, lower, kernel_max, limit - base, ordered, starts, counts, slots, known, open_keys,
            is_open,
        )
        if base + raised < limit:
            return i, fail_low, ordered, starts, slots[:num_parts], known, raised
        fail_low = min(fail_low, base + raised)
    none = np.empty(0, np.int64)
    return guesses.shape[0], fail_low, none, np.zeros(num_slots + 1, np.int64), none, none, np.int64(0)


@njit(cache=True)
def _kernel_pool(codes, subset, member):
    """The guesses worth trying on `subset`: its own codes, then each other code whose symbols unused by the set come
    in the order of the least such symbols (the least code of its class under relabellings of those symbols).

    A relabelling of the symbols no code of the set uses maps the set onto
    itself, so a guess and its relabellings split it alike and have one
    value: trying the least of each class is enough. `codes[-1]`, the last
    code, holds the largest symbol.
    """
    num_codes, n = codes.shape
    num_symbols = 0
    for i in range(n):
        num_symbols = max(num_symbols, int(codes[num_codes - 1, i]) + 1)
    used = np.zeros(num_symbols, np.bool_)
    for x in subset:
        for i in range(n):
            used[codes[x, i]] = True
    unused = np.empty(num_symbols, np.int64)
    num_unused = 0
    for c in range(num_symbols):
        if not used[c]:
            unused[num_unused] = c
            num_unused += 1
    pool = np.empty(num_codes, np.int64)
    num = subset.shape[0]
    pool[:num] = subset
    seen = np.zeros(num_symbols, np.bool_)
    for g in range(num_codes):
        if member[g]:
            continue
        next_free = 0
        canonical = True
        for i in range(n):
            c = codes[g, i]
            if not used[c] and not seen[c]:
                if c != unused[next_free]:
                    canonical = False
                    break
                seen[c] = True
                next_free += 1
        for i in range(n):
            seen[codes[g, i]] = False
        if canonical:
            pool[num] = g
            num += 1
    return pool[:num]


@njit(cache=True)
def _cheap_bases(table, subset, pool, solved, here, floor_row, cap):
    """For each guess of `pool` on `subset`: `here` plus a lower bound of its parts' floors from how many parts it makes.

    `floor_row[c]` bounds a part of c secrets (`_floor_at` one guess
    deeper; a part's floor by its answer class is at least as high). It is
    convex in c (nodes and crush grow linearly, and the level fill by one
    more guess per secret at each level), so k parts holding the n secrets
    a guess does not solve cost at least what k parts as equal as can be
    do. One bit per answer and guess is set row by row (a streaming pass
    over the secrets' rows of the table, whose writes go to one word per
    guess in order): cheaper than counting every part. A guess that cannot
    fit `cap` (more secrets than its parts hold at `cap` each) or tells
    nothing (one part, no all-bulls) gets INFINITE.
    """
    num = pool.shape[0]
    masks = np.zeros(num, np.uint64)
    for x in subset:
        row = table[x]
        for j in range(num):
            masks[j] |= np.uint64(1) << np.uint64(row[pool[j]])
    solved_bit = np.uint64(1) << np.uint64(solved)
    s = subset.shape[0]
    cheap = np.empty(num, np.int64)
    for j in range(num):
        n = s - 1 if masks[j] & solved_bit else s
        parts = np.int64(_popcount(masks[j] & ~solved_bit))
        if parts == 0:
            cheap[j] = here
            continue
        if n > parts * cap or (parts == 1 and n == s):
            cheap[j] = INFINITE
            continue
        if n < 2 * parts:  # parts of 1 and 2 secrets: no division
            cheap[j] = here + (n - parts) * floor_row[2] + (2 * parts - n) * floor_row[1]
        else:
            size, larger = n // parts, n % parts  # `larger` parts of size + 1, the rest of size
            cheap[j] = here + larger * floor_row[size + 1] + (parts - larger) * floor_row[size]
    return cheap


@njit(cache=True)
def _guess_base(row, subset, solved, part_floor, counts):
    """One guess's (sum of its parts' floors, largest part, solves one) on `subset`, as `_guess_bases` gives them.

    `row` is the guess's row of the table, `part_floor[answer, size]` its
    parts' floors; `counts` (one per answer, all 0) is scratch, left all 0.
    """
    for x in subset:
        counts[row[x]] += 1
    total = 0
    largest = 0
    hit = False
    for x in subset:
        a = row[x]
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
