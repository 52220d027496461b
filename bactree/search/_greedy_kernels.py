"""Numba kernels for the greedy strategies: score every guess against a set of secrets.

A score is "lower is better" so that one picking routine serves every rule.
The public wrappers live in `bactree.strategies`; these take only arrays and
scalars.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Rules understood by `_partition_scores`; every part counts, the all-bulls one included.
LARGEST_PART = 0  # Knuth: size of the largest part
MOST_PARTS = 1  # Kooi: minus the number of parts
EXPECTED_SIZE = 2  # Irving: sum of squared part sizes (|S| times the expected part size)
ENTROPY = 3  # Neuwirth: sum of c * log2(c), which falls as the answer's entropy rises


@njit(cache=True)
def _partition_scores(table, subset, num_slots, rule):
    """Score of every guess (every row of `table`) on the secrets `subset` under `rule`."""
    scores = np.empty(table.shape[0], np.float64)
    counts = np.zeros(num_slots, np.int64)
    for g in range(table.shape[0]):
        row = table[g]
        for s in subset:
            counts[row[s]] += 1
        score = 0.0
        # Visit each part once, through the secrets rather than all slots: small
        # subsets (most nodes of a tree) then cost |subset|, not the slot count.
        for s in subset:
            c = counts[row[s]]
            if c == 0:
                continue
            counts[row[s]] = 0
            if rule == LARGEST_PART:
                score = max(score, c)
            elif rule == MOST_PARTS:
                score -= 1.0
            elif rule == EXPECTED_SIZE:
                score += c * c
            else:
                score += c * np.log2(c)
        scores[g] = score
    return scores


@njit(cache=True)
def _pick_best(scores, is_candidate):
    """Index of the best (lowest) score; ties: a still-possible code first, then the lowest index.

    Scores within a relative 1e-9 of the best tie, so that entropy sums that
    differ only by rounding (same part sizes in another order) compare equal.
    """
    best = scores.min()
    limit = best + 1e-9 * max(1.0, abs(best))
    first = -1
    for g in range(scores.shape[0]):
        if scores[g] <= limit:
            if is_candidate[g]:
                return g
            if first < 0:
                first = g
    return first
