"""Numba kernels of how one guess splits a set of secrets: parts, their labels, their counts.

Codes are rows of symbol indices; sets of secrets are int64 arrays of code
indices; `table[g, s]` is the answer table of `bactree.game.codes` (guess g,
secret s) and `by_secret[s, g]` the same answers a secret's row at a time,
which scans over every guess read row after row. Under a `mutual` rule
(every rule but Wordle's) the two are one array; else `by_secret` is the
table's transpose, made contiguous (`Solver.by_secret`). Answer masks
hold one bit per answer in a 64-bit word while a rule has at most
`MASK_SLOTS` answers; past that (Wordle's 243) the `_wide` kernels keep
`(num_slots + 63) // 64` words per mask. These are the leaves the searches
build on: `_height_kernels` (depth-bounded solving) and `_cost_kernels`
(least costs) call them, and they call nothing.

numba's cache does not see a change to a callee in another file: after
editing this file, delete `bactree/search/*/__pycache__`, or the kernels of
`_height_kernels` and `_cost_kernels` keep running the old code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# A guess's answers to a set are read from its column of `by_secret` while the set's rows take
# at most this many bytes (secrets times codes): then they stay cached across the many guesses tried on the set, where
# each guess's row would be read afresh, a cache miss per secret on the large games. Larger sets read the guess's row,
# every line of which they touch. (`_answers_of`)
COLUMN_MAX_BYTES = 1 << 22
# `_most_answers` sets the answer masks of this many codes at a time (128 x 8 bytes: in the first-level cache).
ANSWER_BLOCK = 128
# Most answers a one-word mask holds; rules with more (Wordle's 243) take the `_wide` kernels.
MASK_SLOTS = 64


@njit(cache=True)
def _answers_of(table, by_secret, guess, subset):
    """`guess`'s answers, indexed by code, to be read at `subset`'s codes: its column of `by_secret` while the set's
    rows stay cached (`COLUMN_MAX_BYTES`), else its row of `table`."""
    if subset.shape[0] * by_secret.shape[1] <= COLUMN_MAX_BYTES:
        return by_secret[:, guess]
    return table[guess]


@njit(cache=True)
def _split(row, subset, num_slots):
    """Group `subset` by answer: (secrets ordered by answer, start offset per slot, counts)."""
    ordered = np.empty(subset.shape[0], np.int64)
    starts = np.empty(num_slots + 1, np.int64)
    counts = np.empty(num_slots, np.int64)
    _split_into(row, subset, ordered, starts, counts)
    return ordered, starts, counts


@njit(cache=True)
def _split_into(row, subset, ordered, starts, counts):
    """`_split` into arrays the caller holds (a loop over guesses allocates nothing): `counts` has a slot per answer.

    Each part's end is kept in `starts[a + 1]` and walked down as the
    secrets are placed from the last, so each part keeps the set's order and
    `starts[a + 1]` ends at the part's start, then moved down one slot.
    """
    num_slots = counts.shape[0]
    for a in range(num_slots):
        counts[a] = 0
    for i in range(subset.shape[0]):
        counts[row[subset[i]]] += 1
    starts[0] = 0
    for a in range(num_slots):
        starts[a + 1] = starts[a] + counts[a]
    for i in range(subset.shape[0] - 1, -1, -1):
        x = subset[i]
        a = row[x]
        starts[a + 1] -= 1
        ordered[starts[a + 1]] = x
    for a in range(num_slots):
        starts[a] = starts[a + 1]
    starts[num_slots] = subset.shape[0]


@njit(cache=True)
def _count_parts(row, subset, counts, solved, limit):
    """Fill `counts` with part sizes by answer; False as soon as a part besides all-bulls exceeds `limit`."""
    counts[:] = 0
    for x in subset:
        a = row[x]
        counts[a] += 1
        if a != solved and counts[a] > limit:
            return False
    return True


@njit(cache=True)
def _label_parts(row, subset, solved, seen_first, labels):
    """Write canonical part labels of `subset` (0: solved by the guess; then order of appearance); return their hash."""
    seen_first[:] = -1
    next_label = 1
    h = np.uint64(1469598103934665603)
    for i in range(subset.shape[0]):
        a = row[subset[i]]
        if a == solved:
            label = 0
        else:
            if seen_first[a] < 0:
                seen_first[a] = next_label
                next_label += 1
            label = seen_first[a]
        labels[i] = label
        h = (h ^ np.uint64(label)) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _fitting_guesses(by_secret, subset, solved, num_slots, limit):
    """Per code as a guess: True if no part of `subset` under it (all-bulls aside) has more than `limit` secrets.

    Counts every code's parts in one streaming pass over the secrets' rows
    (`by_secret`), which reads |subset| rows instead of touching every
    row: about 8 times faster than counting guess by guess when, as in a
    refutation, most guesses must be counted.
    """
    num_codes = by_secret.shape[1]
    counts = np.zeros(num_slots * num_codes, np.uint16)
    for x in subset:
        row = by_secret[x]
        for g in range(num_codes):
            counts[row[g] * num_codes + g] += 1
    fits = np.ones(num_codes, np.bool_)
    for a in range(num_slots):
        if a == solved:
            continue
        base = a * num_codes
        for g in range(num_codes):
            if counts[base + g] > limit:
                fits[g] = False
    return fits


@njit(cache=True)
def _mix64(z):
    """The splitmix64 finaliser: a well-spread 64-bit function of a 64-bit word."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _kept_value(keys, at, values, pool, members, key):
    """The value kept for the set `members` (hashed to `key`, never 0), or -1 when it is not kept.

    `keys` is an open-addressing table of set hashes (0: empty); a slot's
    set is in `pool` from `at[slot]`, its count then its members, compared
    exactly; `values[slot]` is what was kept for it (`_keep`).
    """
    mask = keys.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    k = members.shape[0]
    while keys[slot] != 0:
        if keys[slot] == key:
            first = at[slot]
            same = pool[first] == k
            for i in range(k):
                if not same:
                    break
                same = pool[first + 1 + i] == members[i]
            if same:
                return values[slot]
        slot = (slot + 1) & mask
    return -1


