"""Numba kernels of the tree finder (`bactree.search.finder`): the last three guesses, fast.

With two guesses left a set is solved only by a guess that gives each of
its secrets a different answer; with three, by a guess whose every part is
solved so with two. `height._find_guess` tests the first by reading each
guess's row of the answer table at the set's secrets, a cache miss per
secret for each of 30240 guesses on 5 of 10; here every guess is tested at
once in a streaming pass over the secrets' rows (the table is symmetric),
with the answers seen so far as one 64-bit mask per guess. These kernels
are self-contained (numba's cache does not see callees in other files).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Answers are bits of a 64-bit mask: games of at most 6 positions ((6 + 1) ** 2 = 49 answers).
MAX_SLOTS = 64


@njit(cache=True)
def _mix(z):
    """The splitmix64 finaliser: a well-spread 64-bit function of a 64-bit word."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _same_partition(row, other, subset, solved, forward, backward):
    """True if guesses with answer rows `row` and `other` split `subset` into the same parts (and solve the same secret)."""
    forward[:] = -1
    backward[:] = -1
    for x in subset:
        a, b = row[x], other[x]
        if (a == solved) != (b == solved):
            return False
        if forward[a] < 0 and backward[b] < 0:
            forward[a] = b
            backward[b] = a
        elif forward[a] != b or backward[b] != a:
            return False
    return True


@njit(cache=True)
def _separating_guess(table, part, hard):
    """A guess giving every secret of `part` its own answer (two guesses then solve it), or -1.

    Codes of `part` are tried first, in order, then (unless `hard`) every
    code from the lowest: the first that separates is returned.
    """
    k = part.shape[0]
    for i in range(k):
        row = table[part[i]]
        seen = np.uint64(0)
        distinct = True
        for x in part:
            bit = np.uint64(1) << np.uint64(row[x])
            if seen & bit:
                distinct = False
                break
            seen |= bit
        if distinct:
            return part[i]
    if hard:
        return -1
    num_codes = table.shape[1]
    seen_by = np.zeros(num_codes, np.uint64)
    clash = np.zeros(num_codes, np.uint64)
    for x in part:
        row = table[x]
        for g in range(num_codes):
            bit = np.uint64(1) << np.uint64(row[g])
            clash[g] |= seen_by[g] & bit
            seen_by[g] |= bit
    for g in range(num_codes):
        if clash[g] == 0:
            return g
    return -1


