"""Numba kernels of the tree finder (`bactree.search.height.finder`): the last three guesses, fast.

With three guesses left a set is solved by a guess whose every part is
solved with two, that is separated by one guess (`_separator_kernels`):
`_three_left_search` screens every guess's parts by their sizes, tries one
guess per distinct partition, remembers its parts' verdicts, and keeps
each unsolvable part's core (a least subset no code separates) for every
later search. These kernels hold a part's answers in one 64-bit mask and
read `table` both ways, so the solver calls them only for `mutual` rules of
at most 64 answers (`Solver.mask_kernels`): there the table is its own
transpose (`by_secret`).

numba's cache does not see a change to a callee in another file: after
editing `_separator_kernels`, delete `bactree/search/*/__pycache__`, or these
kernels keep the old code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._core_kernels import _holds_core, _least_core, _store_core
from ._crowd_kernels import _crowd_masks, _crowded, _crowded_in_planes, _crowds, _uncrowded_guesses
from .._partition_kernels import _answers_of, _equal_hashes, _keep, _kept_value, _mix64, _same_partition
from ._separator_kernels import _bit_count, _separating_guess, _separators

# `_screened_by_classes` takes parts of at least this many secrets; smaller ones are counted.
CLASS_SCREEN_LEAST = 120
# Codes the crowd masks leave, as a share of all codes, up to which their parts are counted one by one: past it,
# one streaming pass counts every code's (the per-code reads miss the cache, the pass does not).
FEW_LEFT_SHARE = 16


@njit(cache=True)
def _screened_by_count(table, subset, solved, num_slots, limits, orbit_of):
    """Per code, the largest part it leaves of `subset` if every part is within its class's bound with two guesses
    left (`limits[orbit_of[code], answer]`, all-bulls aside), else -1: one streaming pass counting every code's parts."""
    num_codes = table.shape[1]
    counts = np.zeros(num_slots * num_codes, np.uint16)
    for x in subset:
        row = table[x]
        for g in range(num_codes):
            counts[row[g] * num_codes + g] += 1
    fit_largest = np.full(num_codes, -1, np.int64)
    for g in range(num_codes):
        orbit = orbit_of[g]  # indexed with the answer below: a row view per code would cost two reference counts
        largest = 0
        for a in range(num_slots):
            if a == solved:
                continue
            c = np.int64(counts[a * num_codes + g])
            if c > limits[orbit, a]:
                largest = -1
                break
            largest = max(largest, c)
        fit_largest[g] = largest
    return fit_largest


@njit(cache=True)
def _answer_classes(table, outer, num_slots, solved):
    """Every code's answer classes within `outer`, as bit masks over its positions, and each code's answers by class size.

    Returns `(bits, by_size)`: `bits[g, a]` the secrets of `outer` that
    answer a to code g (`(|outer| + 63) // 64` words), `by_size[g]` the
    answers with a class, all-bulls aside, largest class first, then -1.
    """
    num_codes = table.shape[1]
    words = (outer.shape[0] + 63) // 64
    bits = np.zeros((num_codes, num_slots, words), np.uint64)
    sizes = np.zeros((num_codes, num_slots), np.int64)
    for i in range(outer.shape[0]):
        row = table[outer[i]]
        word = i >> 6
        bit = np.uint64(1) << np.uint64(i & 63)
        for g in range(num_codes):
            bits[g, row[g], word] |= bit
            sizes[g, row[g]] += 1
    by_size = np.full((num_codes, num_slots), -1, np.int8)
    for g in range(num_codes):
        k = 0
        for a in np.argsort(-sizes[g], kind="mergesort"):
            if a != solved and sizes[g, a] > 0:
                by_size[g, k] = a
                k += 1
    return bits, by_size


