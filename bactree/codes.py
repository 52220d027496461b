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


@lru_cache(maxsize=4)
def answer_table(game: Game) -> np.ndarray:
    """Encoded answers for every guess (rows) and secret (columns), uint8.

    Cached per game; 25 MB for 4 of 10. The array is read-only.
    """
    codes = code_array(game)
    table = _kernels._answer_table(codes, codes, game.num_symbols)
    table.flags.writeable = False
    return table


def partition_counts(game: Game, guesses: np.ndarray, subset: np.ndarray) -> np.ndarray:
    """Part sizes of `subset` (code indices) under each of `guesses`, one row per guess."""
    table = answer_table(game)
    return _kernels._partition_counts(
        table, np.asarray(guesses, np.int64), np.asarray(subset, np.int64), num_slots(game)
    )
