"""Numba kernels of the counting bounds per answer class (`bactree.search.height.class_caps`).

Self-contained: numba's cache does not see changes to callees in other files.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _class_rows(table, by_secret, guess, orbit_of, num_slots):
    """What the bounds of `guess`'s answer classes need of every code h, once for every depth, its repeats dropped.

    For each answer a of `guess` and each code h: the row (orbit of h, 1 if h
    is in the class a else 0, then for each answer b how many secrets the
    class a shares with h's class b). The bound within d of the class a is
    the most over its rows of their second value plus the sum over b of
    min(shared, the bound within d - 1 of h's orbit's class b) (`_class_caps`),
    so rows alike give the same and one of each is kept: on Mastermind 4x7,
    3,076 rows for the 136,857 pairs of a class and a code. Returns `(rows,
    starts)`: class a's rows are `rows[starts[a]:starts[a + 1]]`. One
    streaming pass per class over its secrets' rows (`by_secret[x, h]`, the
    answer x gives h) counts every code's shared secrets at once.
    """
    num_codes = table.shape[1]
    width = num_slots + 2
    row_g = table[guess]
    starts = np.zeros(num_slots + 1, np.int64)
    rows = np.empty((0, width), np.int32)
    shared = np.empty((num_slots, num_codes), np.int32)
    line = np.empty((num_codes, width), np.int32)
    hashes = np.empty(num_codes, np.uint64)
    for a in range(num_slots):
        shared[:] = 0
        members = 0
        for x in range(num_codes):
            if row_g[x] != a:
                continue
            members += 1
            row = by_secret[x]
            for h in range(num_codes):
                shared[row[h], h] += 1
        if members == 0:
            starts[a + 1] = starts[a]
            continue
        for h in range(num_codes):
            line[h, 0] = orbit_of[h]
            line[h, 1] = 1 if row_g[h] == a else 0
        for b in range(num_slots):
            for h in range(num_codes):  # element by element: a column copy links numba's shape-error text
                line[h, 2 + b] = shared[b, h]
        hashes[:] = np.uint64(0x9E3779B97F4A7C15)
        for k in range(width):
            for h in range(num_codes):
                v = (hashes[h] ^ np.uint64(line[h, k])) * np.uint64(0x100000001B3)
                hashes[h] = v ^ (v >> np.uint64(29))
        order = np.argsort(hashes.view(np.int64), kind="mergesort")
        keep = np.zeros(num_codes, np.bool_)
        start = 0
        while start < num_codes:
            stop = start + 1
            while stop < num_codes and hashes[order[stop]] == hashes[order[start]]:
                stop += 1
            for i in range(start, stop):  # keep a row unless one kept before it in its run of one hash is alike
                alike = False
                for j in range(start, i):
                    if keep[order[j]] and np.array_equal(line[order[i]], line[order[j]]):
                        alike = True
                        break
                keep[order[i]] = not alike
            start = stop
        rows = np.concatenate((rows, line[np.flatnonzero(keep)]))
        starts[a + 1] = rows.shape[0]
    return rows, starts


@njit(cache=True)
def _class_caps(rows, starts, sizes, previous, solved):
    """For each answer class a of one guess: a bound of the most of its secrets d guesses can solve.

    `previous[o, b]` bounds what d - 1 guesses solve of the answer class b
    of any code of orbit o. A tree solving a set X of class a within d
    guesses starts with some code h; X's secrets are h itself (if h is in
    the class) and, for each other answer b of h, the secrets of X in h's
    class b, of which the tree solves at most min(how many the class a
    shares with h's class b, `previous[orbit of h, b]`). The bound is the
    most of that sum over every code h (`rows` and `starts`: `_class_rows`),
    and never more than the class holds (`sizes[a]`).
    """
    num_slots = starts.shape[0] - 1
    caps = np.zeros(num_slots, np.int64)
    for a in range(num_slots):
        best = 0
        for r in range(starts[a], starts[a + 1]):
            o = rows[r, 0]
            total = np.int64(rows[r, 1])
            for b in range(num_slots):
                c = rows[r, 2 + b]
                if b != solved and c > 0:
                    total += min(np.int64(c), previous[o, b])
            best = max(best, total)
        caps[a] = min(best, sizes[a])
    return caps


@njit(cache=True)
def _class_caps_of_each_code(table, by_secret, previous, solved, num_slots):
    """`_class_caps` of every code's answer classes at once, for a game whose every code is an orbit of its own.

    A word list has no relabellings, so no two codes share their rows and
    `_class_rows` would keep one per code and class (gigabytes for a few
    thousand words). Here each guess g's classes are counted afresh at each
    depth instead, with `previous[h, b]` the bound of code h's class b:
    |codes|^2 table reads per guess and depth, and one guess's counts held.
    Returns caps[g, a].
    """
    num_codes = table.shape[0]
    caps = np.zeros((num_codes, num_slots), np.int64)
    shared = np.zeros((num_slots, num_slots, num_codes), np.int32)  # [a, b, h]: codes of g's class a in h's class b
    member = np.zeros((num_slots, num_codes), np.bool_)  # [a, h]: h is in g's class a
    for g in range(num_codes):
        row_g = table[g]
        shared[:] = 0
        member[:] = False
        sizes = np.zeros(num_slots, np.int64)
        for x in range(num_codes):
            a = row_g[x]
            sizes[a] += 1
            member[a, x] = True
            row = by_secret[x]
            for h in range(num_codes):
                shared[a, row[h], h] += 1
        for a in range(num_slots):
            if sizes[a] == 0:
                continue
            best = 0
            for h in range(num_codes):
                total = np.int64(1) if member[a, h] else np.int64(0)
                for b in range(num_slots):
                    c = shared[a, b, h]
                    if b != solved and c > 0:
                        total += min(np.int64(c), previous[h, b])
                best = max(best, total)
            caps[g, a] = min(best, sizes[a])
    return caps
