"""Numba kernels of the tree finder (`bactree.search.finder`): the last three guesses, fast.

With three guesses left a set is solved by a guess whose every part is
solved with two, that is separated by one guess (`_separator_kernels`):
`_three_left_search` screens every guess's parts by their sizes, tries one
guess per distinct partition, remembers its parts' verdicts, and keeps
each unsolvable part's core (a least subset no code separates) for every
later search.

numba's cache does not see a change to a callee in another file: after
editing `_separator_kernels`, delete `bactree/search/__pycache__`, or these
kernels keep the old code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._partition_kernels import _answers_of, _equal_hashes, _mix64, _same_partition
from ._separator_kernels import MAX_SLOTS, _bit_count, _separating_guess, _separators

# `_least_core` deletes secrets against about this many codes first, and gives up past the second figure.
CORE_CODES = 256
CORE_CODES_MOST = 4096
# `_screened_by_classes` takes parts of at least this many secrets; smaller ones are counted.
CLASS_SCREEN_LEAST = 120


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
        cap = limits[orbit_of[g]]
        largest = 0
        for a in range(num_slots):
            if a == solved:
                continue
            c = np.int64(counts[a * num_codes + g])
            if c > cap[a]:
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

    `classes` is `(bits, by_size, position)` from `_answer_classes` of the
    outer set, `position[code]` its place there (-1 outside). A code's
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
    bits, by_size, position = classes
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
        cap = limits[orbit_of[g]]
        largest = 0
        for j in range(num_slots):
            a = by_size[g, j]
            if a < 0:
                break
            c = 0
            for w in range(words):
                c += _bit_count(bits[g, a, w] & inside[w])
            if c > cap[a]:
                largest = -1
                break
            largest = max(largest, c)
        fit_largest[g] = largest
    return fit_largest


@njit(cache=True)
def _three_left_guess(table, subset, solved, num_slots, limits, orbit_of, arrangements, hard, max_tries, cores, classes):
    """(a guess after which every part of `subset` is solved within two guesses, or -1; the guesses tried).

    `_three_left_search` with its parts' verdicts remembered, the solver's
    store of cores (`bactree.search.cores.CoreStore.arrays`) and, when
    `subset` is a part of a set whose answer classes are at hand, those
    (`bactree.search.screens.ClassScreen.arrays`; empty arrays if not): the same.
    """
    return _three_left_search(
        table, subset, solved, num_slots, limits, orbit_of, arrangements, hard, max_tries, True, cores, classes,
    )


@njit(cache=True)
def _crowds(subset, multiset_of, most):
    """The secrets of `subset` that are rearrangements of one multiset of symbols with more than `most` of them,
    grouped by multiset: (secrets, where each group starts, one more entry than groups).

    Rearrangements of one multiset share as many symbols with any guess, so
    bulls alone tell them apart: a guess gets at most n answers from them
    (0 to n bulls, but never n - 1 once all n symbols are shared). So n is
    the most of them a part can hold and still be separated, and n^(d-1)
    the most d guesses solve (`Solver.crowd_limit`): `most` is one of these.
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
    separates that part. `tally` (one per answer, all 0) is scratch, left all 0."""
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
def _crowded_guesses(table, guesses, subset, multiset_of, most, solved, num_slots):
    """Per guess of `guesses`, True if it leaves a part of `subset` holding more than `most` rearrangements of one
    multiset of symbols (`_crowds`)."""
    crowds, starts = _crowds(subset, multiset_of, most)
    crowded = np.zeros(guesses.shape[0], np.bool_)
    if crowds.shape[0] == 0:
        return crowded
    tally = np.zeros(num_slots, np.int64)
    for j in range(guesses.shape[0]):
        crowded[j] = _crowded(table, guesses[j], crowds, starts, solved, most, tally)
    return crowded


@njit(cache=True)
def _part_verdict(known_keys, known_at, known_ok, pool, part, key):
    """The remembered verdict of `part` (1 solved within two guesses, 0 not) or -1 when not remembered.

    `known_keys` is an open-addressing table of part hashes (0: empty);
    a slot's members, from `known_at[slot]` in `pool` after their count,
    are compared exactly.
    """
    mask = known_keys.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    k = part.shape[0]
    while known_keys[slot] != 0:
        if known_keys[slot] == key:
            at = known_at[slot]
            same = pool[at] == k
            for i in range(k):
                if not same:
                    break
                same = pool[at + 1 + i] == part[i]
            if same:
                return known_ok[slot]
        slot = (slot + 1) & mask
    return -1


@njit(cache=True)
def _pair_slot(first, second, mask):
    """The slot of the core index `heads` (`mask + 1` slots) for cores whose two lowest secrets are `first` and `second`."""
    return np.int64(_mix64((np.uint64(first) << np.uint64(32)) + np.uint64(second)) & np.uint64(mask))


@njit(cache=True)
def _holds_core(part, members, starts, chain, heads, inside):
    """True if `part` holds every secret of one stored core: then no guess separates it.

    A core is found from its two lowest secrets, so each pair of `part` is
    looked up once in `heads` and the cores of its chain are checked member
    by member (`inside`: a flag per code, all False on entry and on return).
    """
    mask = heads.shape[0] - 1
    for x in part:
        inside[x] = True
    held = False
    k = part.shape[0]
    for i in range(k - 1):
        for j in range(i + 1, k):
            low, high = min(part[i], part[j]), max(part[i], part[j])
            c = heads[_pair_slot(low, high, mask)]
            while c >= 0 and not held:
                at = starts[c]
                if members[at] == low and members[at + 1] == high:
                    held = True
                    for t in range(at + 2, starts[c + 1]):
                        if not inside[members[t]]:
                            held = False
                            break
                c = chain[c]
            if held:
                break
        if held:
            break
    for x in part:
        inside[x] = False
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
        codes[num:num + more] = found[:more]
        num += more


@njit(cache=True)
def _store_core(core, members, starts, chain, heads, fill):
    """Add `core` (two or more codes) to the store, ascending, if it has room (`fill`: cores, members held)."""
    core = np.sort(core)
    n, used = fill[0], fill[1]
    if n + 1 >= starts.shape[0] or used + core.shape[0] > members.shape[0]:
        return
    for i in range(core.shape[0]):
        members[used + i] = core[i]
    starts[n + 1] = used + core.shape[0]
    slot = _pair_slot(core[0], core[1], heads.shape[0] - 1)
    chain[n] = heads[slot]
    heads[slot] = n
    fill[0] = n + 1
    fill[1] = used + core.shape[0]


@njit(cache=True)
def _index_cores(members, starts, num_cores, chain, heads):
    """Fill `heads` and `chain` afresh for the first `num_cores` cores (after the store has grown)."""
    heads[:] = -1
    mask = heads.shape[0] - 1
    for n in range(num_cores):
        at = starts[n]
        slot = _pair_slot(members[at], members[at + 1], mask)
        chain[n] = heads[slot]
        heads[slot] = n


@njit(cache=True)
def _place(known_keys, known_at, known_ok, key, at, verdict):
    """Put a part's hash, place in the pool and verdict in the first free slot of its probe sequence."""
    mask = known_keys.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    while known_keys[slot] != 0:
        slot = (slot + 1) & mask
    known_keys[slot] = key
    known_at[slot] = at
    known_ok[slot] = verdict


