"""Numba kernels of the `best` cracker: constraint propagation and the consistent-guess search.

The answers so far are rows of `rows` (guess symbols, one row per positional
question) with their bulls in `bulls`; `cols` is the same matrix transposed
(one contiguous column of questions per position). `allowed[i, s]` says
whether position i may still hold symbol s; `counts[s]` is how often s
occurs in the secret.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _propagate(rows, bulls, num_rows, allowed, counts):  # pragma: no cover - compiled
    """Shrink `allowed` to a fixpoint; False when the answers fit no secret.

    Rules: a question whose still-possible hits equal its bulls forces them
    all; one whose certain hits equal its bulls rules out the other
    possible hits. The same two rules hold for each symbol's count.
    """
    n, k = allowed.shape
    size = np.zeros(n, dtype=np.int64)
    only = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        for s in range(k):
            if allowed[i, s]:
                size[i] += 1
                only[i] = s
        if size[i] == 0:
            return False
    changed = True
    while changed:
        changed = False
        for q in range(num_rows):
            possible = 0
            certain = 0
            for i in range(n):
                s = rows[q, i]
                if allowed[i, s]:
                    possible += 1
                    if size[i] == 1:
                        certain += 1
            target = bulls[q]
            if possible < target or certain > target:
                return False
            if possible == certain:
                continue
            if possible == target or certain == target:
                force = possible == target
                for i in range(n):
                    s = rows[q, i]
                    if allowed[i, s] and size[i] > 1:
                        if force:
                            for t in range(k):
                                allowed[i, t] = False
                            allowed[i, s] = True
                            size[i] = 1
                            only[i] = s
                        else:
                            allowed[i, s] = False
                            size[i] -= 1
                            if size[i] == 0:
                                return False
                            if size[i] == 1:
                                for t in range(k):
                                    if allowed[i, t]:
                                        only[i] = t
                changed = True
        for s in range(k):
            possible = 0
            certain = 0
            for i in range(n):
                if allowed[i, s]:
                    possible += 1
                    if size[i] == 1:
                        certain += 1
            if possible < counts[s] or certain > counts[s]:
                return False
            if possible == certain:
                continue
            if possible == counts[s] or certain == counts[s]:
                force = possible == counts[s]
                for i in range(n):
                    if allowed[i, s] and size[i] > 1:
                        if force:
                            for t in range(k):
                                allowed[i, t] = False
                            allowed[i, s] = True
                            size[i] = 1
                            only[i] = s
                        else:
                            allowed[i, s] = False
                            size[i] -= 1
                            if size[i] == 0:
                                return False
                            if size[i] == 1:
                                for t in range(k):
                                    if allowed[i, t]:
                                        only[i] = t
                changed = True
    return True


@njit(cache=True)
def _anneal(rows, cols, bulls, num_rows, allowed, x, free, max_moves, temperature, seed):  # pragma: no cover
    """Swap symbols of free positions of `x` towards a code that gets every answer; return its cost.

    Swaps keep every symbol's count. The cost is the sum over questions of
    |bulls of x - bulls answered| plus the positions holding a ruled-out
    symbol; 0 means x is consistent with everything known. Moves follow
    min-conflicts: pick a question x gets wrong and a swap that moves its
    bulls the right way, accepted by the Metropolis rule. `x` ends as the
    best code seen.
    """
    np.random.seed(seed)
    n = x.shape[0]
    num_free = free.shape[0]
    hits = np.zeros(num_rows, dtype=np.int64)
    weight = np.ones(num_rows, dtype=np.int64)
    for q in range(num_rows):
        for i in range(n):
            if rows[q, i] == x[i]:
                hits[q] += 1
    cost = 0
    for q in range(num_rows):
        cost += abs(hits[q] - bulls[q])
    weighted = cost
    stall = 0
    for f in range(num_free):
        i = free[f]
        if not allowed[i, x[i]]:
            cost += 1
    best_cost = cost
    best = x.copy()
    picks = np.empty(num_free, dtype=np.int64)
    for _ in range(max_moves):
        if cost == 0 or num_free < 2:
            break
        # Choose the swap (i, j).
        i = -1
        j = -1
        q = np.random.randint(num_rows) if num_rows > 0 else -1
        tries = 0
        while q >= 0 and hits[q] == bulls[q] and tries < 30:
            q = np.random.randint(num_rows)
            tries += 1
        if q >= 0 and hits[q] != bulls[q] and np.random.random() < 0.9:
            count = 0
            if hits[q] > bulls[q]:
                for f in range(num_free):
                    p = free[f]
                    if rows[q, p] == x[p]:
                        picks[count] = p
                        count += 1
                if count == 0:
                    continue
                i = picks[np.random.randint(count)]
                for _t in range(20):
                    p = free[np.random.randint(num_free)]
                    if x[p] != x[i] and allowed[i, x[p]]:
                        j = p
                        break
            else:
                for f in range(num_free):
                    p = free[f]
                    if rows[q, p] != x[p] and allowed[p, rows[q, p]]:
                        picks[count] = p
                        count += 1
                if count == 0:
                    continue
                i = picks[np.random.randint(count)]
                want = rows[q, i]
                count = 0
                for f in range(num_free):
                    p = free[f]
                    if x[p] == want:
                        picks[count] = p
                        count += 1
                if count == 0:
                    continue
                j = picks[np.random.randint(count)]
        else:
            i = free[np.random.randint(num_free)]
            j = free[np.random.randint(num_free)]
        stall += 1
        if stall > 100:
            # Breakout: questions that stay wrong weigh more, reshaping the landscape.
            stall = 0
            weighted = 0
            for r in range(num_rows):
                if hits[r] != bulls[r]:
                    weight[r] += 1
                weighted += weight[r] * abs(hits[r] - bulls[r])
        if j < 0 or i == j or x[i] == x[j]:
            continue
        a = x[i]
        b = x[j]
        delta = 0
        wdelta = 0
        for r in range(num_rows):
            ci = cols[i, r]
            cj = cols[j, r]
            change = (ci == b) + (cj == a) - (ci == a) - (cj == b)
            if change != 0:
                d = abs(hits[r] + change - bulls[r]) - abs(hits[r] - bulls[r])
                delta += d
                wdelta += weight[r] * d
        d = (not allowed[i, b]) + (not allowed[j, a]) - (not allowed[i, a]) - (not allowed[j, b])
        delta += d
        wdelta += 4 * d
        if wdelta > 0 and np.random.random() >= np.exp(-wdelta / temperature):
            continue
        for r in range(num_rows):
            ci = cols[i, r]
            cj = cols[j, r]
            hits[r] += (ci == b) + (cj == a) - (ci == a) - (cj == b)
        x[i] = b
        x[j] = a
        cost += delta
        weighted += wdelta
        if cost < best_cost:
            best_cost = cost
            best[:] = x
            stall = 0
    x[:] = best
    return best_cost
