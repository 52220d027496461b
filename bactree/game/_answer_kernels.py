"""Numba kernels over codes as symbol-index arrays: answers, partitions, symmetry.

Answers are encoded as one small integer, the rule's slot (`bulls * (length
+ 1) + cows` for bulls and cows), so a partition of a set of secrets by a
guess is a histogram over the rule's slots. The public, validating wrappers live in
`bactree.game.codes`; these functions take only arrays and scalars.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import compile_clock

compile_clock.install()  # before any kernel below can compile


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
def _answer_table_by_counts(guesses, secrets, num_symbols):
    """Encoded answers, guesses x secrets, as uint8, counting each pair's symbols afresh.

    For games whose codes hold too many distinct multisets of symbols for
    `_answer_table`'s table of shared symbols.
    """
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
def _marks_table(codes, num_symbols, columns):
    """Wordle's answers of every code (rows: guesses) to the codes `columns` (secrets), uint8, in a table of every code
    both ways (the other columns 0): one mark a position, G where the symbols agree, then left to right Y while the
    guess's symbol has copies left among the secret's positions not marked G, else B; the marks read as digits in
    base 3 (B 0, G 1, Y 2), the first position first."""
    size, n = codes.shape
    out = np.zeros((size, size), np.uint8)
    left = np.zeros(num_symbols, np.int32)
    green = np.zeros(n, np.bool_)
    for gi in range(size):
        g = codes[gi]
        for si in columns:
            s = codes[si]
            for i in range(n):
                green[i] = g[i] == s[i]
                if not green[i]:
                    left[s[i]] += 1
            value = 0
            for i in range(n):
                mark = 1
                if not green[i]:
                    mark = 0
                    if left[g[i]] > 0:
                        left[g[i]] -= 1
                        mark = 2
                value = 3 * value + mark
            for i in range(n):
                left[s[i]] = 0
            out[gi, si] = value
    return out


# Rows and columns of the answer table computed together: a tile and its mirror stay in cache.
_TILE = 64


@njit(cache=True)
def _answer_table(packed, length, multiset, common):
    """Encoded answers of every code (rows: guesses) to every code (columns: secrets), uint8.

    `packed[c]`: code c's symbols, one byte per position, eight to a word;
    `multiset[c]`: which multiset of symbols code c holds; `common[a, b]`:
    how many symbols multisets a and b share (the sum over symbols of the
    lesser count), which is bulls plus cows. So an answer is a lookup plus
    the bulls, the zero bytes of guess XOR secret, counted a word at a time:
    a byte's high bit is set once its low seven bits or itself are nonzero.
    The answer does not depend on which code is the guess, so each tile on
    or above the diagonal is written with its mirror.
    """
    size = packed.shape[0]
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    ones = np.uint64(0x0101010101010101)
    out = np.empty((size, size), np.uint8)
    for top in range(0, size, _TILE):
        for left in range(top, size, _TILE):
            for gi in range(top, min(top + _TILE, size)):
                shared = common[multiset[gi]]
                for si in range(max(left, gi), min(left + _TILE, size)):
                    differ = 0
                    for w in range(packed.shape[1]):
                        x = packed[gi, w] ^ packed[si, w]
                        high = ((((x & low7) + low7) | x) >> np.uint64(7)) & ones
                        differ += np.int64((high * ones) >> np.uint64(56))
                    answer = (length - differ) * length + shared[multiset[si]]  # bulls * (n + 1) + cows
                    out[gi, si] = answer
                    out[si, gi] = answer
    return out


@njit(cache=True)
def _answer_columns(packed, length, multiset, common, count):
    """`_answer_table`'s answers restricted to the first `count` codes as secrets, both ways: (every code's row of
    answers from those secrets, those secrets' rows of answers to every code), for a mutual rule (one answer either
    way). Each secret's row is scored in one pass, then the rows are transposed a tile at a time (`_transposed`):
    together a third faster than one pass writing both ways (5 of 10, 7,800 secrets: 0.63 s against 0.92)."""
    size = packed.shape[0]
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    ones = np.uint64(0x0101010101010101)
    by_secret = np.empty((count, size), np.uint8)
    words = packed.shape[1]
    for si in range(count):
        shared = common[multiset[si]]
        into = by_secret[si]
        if words == 1:  # up to 8 positions: the loop below without its inner loop (a third faster on 5 of 10)
            mine = packed[si, 0]
            for gi in range(size):
                x = packed[gi, 0] ^ mine
                high = ((((x & low7) + low7) | x) >> np.uint64(7)) & ones
                into[gi] = (length - np.int64((high * ones) >> np.uint64(56))) * length + shared[multiset[gi]]
            continue
        for gi in range(size):
            differ = 0
            for w in range(words):
                x = packed[gi, w] ^ packed[si, w]
                high = ((((x & low7) + low7) | x) >> np.uint64(7)) & ones
                differ += np.int64((high * ones) >> np.uint64(56))
            into[gi] = (length - differ) * length + shared[multiset[gi]]  # bulls * (n + 1) + cows
    return _transposed(by_secret), by_secret


# The side of `_transposed`'s tiles: 128 rows of 128 bytes stay in the second-level cache (64: 15% slower).
_TRANSPOSE_TILE = 128


@njit(cache=True)
def _transposed(rows):
    """`rows.T`, C-contiguous, a tile at a time (numpy's copy of the transpose reads a column at a time)."""
    height, width = rows.shape
    out = np.empty((width, height), rows.dtype)
    for top in range(0, height, _TRANSPOSE_TILE):
        for left in range(0, width, _TRANSPOSE_TILE):
            for j in range(left, min(left + _TRANSPOSE_TILE, width)):
                into = out[j]
                for i in range(top, min(top + _TRANSPOSE_TILE, height)):
                    into[i] = rows[i, j]
    return out


@njit(cache=True)
def _columns_in_order(table, order):
    """`table[:, order]`, C-contiguous: row by row, a few times faster than numpy's column gather on large tables."""
    out = np.empty((table.shape[0], order.shape[0]), table.dtype)
    for i in range(table.shape[0]):
        row = table[i]
        into = out[i]
        for j in range(order.shape[0]):
            into[j] = row[order[j]]
    return out


@njit(cache=True)
def _partition_counts(by_secret, guesses, subset, num_slots):
    """Part sizes: row j holds how many secrets of `subset` give each answer to `guesses[j]`.

    Reads `by_secret[s, g]`, the answer secret s gives guess g (the answer
    table transposed, or the table itself under a `mutual` rule), so each
    secret's row is read in order.
    """
    out = np.zeros((guesses.shape[0], num_slots), np.int32)
    for s in subset:
        row = by_secret[s]
        for j in range(guesses.shape[0]):
            out[j, row[guesses[j]]] += 1
    return out