@njit(cache=True)
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
    chain, heads, fill: see `CoreStore`), where every later search of the
    solver finds it: a part holding a stored core is unsolvable (a guess
    separating it would separate the core). On the 312-secret set of 5 of
    10, cores of about 7 secrets settled 217,225 parts whose scans of every
    code they spared, against 20,091 scans and cores made. In hard mode a
    part may be solved by one of its own codes that a smaller part lacks,
    so nothing is inferred there. Remembered and inferred verdicts are the
    ones `_separating_guess` gives, so the guess found and the guesses tried
    are the same either way. A guess leaving a part with more than n
    rearrangements of one multiset of symbols (`arrangements`: each code's
    multiset, and n; see `_crowds`) has no separator there: with every
    guess tried, such guesses are dropped before the partitions are hashed
    (most sets of a 5 of 10 refutation keep none); with `max_tries` they
    are skipped where they come, each still counted as a try, so a capped
    search (the tree finder's) tries the same guesses as without them.
    """
    s = subset.shape[0]
    num_codes = table.shape[1]
    fit_largest = _screened_by_classes(subset, limits, orbit_of, classes, CLASS_SCREEN_LEAST)
    if fit_largest.shape[0] == 0:
        fit_largest = _screened_by_count(table, subset, solved, num_slots, limits, orbit_of)
    member = np.zeros(num_codes, np.bool_)
    for x in subset:
        member[x] = True
    multiset_of, most = arrangements
    crowds, crowd_starts = _crowds(subset, multiset_of, most)
    tally = np.zeros(num_slots, np.int64)
    every = max_tries < 0  # trying every guess: those leaving a crowded part are dropped before any is tried
    order = np.empty(num_codes, np.int64)
    largest_of = np.empty(num_codes, np.int64)
    num = 0
    for idx in range(s + (0 if hard else num_codes)):
        if idx < s:
            g = subset[idx]
        else:
            g = idx - s
            if member[g]:
                continue
        largest = fit_largest[g]
        if largest < 0 or (largest == s and not member[g]):
            continue  # a part too large, or the guess tells nothing
        if every and crowds.shape[0] and _crowded(table, g, crowds, crowd_starts, solved, most, tally):
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
                _answers_of(table, order[i], subset), _answers_of(table, order[j], subset), subset, solved, forward,
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
    members, starts, chain, heads, fill = cores
    inside = np.zeros(num_codes, np.bool_)
    distinct = np.empty(num_codes, np.uint8)
    found = np.empty(1, np.int64)
    tries = 0
    for i in kept:
        if tries == max_tries:
            return -1, tries
        tries += 1
        g = order[i]
        if not every and crowds.shape[0] and _crowded(table, g, crowds, crowd_starts, solved, most, tally):
            continue  # a part with too many rearrangements of one multiset: no guess separates it (still a try)
        row = _answers_of(table, g, subset)
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
        sizes[:] = part_counts
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
                verdict = _part_verdict(known_keys, known_at, known_ok, pool, part, key)
                if verdict < 0:
                    if hard:
                        verdict = 1 if _separating_guess(table, part, hard) >= 0 else 0
                    elif _holds_core(part, members, starts, chain, heads, inside):
                        verdict = 0
                    else:
                        verdict = 1 if _separators(table, part, distinct, found) else 0
                        if verdict == 0:
                            _store_core(_least_core(table, part, distinct), members, starts, chain, heads, fill)
                    if pooled + part.shape[0] + 1 > pool.shape[0]:
                        grown = np.empty(2 * (pooled + part.shape[0] + 1), np.int64)
                        grown[:pooled] = pool[:pooled]
                        pool = grown
                    pool[pooled] = part.shape[0]
                    pool[pooled + 1:pooled + 1 + part.shape[0]] = part
                    if 2 * (num_known + 1) > known_keys.shape[0]:
                        old_keys, old_at, old_ok = known_keys, known_at, known_ok
                        known_keys = np.zeros(2 * old_keys.shape[0], np.uint64)
                        known_at = np.zeros(2 * old_keys.shape[0], np.int64)
                        known_ok = np.zeros(2 * old_keys.shape[0], np.int64)
                        for j in range(old_keys.shape[0]):
                            if old_keys[j] != 0:
                                _place(known_keys, known_at, known_ok, old_keys[j], old_at[j], old_ok[j])
                    _place(known_keys, known_at, known_ok, key, pooled, verdict)
                    num_known += 1
                    pooled += part.shape[0] + 1
            if verdict == 0:
                works = False
                break
        if works:
            return g, tries
    return -1, tries