@njit(cache=True)
def _screened_by_classes(subset, limits, orbit_of, classes, least):
    """`_screened_by_count` for a `subset` of a set whose answer classes are at hand (`classes`), or an empty array.

    `classes` is `(bits, by_size, position, counted)`: `_answer_classes` of
    the outer set, `position[code]` its place there (-1 outside), and the
    count of searches that screened by count (see `ClassScreen`). A code's
    part of `subset` for answer a is its class a ANDed with `subset`'s
    mask, counted by popcount, the classes largest first: a code is
    mostly ruled out at its first class, a few words of work instead of a
    count per secret. Empty when `classes` is empty, `subset` leaves the
    outer set or has fewer than `least` secrets (`CLASS_SCREEN_LEAST`): on small
    parts codes pass their first classes and the count wins (measured on
    the parts of a 430- and a 524-secret set of 5 of 10: 3.67 and 3.20 ms
    against 2.06 and 1.98 at 80 to 100 secrets, 2.03 and 2.24 against 2.38
    and 2.46 at 120 to 150).
    """
    bits, by_size, position, _ = classes
    if bits.shape[0] == 0 or subset.shape[0] < least:
        return np.empty(0, np.int64)  # small parts: the count is cheaper than a few classes a code
    num_codes, num_slots, words = bits.shape
    inside = np.zeros(words, np.uint64)
    for x in subset:
        at = position[x]
        if at < 0:
            return np.empty(0, np.int64)
        inside[at >> 6] |= np.uint64(1) << np.uint64(at & 63)
    fit_largest = np.full(num_codes, -1, np.int64)
    for g in range(num_codes):
        orbit = orbit_of[g]
        largest = 0
        for j in range(num_slots):
            a = by_size[g, j]
            if a < 0:
                break
            c = 0
            for w in range(words):
                c += _bit_count(bits[g, a, w] & inside[w])
            if c > limits[orbit, a]:
                largest = -1
                break
            largest = max(largest, c)
        fit_largest[g] = largest
    return fit_largest


@njit(cache=True)
def _largest_fitting_part(table, guess, subset, solved, num_slots, limits, orbit_of, tally):
    """`_screened_by_count` for the one code `guess`: its largest part of `subset` if every part fits its class's
    bound, else -1. `tally` (one per answer, all 0) is scratch, left all 0."""
    row = _answers_of(table, table, guess, subset)
    for x in subset:
        tally[row[x]] += 1
    orbit = orbit_of[guess]
    largest = 0
    for a in range(num_slots):
        if a != solved:
            if tally[a] > limits[orbit, a]:
                largest = -1
            elif largest >= 0:
                largest = max(largest, tally[a])
        tally[a] = 0
    return largest


@njit(cache=True)
def _three_left_guess(table, subset, solved, num_slots, limits, orbit_of, arrangements, hard, max_tries, cores, classes):
    """(a guess after which every part of `subset` is solved within two guesses, or -1; the guesses tried).

    `_three_left_search` with its parts' verdicts remembered, the solver's
    store of cores (`bactree.search.height.cores.CoreStore.arrays`) and, when
    `subset` is a part of a set whose answer classes are at hand, those
    (`bactree.search.height.screens.ClassScreen.arrays`; empty arrays if not): the same.
    `_three_left_search` is inlined here (`inline="always"`), so that its callees are not compiled in a
    library of its own once more.
    """
    return _three_left_search(
        table, subset, solved, num_slots, limits, orbit_of, arrangements, hard, max_tries, True, cores, classes,
    )


