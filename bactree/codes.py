"""Codes as numpy arrays and the answer table: the bridge from `Game` to the kernels."""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from . import _kernels
from .game import BUILD_LIMIT, Answer, Game


def code_array(game: Game) -> np.ndarray:
    """Every code as a row of symbol indices (uint8), in the order of `game.codes`.

    `GameTooLargeError` for games past `BUILD_LIMIT`, whose answer table would not fit.
    """
    game.check_size(BUILD_LIMIT)
    k, n = game.num_symbols, game.length
    if game.repeats:
        rows = itertools.product(range(k), repeat=n)
    else:
        rows = itertools.permutations(range(k), n)
    return np.array(list(rows), dtype=np.uint8).reshape(-1, n)


def num_slots(game: Game) -> int:
    """Size of the encoded answer range, `(length + 1) ** 2`."""
    return (game.length + 1) ** 2


def encode_answer(game: Game, answer: Answer) -> int:
    return answer.bulls * (game.length + 1) + answer.cows


def decode_answer(game: Game, slot: int) -> Answer:
    return Answer(*divmod(int(slot), game.length + 1))


def solved_slot(game: Game) -> int:
    """Encoded all-bulls answer."""
    return game.length * (game.length + 1)


# Most entries (multisets squared times symbols) of the shared-symbol table `answer_table` builds
# in numpy; games past it (many symbols, few positions) count each pair's symbols in the kernel.
COMMON_TABLE_MAX = 1 << 24


@lru_cache(maxsize=4)
def answer_table(game: Game) -> np.ndarray:
    """Encoded answers for every guess (rows) and secret (columns), uint8.

    Cached per game; 25 MB for 4 of 10. The array is read-only. Bulls plus
    cows depends only on the two codes' multisets of symbols, so it is
    tabulated once per pair of multisets (126 of them for Mastermind 4x6,
    210 for Bulls and Cows 4x10) and the kernel adds the bulls.
    """
    codes = code_array(game)
    k, n = game.num_symbols, game.length
    multisets, multiset = np.unique(np.sort(codes, axis=1), axis=0, return_inverse=True)
    if len(multisets) ** 2 * k > COMMON_TABLE_MAX:
        table = _kernels._answer_table_by_counts(codes, codes, k)
    else:
        counts = np.zeros((len(multisets), k), np.uint8)
        np.add.at(counts, (np.arange(len(multisets))[:, None], multisets), 1)
        common = np.minimum(counts[:, None, :], counts[None, :, :]).sum(axis=2, dtype=np.uint8)
        packed = np.zeros((len(codes), (n + 7) // 8), np.uint64)
        for i in range(n):
            packed[:, i // 8] |= codes[:, i].astype(np.uint64) << np.uint64(8 * (i % 8))
        table = _kernels._answer_table(packed, n, multiset.reshape(-1), common)
    table.flags.writeable = False
    return table


def partition_counts(game: Game, guesses: np.ndarray, subset: np.ndarray) -> np.ndarray:
    """Part sizes of `subset` (code indices) under each of `guesses`, one row per guess."""
    table = answer_table(game)
    return _kernels._partition_counts(
        table, np.asarray(guesses, np.int64), np.asarray(subset, np.int64), num_slots(game)
    )