@njit(cache=True)
def _keep(keys, at, values, key, start, value):
    """Put a set's hash, its place in the pool and its value in the first free slot of its probe sequence."""
    mask = keys.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    while keys[slot] != 0:
        slot = (slot + 1) & mask
    keys[slot] = key
    at[slot] = start
    values[slot] = value


@njit(cache=True)
def _equal_hashes(hashes):
    """`following[j]`: the next index after j with the hash of j, or -1: each hash's indices chained in order.

    By open addressing on the hashes' low bits, in one pass: no sort by hash.
    """
    num = hashes.shape[0]
    size = 2
    while size < 2 * num:
        size *= 2
    mask = np.uint64(size - 1)
    last = np.full(size, -1, np.int64)  # per slot: the latest index with the slot's hash
    following = np.full(num, -1, np.int64)
    for j in range(num):
        slot = hashes[j] & mask
        while last[slot] >= 0 and hashes[last[slot]] != hashes[j]:
            slot = (slot + np.uint64(1)) & mask
        if last[slot] >= 0:
            following[last[slot]] = j
        last[slot] = j
    return following


@njit(cache=True)
def _distinct_partitions(table, by_secret, candidates, subset, solved, num_slots, answers_max):
    """Mask keeping the first guess of `candidates` for each distinct partition of `subset`.

    Two guesses are alike when they split `subset` into the same parts and
    solve the same secret at once (or none): then every cost is the same.
    Each secret has a pseudo-random weight; a guess's hash adds a mix of
    each part's weight sum (which secret it solves apart), all guesses in
    one streaming pass over the secrets' rows (`by_secret`). Only guesses whose hashes
    meet (`_equal_hashes`) are compared, exactly (`_same_partition`), on
    the answers that pass read, kept where they take at most `answers_max`
    bytes (the callers' `DEDUPE_ANSWERS_MAX`; else read again,
    `_answers_of`). Read again guess by guess from each guess's row of the
    table, they missed the cache at every secret (on 5 of 10's small sets
    after three guesses, where all 30,240 codes are candidates and about
    2,000 partitions distinct, 36 ms a call against 5.3).
    """
    num = candidates.shape[0]
    s = subset.shape[0]
    kept_answers = s * num <= answers_max
    answers = np.empty((s, num if kept_answers else 0), np.uint8)  # answers[i, j]: subset[i]'s to candidates[j]
    positions = np.arange(s)  # where a kept answers column holds each secret's answer
    weights = np.zeros(num_slots * num, np.uint64)
    for i in range(s):
        w = _mix64(np.uint64(subset[i]) + np.uint64(0x9E3779B97F4A7C15))
        row = by_secret[subset[i]]
        for j in range(num):
            a = row[candidates[j]]
            weights[a * num + j] += w
            if kept_answers:
                answers[i, j] = a
    hashes = np.zeros(num, np.uint64)
    for a in range(num_slots):
        base = a * num
        for j in range(num):
            v = weights[base + j]
            if a == solved:
                hashes[j] += _mix64(v ^ np.uint64(0x5851F42D4C957F2D))
            elif v != 0:
                hashes[j] += _mix64(v)
    following = _equal_hashes(hashes)
    keep = np.ones(num, np.bool_)
    forward = np.empty(num_slots, np.int64)
    backward = np.empty(num_slots, np.int64)
    for jx in range(num):
        if not keep[jx]:
            continue
        jy = following[jx]
        while jy >= 0:
            if keep[jy]:
                if kept_answers:
                    alike = _same_partition(answers[:, jx], answers[:, jy], positions, solved, forward, backward)
                else:
                    alike = _same_partition(
                        _answers_of(table, by_secret, candidates[jx], subset), _answers_of(table, by_secret, candidates[jy], subset), subset,
                        solved, forward, backward,
                    )
                if alike:
                    keep[jy] = False
            jy = following[jy]
    return keep