@njit(cache=True)
def _three_left_guess(table, subset, solved, num_slots, limits, orbit_of, hard, max_tries):
    """(a guess after which every part of `subset` is solved within two guesses, or -1; the guesses tried).

    `_three_left_search` with its parts' verdicts remembered: the same.
    """
    return _three_left_search(table, subset, solved, num_slots, limits, orbit_of, hard, max_tries, True)


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
def _holds_one(masks, count, mask):
    """True if one of the first `count` bit masks of `masks` has no bit outside `mask` (newest first)."""
    for i in range(count - 1, -1, -1):
        inside = True
        for w in range(mask.shape[0]):
            if masks[i, w] & ~mask[w]:
                inside = False
                break
        if inside:
            return True
    return False


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
def _three_left_search(table, subset, solved, num_slots, limits, orbit_of, hard, max_tries, remember):
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
    parts of 3 or more under the guesses that fit were 11,916 sets. A part
    that holds one found unsolvable is unsolvable too (a guess separating it
    would separate the smaller one), so the unsolvable parts are kept as
    bit masks over `subset` and a new part is first tested against them:
    on parts of the 312-secret set of 5 of 10 that spared 9% to 56% of the
    secrets `_separating_guess` scans. Remembered and inferred verdicts are
    the ones `_separating_guess` gives, so the guess found and the guesses
    tried are the same either way.
    """
    s = subset.shape[0]
    num_codes = table.shape[1]
    counts = np.zeros(num_slots * num_codes, np.uint16)
    for x in subset:
        row = table[x]
        for g in range(num_codes):
            counts[row[g] * num_codes + g] += 1
    member = np.zeros(num_codes, np.bool_)
    for x in subset:
        member[x] = True
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
        fits = True
        largest = 0
        cap = limits[orbit_of[g]]
        for a in range(num_slots):
            if a == solved:
                continue
            c = counts[a * num_codes + g]
            if c > cap[a]:
                fits = False
                break
            largest = max(largest, c)
        if not fits or (largest == s and not member[g]):
            continue  # a part too large, or the guess tells nothing
        order[num] = g
        largest_of[num] = largest
        num += 1
    if num == 0:
        return -1, 0
    # Partitions are hashed for the guesses that fit only (often none, or few): a weight per secret, summed per part.
    sums = np.zeros(num_slots * num, np.uint64)
    for x in subset:
        row = table[x]
        w = _mix(np.uint64(x) + np.uint64(0x9E3779B97F4A7C15))
        for j in range(num):
            sums[row[order[j]] * num + j] += w
    hashes = np.zeros(num, np.uint64)
    for j in range(num):
        for a in range(num_slots):
            if a != solved and counts[a * num_codes + order[j]]:
                hashes[j] += _mix(sums[a * num + j])
    by_hash = np.argsort(hashes[:num], kind="mergesort")  # stable: the first of each partition stays first
    keep = np.zeros(num, np.bool_)
    forward = np.empty(num_slots, np.int64)
    backward = np.empty(num_slots, np.int64)
    group = 0  # where the run of equal hashes that by_hash[i] belongs to starts
    for i in range(num):
        if i > 0 and hashes[by_hash[i]] != hashes[by_hash[i - 1]]:
            group = i
        keep[by_hash[i]] = True
        for j in range(group, i):  # equal hashes: compared exactly, so only true duplicates go
            if keep[by_hash[j]] and _same_partition(
                table[order[by_hash[j]]], table[order[by_hash[i]]], subset, solved, forward, backward
            ):
                keep[by_hash[i]] = False
                break
    kept = np.flatnonzero(keep)
    kept = kept[np.argsort(largest_of[kept], kind="mergesort")]  # smallest largest part first: likelier to work
    part_counts = np.zeros(num_slots, np.int64)
    starts = np.zeros(num_slots + 1, np.int64)
    fill = np.zeros(num_slots, np.int64)
    ordered = np.empty(s, np.int64)
    # Remembered parts: hashes, places in `pool` and verdicts, in a table kept under half full.
    known_keys = np.zeros(1024, np.uint64)
    known_at = np.zeros(1024, np.int64)
    known_ok = np.zeros(1024, np.int64)
    num_known = 0
    pool = np.empty(1024, np.int64)
    pooled = 0
    # Parts found unsolvable within two guesses, as bit masks over the positions of `subset`.
    words = (s + 63) // 64
    position = np.empty(num_codes, np.int64)
    for i in range(s):
        position[subset[i]] = i
    unsolvable = np.empty((64, words), np.uint64)
    num_unsolvable = 0
    mask = np.empty(words, np.uint64)
    tries = 0
    for i in kept:
        if tries == max_tries:
            return -1, tries
        tries += 1
        g = order[i]
        row = table[g]
        part_counts[:] = 0
        for x in subset:
            part_counts[row[x]] += 1
        for a in range(num_slots):
            starts[a + 1] = starts[a] + part_counts[a]
            fill[a] = starts[a]
        for x in subset:
            a = row[x]
            ordered[fill[a]] = x
            fill[a] += 1
        sizes = part_counts.copy()
        sizes[solved] = 0
        works = True
        for a in np.argsort(-sizes, kind="mergesort"):
            if sizes[a] < 3:
                break  # parts of at most 2 take at most two guesses
            part = ordered[starts[a]:starts[a + 1]]
            if not remember:
                verdict = 1 if _separating_guess(table, part, hard) >= 0 else 0
            else:
                key = _mix(sums[a * num + i] ^ np.uint64(part.shape[0])) | np.uint64(1)  # never 0 (empty)
                verdict = _part_verdict(known_keys, known_at, known_ok, pool, part, key)
                if verdict < 0:
                    mask[:] = 0
                    for x in part:
                        mask[position[x] >> 6] |= np.uint64(1) << np.uint64(position[x] & 63)
                    if _holds_one(unsolvable, num_unsolvable, mask):
                        verdict = 0
                    else:
                        verdict = 1 if _separating_guess(table, part, hard) >= 0 else 0
                        if verdict == 0:
                            if num_unsolvable == unsolvable.shape[0]:
                                grown_masks = np.empty((2 * num_unsolvable, words), np.uint64)
                                grown_masks[:num_unsolvable] = unsolvable
                                unsolvable = grown_masks
                            unsolvable[num_unsolvable] = mask
                            num_unsolvable += 1
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