@njit(cache=True, inline="always")
def _three_left_search(
    table, subset, solved, num_slots, limits, orbit_of, arrangements, hard, max_tries, remember, cores, classes,
):
    """(a guess after which every part of `subset` is solved within two guesses, or -1; the guesses tried).

    At most `max_tries` guesses are tried (all when it is negative): then -1 proves nothing.

    One streaming pass counts every guess's parts (at most
    `limits[orbit_of[guess], answer]`, the most two guesses solve of that
    answer's class, all-bulls aside: `class_caps`, or the count alone with
    one row and every orbit 0); a second hashes the partition
    of each guess that fits, so only one guess per distinct partition is
    tried (guesses with equal hashes are compared exactly). Hashing only
    those matters where few or none fit: on Mastermind 5x8's sets of 191 to
    353 secrets with three guesses left, none fits, and the screen is the
    whole call. With every guess tried the answer is
    exact, as `height._find_guess`'s is. Guesses go by their
    largest part, smallest first; on ties codes of `subset` first, then the
    rest from the lowest. Parts are tested largest first with
    `_separating_guess`; with `remember`, each part's verdict is kept (by a
    hash of its members, confirmed member by member), since one part often
    comes back under other guesses: measured on 76 secrets of 5 of 10, 33,912
    parts of 3 or more under the guesses that fit were 11,916 sets. Unless
    `hard`, a part found unsolvable is shrunk to a minimal subset that no
    code separates (`_least_core`) and kept in `cores` (members, starts,
    chains, heads, fill: see `CoreStore`), where every later search of the
    solver finds it: a part holding a stored core is unsolvable (a guess
    separating it would separate the core). On the 312-secret set of 5 of
    10, cores of about 7 secrets settled 217,225 parts whose scans of every
    code they spared, against 20,091 scans and cores made. In hard mode a
    part may be solved by one of its own codes that a smaller part lacks,
    so nothing is inferred there. Remembered and inferred verdicts are the
    ones `_separating_guess` gives, so the guess found and the guesses tried
    are the same either way. A guess leaving a part with more than n
    rearrangements of one multiset of symbols (`arrangements`: each code's
    multiset, n, every code's symbols and the alphabet's size; see
    `_crowd_kernels`) has no separator there: with every guess tried, such
    guesses are dropped first, from the crowds' bit masks where they fit,
    and when that leaves few codes their parts are counted one by one
    instead of every code's (most sets of a 5 of 10 refutation keep none:
    the count screen above was most of a call there); with `max_tries` they
    are skipped where they come, each still counted as a try, so a capped
    search (the tree finder's) tries the same guesses as without them.
    """
    s = subset.shape[0]
    num_codes = table.shape[1]
    member = np.zeros(num_codes, np.bool_)
    for x in subset:
        member[x] = True
    multiset_of, most, codes, num_symbols = arrangements
    crowds, crowd_starts = _crowds(subset, multiset_of, most)
    masks = _crowd_masks(codes, num_symbols, crowds, crowd_starts)
    tally = np.zeros(num_slots, np.int64)
    every = max_tries < 0  # trying every guess: those leaving a crowded part are dropped before any is tried
    masked_first = every and masks.shape[0] > 0  # crowds ruled out first, from their masks: no read of the table
    order = np.empty(num_codes, np.int64)
    largest_of = np.empty(num_codes, np.int64)
    if masked_first:
        num = _uncrowded_guesses(codes, subset, member, hard, masks, crowd_starts, most, order)
    else:
        num = 0
        for idx in range(s + (0 if hard else num_codes)):  # codes of `subset` first, then the rest from the lowest
            g = subset[idx] if idx < s else idx - s
            if idx >= s and member[g]:
                continue
            order[num] = g
            num += 1
    if masked_first and num * FEW_LEFT_SHARE <= num_codes:
        fit_largest = np.empty(0, np.int64)  # few codes left: their parts are counted one by one
    else:
        fit_largest = _screened_by_classes(subset, limits, orbit_of, classes, CLASS_SCREEN_LEAST)
        if fit_largest.shape[0] == 0:
            fit_largest = _screened_by_count(table, subset, solved, num_slots, limits, orbit_of)
            classes[3][0] += 1  # a search that screened by count: what makes the masks worth making
    candidates, num = num, 0
    for j in range(candidates):
        g = order[j]
        if fit_largest.shape[0]:
            largest = fit_largest[g]
        else:
            largest = _largest_fitting_part(table, g, subset, solved, num_slots, limits, orbit_of, tally)
        if largest < 0 or (largest == s and not member[g]):
            continue  # a part too large, or the guess tells nothing
        if every and not masked_first and crowds.shape[0] and _crowded(table, g, crowds, crowd_starts, solved, most, tally):
            continue  # a part with too many rearrangements of one multiset
        order[num] = g
        largest_of[num] = largest
        num += 1
    if num == 0:
        return -1, 0
    # Partitions are hashed for the guesses that fit only (often none, or few): a weight per secret, summed per part.
    sums = np.zeros(num_slots * num, np.uint64)
    sizes_of = np.zeros(num_slots * num, np.int64)
    for x in subset:
        row = table[x]
        w = _mix64(np.uint64(x) + np.uint64(0x9E3779B97F4A7C15))
        for j in range(num):
            sums[row[order[j]] * num + j] += w
            sizes_of[row[order[j]] * num + j] += 1
    hashes = np.zeros(num, np.uint64)
    for j in range(num):
        for a in range(num_slots):
            if a != solved and sizes_of[a * num + j]:
                hashes[j] += _mix64(sums[a * num + j])
    following = _equal_hashes(hashes)
    keep = np.ones(num, np.bool_)
    forward = np.empty(num_slots, np.int64)
    backward = np.empty(num_slots, np.int64)
    for i in range(num):  # equal hashes: compared exactly, so only true duplicates go
        if not keep[i]:
            continue
        j = following[i]
        while j >= 0:
            if keep[j] and _same_partition(
                _answers_of(table, table, order[i], subset), _answers_of(table, table, order[j], subset), subset, solved, forward,
                backward,
            ):
                keep[j] = False
            j = following[j]
    kept = np.flatnonzero(keep)
    kept = kept[np.argsort(largest_of[kept], kind="mergesort")]  # smallest largest part first: likelier to work
    part_counts = np.zeros(num_slots, np.int64)
    sizes = np.zeros(num_slots, np.int64)
    starts_of = np.zeros(num_slots + 1, np.int64)
    fill_of = np.zeros(num_slots, np.int64)
    ordered = np.empty(s, np.int64)
    # Remembered parts: hashes, places in `pool` and verdicts, in a table kept under half full.
    known_keys = np.zeros(1024, np.uint64)
    known_at = np.zeros(1024, np.int64)
    known_ok = np.zeros(1024, np.int64)
    num_known = 0
    pool = np.empty(1024, np.int64)
    pooled = 0
    members, starts, chains, heads, fill = cores
    inside = np.zeros(num_codes, np.bool_)
    distinct = np.empty(num_codes, np.uint8)
    found = np.empty(1, np.int64)
    tries = 0
    for i in kept:
        if tries == max_tries:
            return -1, tries
        tries += 1
        g = order[i]
        if not every and crowds.shape[0] and (
            _crowded_in_planes(codes, g, masks, crowd_starts, most) if masks.shape[0]
            else _crowded(table, g, crowds, crowd_starts, solved, most, tally)
        ):
            continue  # a part with too many rearrangements of one multiset: no guess separates it (still a try)
        row = _answers_of(table, table, g, subset)
        part_counts[:] = 0
        for x in subset:
            part_counts[row[x]] += 1
        for a in range(num_slots):
            starts_of[a + 1] = starts_of[a] + part_counts[a]
            fill_of[a] = starts_of[a]
        for x in subset:
            a = row[x]
            ordered[fill_of[a]] = x
            fill_of[a] += 1
        for a in range(num_slots):  # element by element: a slice copy links numba's shape-error text into every caller
            sizes[a] = part_counts[a]
        sizes[solved] = 0
        works = True
        while True:  # parts largest first, ties by answer: each the first largest left (no sort, no array made)
            a = np.argmax(sizes)
            if sizes[a] < 3:
                break  # parts of at most 2 take at most two guesses
            sizes[a] = 0
            part = ordered[starts_of[a]:starts_of[a + 1]]
            if not remember:
                verdict = 1 if _separating_guess(table, part, hard) >= 0 else 0
            else:
                key = _mix64(sums[a * num + i] ^ np.uint64(part.shape[0])) | np.uint64(1)  # never 0 (empty)
                verdict = _kept_value(known_keys, known_at, known_ok, pool, part, key)
                if verdict < 0:
                    if hard:
                        verdict = 1 if _separating_guess(table, part, hard) >= 0 else 0
                    elif _holds_core(part, members, starts, chains, heads, inside):
                        verdict = 0
                    else:
                        verdict = 1 if _separators(table, part, distinct, found) else 0
                        if verdict == 0:
                            _store_core(_least_core(table, part, distinct), members, starts, chains, heads, fill)
                    if pooled + part.shape[0] + 1 > pool.shape[0]:
                        grown = np.empty(2 * (pooled + part.shape[0] + 1), np.int64)
                        for j in range(pooled):  # element by element, as below: no shape-error text linked in
                            grown[j] = pool[j]
                        pool = grown
                    pool[pooled] = part.shape[0]
                    for j in range(part.shape[0]):
                        pool[pooled + 1 + j] = part[j]
                    if 2 * (num_known + 1) > known_keys.shape[0]:
                        old_keys, old_at, old_ok = known_keys, known_at, known_ok
                        known_keys = np.zeros(2 * old_keys.shape[0], np.uint64)
                        known_at = np.zeros(2 * old_keys.shape[0], np.int64)
                        known_ok = np.zeros(2 * old_keys.shape[0], np.int64)
                        for j in range(old_keys.shape[0]):
                            if old_keys[j] != 0:
                                _keep(known_keys, known_at, known_ok, old_keys[j], old_at[j], old_ok[j])
                    _keep(known_keys, known_at, known_ok, key, pooled, verdict)
                    num_known += 1
                    pooled += part.shape[0] + 1
            if verdict == 0:
                works = False
                break
        if works:
            return g, tries
    return -1, tries