@njit(cache=True)
def _same_partition(row, other, subset, solved, forward, backward):
    """True if guesses with answers `row` and `other` (indexed by code) split `subset` into the same parts and solve
    the same secret (or none): their answers map one to one. `forward` and `backward`: scratch, one entry per answer."""
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
def _guess_bases(by_secret, subset, guesses, solved, num_slots, floor, orbit_of):
    """For each of `guesses` on `subset`: (sum of its parts' floors, largest part, solves one).

    A part of c secrets with answer a to a guess of orbit o (`orbit_of`)
    has floor `floor[o, a, c]`: a bound by its answer class (see
    `CostSearch.class_floor`; an empty part's floor, never read, would be
    0). The all-bulls answer is not a part. Counts every guess's parts in one
    pass over the secrets' rows (`by_secret`), one counter per answer and
    guess: 3 to 9 times faster than counting guess by guess.
    """
    num = guesses.shape[0]
    counts = np.zeros(num_slots * num, np.uint16)  # a set holds fewer than 2**16 codes (BUILD_LIMIT)
    for x in subset:
        row = by_secret[x]
        for j in range(num):
            counts[row[guesses[j]] * num + j] += 1
    sums = np.zeros(num, np.int64)
    largest = np.zeros(num, np.int64)
    hits = np.zeros(num, np.bool_)
    for a in range(num_slots):
        base = a * num
        if a == solved:
            for j in range(num):
                hits[j] = counts[base + j] > 0
            continue
        for j in range(num):
            c = np.int64(counts[base + j])
            if c:  # most answers have no part on a small set: skipping them halves the time on sets of 3
                sums[j] += floor[orbit_of[guesses[j]], a, c]
                largest[j] = max(largest[j], c)
    return sums, largest, hits


