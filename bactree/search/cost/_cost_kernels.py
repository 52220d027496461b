"""Numba kernels of the least-cost search: bounds, memo look-ups and the screen of guesses.

`bactree.search.cost.search` (and `refine`) drive these for the heavy inner
loops: floors by set size, the memo (`_memo`'s tables keyed by `_set_key`), a
small set's lookahead bound and the screen of guesses; `_small_set_kernels`
builds the branch and bound of small sets on them. Partitions come from
`_partition_kernels`, the guesses' bounds from their parts from
`_base_kernels`.

numba's cache does not see a change to a callee in another file: after
editing `_partition_kernels`, `_base_kernels` or `_height_kernels`, delete
`bactree/search/*/__pycache__`, or these kernels keep their old code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._base_kernels import INFINITE
from ._memo import _memo_get, _memo_put_bound
from .._partition_kernels import (
    MASK_SLOTS, _answers_of, _count_parts, _most_answers, _own_most_answers, _split_into, _wide_own_most_answers,
)



@njit(cache=True)
def _set_key(subset, depth):
    """Two independent 64-bit hashes of a sorted set and a depth: the memo key (collisions ~2**-128)."""
    h1 = np.uint64(1469598103934665603)
    h2 = np.uint64(depth) * np.uint64(0x9E3779B97F4A7C15)
    for i in range(subset.shape[0]):
        v = np.uint64(subset[i]) + np.uint64(1)
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
def _memo_bound(subset, depth, floor, memo):
    """(the best lower bound the memo holds for `subset` within `depth` guesses, at least the floor; whether it holds one).

    Sets of at most 2 count as held: their floor is exact.
    """
    s = subset.shape[0]
    if s <= 2:
        return _floor_of(floor, depth, s), True
    return _keyed_bound(_set_key(subset, depth), s, depth, floor, memo)


@njit(cache=True)
def _keyed_bound(key, size, depth, floor, memo):
    """`_memo_bound` of a set of `size` secrets (3 or more) whose memo key is `key`, already made."""
    least = _floor_of(floor, depth, size)
    held, is_value = _memo_get(memo, key)  # one look-up: a set's value or a bound of it (never negative)
    if is_value:
        return held, True
    if held >= 0:
        return max(least, held), True
    return least, False


@njit(cache=True)
def _lookahead(table, by_secret, grouped, subset, depth, solved, num_slots, caps, floor, level_fill, weights, hard, memo):
    """For costs that count total guesses: a lower bound for `subset` from how finely one guess can split it; remembered in `memo`.

    A value already in the memo came from such a lookahead or from a
    search, which proves at least as much, so it is returned as it is;
    else `_split_bound`'s bound is remembered.
    """
    s = subset.shape[0]
    if s > caps[depth]:
        return INFINITE
    known, held = _memo_bound(subset, depth, floor, memo)
    if held:
        return known
    least = _split_bound(table, by_secret, grouped, subset, depth, solved, num_slots, caps, floor, level_fill, weights, hard)
    _memo_put_bound(memo, _set_key(subset, depth), least)
    return least


@njit(cache=True)
def _split_bound(table, by_secret, grouped, subset, depth, solved, num_slots, caps, floor, level_fill, weights, hard):
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
    most = _most_answers(table, by_secret, subset, solved, num_slots, hard, _answers_besides_solved(caps, s), grouped)
    return _bound_of_most(s, most, depth, floor, level_fill, weights)


@njit(cache=True)
def _own_split_bound(table, subset, depth, solved, num_slots, caps, floor, level_fill, weights, hard):
    """`_split_bound` with the codes outside `subset` not scanned but counted at the most answers any could get
    (min(|subset|, the game's answers besides all-bulls)): a weaker bound for |subset|**2 table lookups instead of
    |subset| times the codes."""
    s = subset.shape[0]
    if num_slots > MASK_SLOTS:
        most = _wide_own_most_answers(table, subset, solved, num_slots)
    else:
        most = _own_most_answers(table, subset, np.uint64(1) << np.uint64(solved))
    if not hard:
        most = max(most, min(s, _answers_besides_solved(caps, s)))
    return _bound_of_most(s, most, depth, floor, level_fill, weights)


@njit(cache=True)
def _answers_besides_solved(caps, size):
    """The game's answers besides all-bulls (`level_caps`), or `size` where `caps` is too short to tell."""
    return caps[2] - 1 if caps.shape[0] > 2 else size


@njit(cache=True)
def _bound_of_most(size, most, depth, floor, level_fill, weights):
    """`_split_bound` of a set of `size` secrets on which a guess gets at most `most` (answers, + 2 for all-bulls)."""
    least = _floor_of(floor, depth, size)
    return max(least, least + weights[1] * (3 * size - most - level_fill[size]))


@njit(cache=True)
def _open_guess(
    table, by_secret, grouped, subset, guess, depth, solved, num_slots, caps, floor, class_floor, orbit_of, lookahead, level_fill,
    weights, hard, memo, kernel_max, room,
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
        table, by_secret, grouped, subset, guess, depth, solved, num_slots, caps, floor, class_floor, orbit_of, lookahead, level_fill,
        weights, hard, memo, kernel_max, room, ordered, starts, counts, slots, known, open_keys, is_open,
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
    table, by_secret, grouped, subset, guess, depth, solved, num_slots, caps, floor, class_floor, orbit_of, lookahead, level_fill,
    weights, hard, memo, kernel_max, room, ordered, starts, counts, slots, known, open_keys, is_open,
):
    """`_open_guess` into arrays the caller holds (`_open_scratch`), so a loop over guesses allocates nothing.

    Returns `(the number of parts, raised)`; the answers with a part are
    `slots[:number]`, from the largest part down (answer order on ties).
    """
    _split_into(_answers_of(table, by_secret, guess, subset), subset, ordered, starts, counts)
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
    for i in range(num_parts):
        a = slots[i]
        c = counts[a]
        known[a] = part_floor[a, c]
        is_open[a] = False  # a part of 3 to `kernel_max` the memo does not hold, by its key in `open_keys`
        if 2 < c <= kernel_max:
            key = _set_key(ordered[starts[a]:starts[a + 1]], depth)
            held, is_held = _keyed_bound(key, c, depth, floor, memo)
            if not is_held:
                open_keys[a, 0], open_keys[a, 1] = key
                is_open[a] = True
            if held > known[a]:
                raised += held - known[a]
                known[a] = held
    if grouped is not None:  # a literal test: where `grouped` is None (no lookahead: `_context`) numba drops this code
        if lookahead:
            # First (pass 0) each open part's bound with the codes outside it counted at the most answers they could get,
            # no scan of them (`_own_split_bound`): on Mastermind 4x7 most guesses ruled out are ruled out so. Pass 1 raises
            # the bounds to `_split_bound`'s, which are at least these and are remembered, while the guess is still in reach.
            for scan in range(2):
                for i in range(1, num_parts):
                    a = slots[i]
                    if raised >= room:
                        break
                    if not is_open[a]:
                        continue
                    bound = INFINITE
                    if counts[a] <= caps[depth]:
                        part = ordered[starts[a]:starts[a + 1]]
                        if scan:
                            bound = _split_bound(table, by_secret, grouped, part, depth, solved, num_slots, caps, floor, level_fill, weights, hard)
                            _memo_put_bound(memo, (open_keys[a, 0], open_keys[a, 1]), bound)
                        else:
                            bound = _own_split_bound(table, part, depth, solved, num_slots, caps, floor, level_fill, weights, hard)
                    if bound > known[a]:
                        raised += bound - known[a]
                        known[a] = bound
    return num_parts, raised


@njit(cache=True, inline="always")
def _screen_guesses(
    table, by_secret, grouped, subset, guesses, bases, start, depth, best, best_guess, fail_low, solved, num_slots, caps, floor,
    class_floor, orbit_of, lookahead, level_fill, weights, hard, memo, kernel_max,
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
            table, by_secret, grouped, subset, guess, depth, solved, num_slots, caps, floor, class_floor, orbit_of, lookahead, level_fill,
            weights, hard, memo, kernel_max, limit - base, ordered, starts, counts, slots, known, open_keys,
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
    pool = np.empty(num_codes, np.int64)
    num = 0
    for x in subset:  # the set's own codes first (not a slice copy: it links numba's shape-error text into every caller)
        pool[num] = x
        num += 1
        for i in range(n):
            used[codes[x, i]] = True
    unused = np.empty(num_symbols, np.int64)
    num_unused = 0
    for c in range(num_symbols):
        if not used[c]:
            unused[num_unused] = c
            num_unused += 1
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


# Entry points from Python: the same kernels with the search's constant state read from its `Context` (`_context`),
# one argument to unbox instead of about fifteen.


@njit(cache=True)
def _memo_bound_in(context, subset, depth):
    """`_memo_bound` with the floors and memo tables of `context`."""
    return _memo_bound(subset, depth, context.floor, context.memo)


@njit(cache=True)
def _lookahead_in(context, subset, depth):
    """`_lookahead` with the search's state read from `context`."""
    c = context
    return _lookahead(c.table, c.by_secret, c.grouped, subset, depth, c.solved, c.num_slots, c.caps, c.floor, c.level_fill, c.weights, c.hard, c.memo)


@njit(cache=True)
def _open_guess_in(context, subset, guess, depth, room):
    """`_open_guess` with the search's state read from `context`."""
    c = context
    return _open_guess(
        c.table, c.by_secret, c.grouped, subset, guess, depth, c.solved, c.num_slots, c.caps, c.floor, c.class_floor, c.orbit_of,
        c.lookahead, c.level_fill, c.weights, c.hard, c.memo, c.kernel_max, room,
    )


@njit(cache=True)
def _screen_guesses_in(context, subset, guesses, bases, start, depth, best, best_guess, fail_low):
    """`_screen_guesses` with the search's state read from `context`; `_screen_guesses` is inlined (`inline="always"`),
    so that its callees are not compiled in a library of its own once more."""
    c = context
    return _screen_guesses(
        c.table, c.by_secret, c.grouped, subset, guesses, bases, start, depth, best, best_guess, fail_low, c.solved, c.num_slots, c.caps,
        c.floor, c.class_floor, c.orbit_of, c.lookahead, c.level_fill, c.weights, c.hard, c.memo, c.kernel_max,
    )
