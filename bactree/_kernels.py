"""Numba kernels over codes as symbol-index arrays: answers, partitions, symmetry.

Answers are encoded as one small integer, `bulls * (length + 1) + cows`, so a
partition of a set of secrets by a guess is a histogram over
`(length + 1) ** 2` slots. The public, validating wrappers live in
`bactree.codes`; these functions take only arrays and scalars.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _answer(guess, secret, num_symbols):
    """Encoded answer of `secret` to `guess` (cows are white pegs: a min-count sum)."""
    n = guess.shape[0]
    bulls = 0
    for i in range(n):
        if guess[i] == secret[i]:
            bulls += 1
    count_g = np.zeros(num_symbols, np.int32)
    count_s = np.zeros(num_symbols, np.int32)
    for i in range(n):
        count_g[guess[i]] += 1
        count_s[secret[i]] += 1
    common = 0
    for c in range(num_symbols):
        common += min(count_g[c], count_s[c])
    return bulls * (n + 1) + common - bulls


@njit(cache=True)
def _answer_table(guesses, secrets, num_symbols):
    """Encoded answers, guesses x secrets, as uint8."""
    n = guesses.shape[1]
    out = np.empty((guesses.shape[0], secrets.shape[0]), np.uint8)
    count_g = np.zeros(num_symbols, np.int32)
    count_s = np.zeros(num_symbols, np.int32)
    for gi in range(guesses.shape[0]):
        g = guesses[gi]
        for si in range(secrets.shape[0]):
            s = secrets[si]
            bulls = 0
            for i in range(n):
                if g[i] == s[i]:
                    bulls += 1
                count_g[g[i]] += 1
                count_s[s[i]] += 1
            common = 0
            for i in range(n):
                c = g[i]
                common += min(count_g[c], count_s[c])
                count_g[c] = 0  # count each symbol once
            for i in range(n):
                count_s[s[i]] = 0
            out[gi, si] = bulls * (n + 1) + common - bulls
    return out


@njit(cache=True)
def _partition_counts(table, guesses, subset, num_slots):
    """Part sizes: row j holds how many secrets of `subset` give each answer to `guesses[j]`.

    Reads `table[s, g]`, which equals `table[g, s]` (an answer does not
    depend on which code is the guess), so each secret's row is read in order.
    """
    out = np.zeros((guesses.shape[0], num_slots), np.int32)
    for s in subset:
        row = table[s]
        for j in range(guesses.shape[0]):
            out[j, row[guesses[j]]] += 1
    return out