@njit(cache=True)
def _popcount(v):
    """Number of set bits of a 64-bit word."""
    v = v - ((v >> np.uint64(1)) & np.uint64(0x5555555555555555))
    v = (v & np.uint64(0x3333333333333333)) + ((v >> np.uint64(2)) & np.uint64(0x3333333333333333))
    v = (v + (v >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (v * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True)
def _most_answers(table, by_secret, subset, solved, num_slots, hard, branching, grouped):
    """The most, over every code as a guess, of (answers it gets from `subset`, besides all-bulls) + 2 if one is all-bulls.

    The set's own codes come first, one by one (|subset|**2 lookups). A
    code outside the set gets no all-bulls and at most min(|subset|,
    `branching`) answers (`branching`: the game's answers besides
    all-bulls), so once a code reaches that score the rest is skipped
    (common on the small sets the least-cost search bounds). Then the other
    codes: by groups of one multiset of symbols where `grouped` holds them
    (`bactree.game.codes.grouped_answers`: every code of a group shares as many
    symbols with a secret, and the secrets that share v symbols with a code
    outside the set give it at most `most_bulls[v]` answers, so the sum over
    v bounds the group's scores), each group counted from the highest bound
    down until none left can beat the best (on 5 of 9's small parts where no
    code reaches the cap, about 2.5% of the codes); else every code, a
    block of `ANSWER_BLOCK` at a time (`_score_blocks`). In `hard` mode
    only the codes of `subset` are guesses. Past `MASK_SLOTS` answers
    `_wide_most_answers` counts them (no groups: the rule is not Bulls and
    Cows').
    """
    if num_slots > MASK_SLOTS:
        return _wide_most_answers(table, by_secret, subset, solved, num_slots, hard, branching)
    solved_bit = np.uint64(1) << np.uint64(solved)
    most = _own_most_answers(table, subset, solved_bit)
    cap = min(subset.shape[0], branching)
    if hard or most >= cap:
        return most  # no code outside the set scores more: see above
    by_group, shared, starts, most_bulls, _ = grouped
    if by_group.shape[0] == 0:
        return _score_blocks(by_secret, subset, solved_bit, 0, by_secret.shape[1], most, cap)
    num_groups, levels = shared.shape[1], most_bulls.shape[0]
    counts = _shared_counts(shared, subset, levels)
    bounds = np.zeros(num_groups, np.int64)
    for v in range(levels):
        for k in range(num_groups):
            bounds[k] += min(counts[v, k], most_bulls[v])
    while most < cap:
        best = np.argmax(bounds)  # the highest bound left (the lowest group on ties)
        if bounds[best] <= most:
            break
        bounds[best] = 0
        most = _score_blocks(by_group, subset, solved_bit, starts[best], starts[best + 1], most, cap)
    return most


@njit(cache=True)
def _own_most_answers(table, subset, solved_bit):
    """The most `_mask_score` on `subset` of its own codes as guesses (|subset|**2 lookups)."""
    most = 0
    s = subset.shape[0]
    for i in range(s):  # indices, not `for g in subset`: an iterator, like a row view, costs two reference counts
        g = subset[i]
        mask = np.uint64(0)
        for j in range(s):
            mask |= np.uint64(1) << np.uint64(table[g, subset[j]])
        most = max(most, _mask_score(mask, solved_bit))
    return most


@njit(cache=True)
def _shared_counts(shared, subset, levels):
    """Per count v of shared symbols (`levels` of them) and group of codes of one multiset (`shared`'s columns): how
    many secrets of `subset` share v symbols with every code of the group.

    Counted in one 64-bit word per group, a lane of `64 // levels` bits per
    count v, while the set is small enough for a lane to hold its size: the
    add to a word does not depend on the count read from the table, so the
    loop over groups vectorises (counter by counter, each add waits on the
    table's value: on a 5 of 10 exact task this count was 7% of the CPU).
    """
    num_groups = shared.shape[1]
    counts = np.zeros((levels, num_groups), np.int64)
    width = 64 // levels
    s = subset.shape[0]
    if s >= 1 << width:
        for i in range(s):
            row = shared[subset[i]]
            for k in range(num_groups):
                counts[row[k], k] += 1
        return counts
    words = np.zeros(num_groups, np.uint64)
    for i in range(s):
        row = shared[subset[i]]  # a view of the row: its loop vectorises, where a read by two indices did not
        for k in range(num_groups):
            words[k] += np.uint64(1) << (np.uint64(width) * np.uint64(row[k]))
    lane = np.uint64((1 << width) - 1)
    for v in range(levels):
        for k in range(num_groups):
            counts[v, k] = np.int64((words[k] >> np.uint64(width * v)) & lane)
    return counts


@njit(cache=True)
def _score_blocks(by_secret, subset, solved_bit, begin, end, most, cap):
    """The most of `most` and the `_mask_score` on `subset` of the codes of `by_secret`'s columns `begin` to `end`
    (a secret's answers to each code, or `grouped`'s regrouped table), stopping once one reaches `cap`.

    One bit per answer and code is set, a block of `ANSWER_BLOCK` codes at
    a time: the secrets' rows over the block into masks that stay in the first-level cache, the
    block's scores, then the next block (on 5 of 9's small parts about 30%
    faster than one pass over every code per secret).
    """
    masks = np.empty(ANSWER_BLOCK, np.uint64)
    for start in range(begin, end, ANSWER_BLOCK):
        width = min(ANSWER_BLOCK, end - start)
        masks[:width] = 0
        for x in subset:
            row = by_secret[x, start : start + width]
            for j in range(width):
                masks[j] |= np.uint64(1) << np.uint64(row[j])
        for j in range(width):
            most = max(most, _mask_score(masks[j], solved_bit))
        if most >= cap:
            return most
    return most


@njit(cache=True)
def _mask_score(mask, solved_bit):
    """The answers a guess's bit `mask` holds besides all-bulls (`solved_bit`), + 2 if it holds all-bulls."""
    score = np.int64(_popcount(mask & ~solved_bit))
    if mask & solved_bit:
        score += 2
    return score


@njit(cache=True)
def _wide_score(masks, j, solved):
    """`_mask_score` of the `j`-th multi-word mask of `masks` (a row of 64-bit words, bit a of word a // 64)."""
    score = np.int64(0)
    for w in range(masks.shape[1]):
        score += np.int64(_popcount(masks[j, w]))
    if (masks[j, solved >> 6] >> np.uint64(solved & 63)) & np.uint64(1):
        score += 1  # the solved bit counted once above: + 2 in all
    return score


@njit(cache=True)
def _wide_masks(by_secret, subset, pool, num_slots):
    """One multi-word mask per guess of `pool`: bit a set when a secret of `subset` gives it answer a (`_wide_score`)."""
    num = pool.shape[0]
    masks = np.zeros((num, (num_slots + 63) >> 6), np.uint64)
    for x in subset:
        row = by_secret[x]
        for j in range(num):
            a = row[pool[j]]
            masks[j, a >> 6] |= np.uint64(1) << np.uint64(a & 63)
    return masks


@njit(cache=True)
def _wide_most_answers(table, by_secret, subset, solved, num_slots, hard, branching):
    """`_most_answers` for rules of more than `MASK_SLOTS` answers: the set's own codes first, then (unless `hard`
    or one reached the cap) every code, a block of `ANSWER_BLOCK` at a time, with multi-word masks."""
    most = _wide_own_most_answers(table, subset, solved, num_slots)
    cap = min(subset.shape[0], branching)
    if hard or most >= cap:
        return most
    num_codes = by_secret.shape[1]
    for start in range(0, num_codes, ANSWER_BLOCK):
        block = np.arange(start, min(start + ANSWER_BLOCK, num_codes))
        masks = _wide_masks(by_secret, subset, block, num_slots)
        for j in range(block.shape[0]):
            most = max(most, _wide_score(masks, j, solved))
        if most >= cap:
            return most
    return most


@njit(cache=True)
def _wide_own_most_answers(table, subset, solved, num_slots):
    """`_own_most_answers` for rules of more than `MASK_SLOTS` answers: each code of `subset` as a guess, its answers
    from its row of `table` marked in a multi-word mask."""
    most = 0
    s = subset.shape[0]
    masks = np.zeros((1, (num_slots + 63) >> 6), np.uint64)
    for i in range(s):
        row = table[subset[i]]
        masks[0, :] = 0
        for j in range(s):
            a = row[subset[j]]
            masks[0, a >> 6] |= np.uint64(1) << np.uint64(a & 63)
        most = max(most, _wide_score(masks, 0, solved))
    return most
