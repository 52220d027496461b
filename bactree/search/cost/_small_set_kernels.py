"""Numba kernels that search small sets whole: `_least_cost`'s branch and bound, and the guess that starts a tree.

`CostSearch` hands every set of up to `KERNEL_MAX_SET` secrets to
`_least_cost`, which values it without naming a guess; once the values
are known, `_lowest_best_guess` names the guess a tree of the set starts
with. Python reaches both through `_small_set`, so that a process loads
one compiled library for them. All are built on the bounds and memo of
`_cost_kernels`.

numba's cache does not see a change to a callee in another file: after
editing `_cost_kernels`, `_partition_kernels` or `_height_kernels`, delete
`bactree/search/*/__pycache__`, or these kernels keep their old code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._base_kernels import INFINITE, LEFT_OUT_LEVELS, _bases_below
from ._cost_kernels import (
    _floor_at, _floor_of, _kernel_pool, _open_scratch, _open_guess_into, _set_key, _still_possible_value,
)
from ..height._height_kernels import _find_guess
from ._memo import _memo_get, _memo_put_bound, _memo_put_value
from .._partition_kernels import _answers_of, _label_parts


@njit(cache=True)
def _least_cost(
    table, by_secret, grouped, codes, subset, depth, bound, solved, num_slots, caps, floor, class_floor, orbit_of, weights, hard, symmetric,
    memo, given_pool,
):
    """Least additive cost of `subset` within `depth` guesses if below `bound`, else a lower bound >= bound.

    Branch and bound over every code (still-possible ones first; only those
    in `hard` mode; of codes alike under relabelling the symbols the set
    does not use, only the least: `_kernel_pool`), each guess seeded with
    its parts' floors by answer class (`class_floor`, proven lower bounds
    by depth, the guess's orbit, answer and size; `floor` holds those by
    depth and size alone, for sets whose class is not known), raised to what
    the memo knows of each part before any part is searched; guesses that split `subset`
    exactly as an earlier one did are skipped. A guess on a set of s secrets
    costs `weights[0] + weights[1] * s`, plus `weights[2]` when it is the last
    guess allowed (`depth` 1: crush); (1, 0, 0) counts nodes, (0, 1, 0) total
    guesses. `memo` (`_memo`'s table keyed by `_set_key`) remembers values
    and proven bounds. A failed search returns the least bound over
    all guesses (fail-soft), so the memo keeps the strongest bound it proved.
    `given_pool`, when not empty and smaller than its own pool, holds the
    guesses to try on `subset` itself (one per orbit of a group of
    symmetries that maps `subset` onto itself: the caller's history's
    stabiliser); the sets below are searched with their own pools.
    """
    s = subset.shape[0]
    if s == 1:
        return _floor_of(floor, depth, 1)  # exact: the one secret is guessed
    if depth <= 1 or s > caps[depth]:
        return INFINITE
    if s == 2:
        return _floor_of(floor, depth, 2)  # exact: one secret, then the other
    nodes_only = weights[0] == 1 and weights[1] == 0 and weights[2] == 0
    floor_here = _floor_of(floor, depth, s)
    lowest = floor_here
    if lowest >= bound:
        return lowest
    key = _set_key(subset, depth)
    held, is_value = _memo_get(memo, key)
    if is_value:
        return held
    if held >= 0:
        lowest = max(lowest, held)
        if lowest >= bound:
            return lowest
    if nodes_only:
        # One node per secret is reached exactly by trees of still-possible guesses.
        no_guesses = subset[:0]
        if _find_guess(table, by_secret, subset, depth, no_guesses, no_guesses, solved, num_slots, caps) >= 0:
            _memo_put_value(memo, key, s)
            return s
        lowest = max(lowest, s + 1)
        _memo_put_bound(memo, key, lowest)
        if lowest >= bound:
            return lowest
    here = weights[0] + weights[1] * s  # s >= 3, so this is not the last guess
    limit = caps[depth - 1]
    part_floor = _floor_at(class_floor, depth - 1)
    if not nodes_only:
        # Outside `subset` a guess solves nothing at once: at best its parts fill
        # the levels as a set of s + 1 would below a guess that solves one, whose
        # cost `_floor_of(floor, depth, s + 1)` counts one more secret's guess (weights[1]).
        outside = INFINITE if hard else _floor_of(floor, depth, s + 1) - weights[1]
        value = _still_possible_value(table, subset, solved, num_slots, part_floor, orbit_of, here, outside, limit)
        if value >= 0:
            _memo_put_value(memo, key, value)
            return value
    pool = _search_pool(codes, subset, hard, symmetric, given_pool)
    index, bases, largest, fail_low = _bases_below(
        table, by_secret, subset, pool, solved, num_slots, part_floor, orbit_of, limit, here, bound, _floor_at(floor, depth - 1),
        LEFT_OUT_LEVELS,
    )  # `fail_low`: the least proven bound among guesses that cannot beat `bound`
    for i in range(index.shape[0]):
        if largest[i] <= 2 and bases[i] == floor_here:
            # Nothing beats the floor, and parts of at most 2 are valued exactly.
            _memo_put_value(memo, key, bases[i])
            return bases[i]
    guesses = pool[index]
    num = index.shape[0]
    order = np.argsort(bases, kind="mergesort")
    best = bound
    labels = np.empty((num, s), np.int8)
    hashes = np.empty(num, np.uint64)
    seen_first = np.full(num_slots, -1, np.int8)
    ordered, starts, counts, slots, known, open_keys, is_open = _open_scratch(s, num_slots)
    no_lookahead = s < 0  # False, but not a literal: a literal would compile `_open_guess_into` once more
    tried = 0
    for j in order:
        base = bases[j]
        if base >= best:
            fail_low = min(fail_low, base)
            break  # sorted: no later guess can do better
        g = guesses[j]
        row = _answers_of(table, by_secret, g, subset)
        # Skip the guess if an earlier one split the set the same way.
        h = _label_parts(row, subset, solved, seen_first, labels[tried])
        duplicate = False
        for t in range(tried):
            if hashes[t] == h and np.array_equal(labels[t], labels[tried]):
                duplicate = True
                break
        if duplicate:
            continue
        hashes[tried] = h
        tried += 1
        # Each part's floor raised to what the memo already proved of it (no lookahead here: slower).
        # (`bases` stands in for `level_fill`, which only the lookahead reads.)
        num_parts, raised = _open_guess_into(
            table, by_secret, grouped, subset, g, depth - 1, solved, num_slots, caps, floor, class_floor, orbit_of, no_lookahead, bases,
            weights, hard, memo, s, 0, ordered, starts, counts, slots, known, open_keys, is_open,
        )
        total = base + raised
        for a in slots[:num_parts]:
            if total >= best:
                break
            if starts[a + 1] - starts[a] <= 2:
                continue  # parts of at most 2 are exact in the floor
            part = ordered[starts[a]:starts[a + 1]]
            total -= known[a]
            total += _least_cost(
                table, by_secret, grouped, codes, part, depth - 1, best - total, solved, num_slots, caps, floor, class_floor, orbit_of,
                weights, hard, symmetric, memo, subset[:0],
            )
        if total < best:
            best = total
            if best == lowest:
                break
        else:
            fail_low = min(fail_low, total)
    if best < bound:
        _memo_put_value(memo, key, best)
        return best
    _memo_put_bound(memo, key, max(lowest, fail_low))
    return max(lowest, fail_low)


@njit(cache=True)
def _search_pool(codes, subset, hard, symmetric, given_pool):
    """The guesses a search of `subset` tries: in `hard` mode its own codes, else `_kernel_pool`'s (every code in a
    game without `symmetric` relabellings, a word list); `given_pool` instead when it is not empty and smaller."""
    member = np.zeros(codes.shape[0], np.bool_)
    for x in subset:
        member[x] = True
    if hard:
        pool = subset
    elif symmetric:
        pool = _kernel_pool(codes, subset, member)
    else:
        pool = np.arange(codes.shape[0], dtype=np.int64)
    return given_pool if 0 < given_pool.shape[0] < pool.shape[0] else pool


@njit(cache=True, inline="always")
def _lowest_best_guess(
    table, by_secret, grouped, codes, subset, depth, value, solved, num_slots, caps, floor, class_floor, orbit_of, weights, hard, symmetric,
    memo, given_pool,
):
    """The lowest code starting a tree of cost `value` on `subset` within `depth` guesses (-1 if none does), where `value`
    is the least cost of `subset` (2 secrets or more), as `_least_cost` found it: the guess its tree starts with.

    Tries `_search_pool`'s guesses, as `_least_cost` does, in code order:
    each guess bounded by its parts' floors and what the memo holds of
    them, then its parts searched below `value + 1`. The first to reach
    `value` is the lowest, since each pool keeps the least code of every
    class of guesses alike on the set. With the memo the search left, most
    parts are valued at once.
    """
    s = subset.shape[0]
    if s == 2 and _floor_of(floor, depth - 1, 1) > 0:
        # One secret, then the other: a code outside the set leaves both to find, at a cost where finding one costs
        # anything (not crush's guesses before the last), so the lower of the two starts the tree. Every pool holds
        # it but a given one that keeps the other of its orbit (then searched as below).
        low = min(subset[0], subset[1])
        if given_pool.shape[0] == 0:
            return low
        for g in given_pool:
            if g == low:
                return low
    pool = _search_pool(codes, subset, hard, symmetric, given_pool)
    pool = pool[np.argsort(pool, kind="mergesort")]
    here = weights[0] + weights[1] * s  # depth >= 2 for a set of 2 or more: not the last guess
    index, bases, _, _ = _bases_below(
        table, by_secret, subset, pool, solved, num_slots, _floor_at(class_floor, depth - 1), orbit_of, caps[depth - 1], here,
        value + 1, _floor_at(floor, depth - 1), LEFT_OUT_LEVELS,
    )
    ordered, starts, counts, slots, known, open_keys, is_open = _open_scratch(s, num_slots)
    no_lookahead = s < 0  # False, not a literal (as in `_least_cost`)
    for i in range(index.shape[0]):  # in pool order: code order
        guess = pool[index[i]]
        num_parts, raised = _open_guess_into(
            table, by_secret, grouped, subset, guess, depth - 1, solved, num_slots, caps, floor, class_floor, orbit_of, no_lookahead, bases,
            weights, hard, memo, s, 0, ordered, starts, counts, slots, known, open_keys, is_open,
        )
        total = bases[i] + raised
        for a in slots[:num_parts]:
            if total > value:
                break
            if starts[a + 1] - starts[a] > 2:  # parts of at most 2 are exact in the floor
                total += _least_cost(
                    table, by_secret, grouped, codes, ordered[starts[a]:starts[a + 1]], depth - 1, value + 1 - total + known[a],
                    solved, num_slots, caps, floor, class_floor, orbit_of, weights, hard, symmetric, memo,
                    subset[:0],
                ) - known[a]
        if total == value:
            return guess
    return -1


@njit(cache=True, inline="always")
def _small_set(
    table, by_secret, grouped, codes, subset, depth, bound, solved, num_slots, caps, floor, class_floor, orbit_of, weights, hard, symmetric,
    memo, given_pool, value,
):
    """`CostSearch`'s one way in: with `value` < 0, `_least_cost` below `bound`; with `value` the set's least cost,
    `_lowest_best_guess` (`bound` unused).

    One entry point for both, so that a process loads one compiled library
    for them: each holds the whole branch and bound, about 20 ms of CPU to
    load, a tenth of a small game's search. The search calls it through
    `_small_set_in`, its arguments read from the search's context.
    """
    if value < 0:
        return _least_cost(
            table, by_secret, grouped, codes, subset, depth, bound, solved, num_slots, caps, floor, class_floor, orbit_of, weights, hard,
            symmetric, memo, given_pool,
        )
    return _lowest_best_guess(
        table, by_secret, grouped, codes, subset, depth, value, solved, num_slots, caps, floor, class_floor, orbit_of, weights, hard,
        symmetric, memo, given_pool,
    )



@njit(cache=True)
def _small_set_in(context, subset, depth, bound, given_pool, value):
    """`_small_set` with the search's state read from `context` (`_context`): one argument to unbox for fifteen.

    `_small_set` and `_lowest_best_guess` are inlined here (`inline="always"`): each in a library of its own
    would compile the whole branch and bound below it once more (docs/performance.md, the first run).
    """
    c = context
    return _small_set(
        c.table, c.by_secret, c.grouped, c.codes, subset, depth, bound, c.solved, c.num_slots, c.caps, c.floor, c.class_floor, c.orbit_of,
        c.weights, c.hard, c.symmetric, c.memo, given_pool, value,
    )