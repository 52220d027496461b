"""Codes as numpy arrays and the answer table: the bridge from `Game` to the kernels."""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from . import _answer_kernels as _kernels
from . import BUILD_LIMIT, Answer, Game


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


# `grouped_answers` regroups the table for games with at least this many codes per multiset of symbols (Bulls and
# Cows: 24 of 4 positions, 120 of 5): below it (Mastermind 4x7, 11) `_most_answers`'s scan in the table's own order
# costs less (`scripts/bench_most_answers.py`); the groups' other arrays are kept for `_least_base` all the same.
GROUPED_MIN_CODES = 20
_grouped: dict[Game, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
# No groups at all: `_most_answers` counts the codes in the table's order, `_least_base` bounds each code alone.
UNGROUPED = (
    np.zeros((0, 0), np.uint8), np.zeros((0, 0), np.uint8), np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
)


def forget_tables() -> None:
    """Drop the tables kept per game (`answer_table`, the groups of `grouped_answers`): a benchmark that warmed the
    kernels up on a game then times a build that makes its own, as a fresh process would."""
    answer_table.cache_clear()
    multiset_of.cache_clear()
    _grouped.clear()


@lru_cache(maxsize=4)
def multiset_of(game: Game) -> np.ndarray:
    """Each code's multiset of symbols, numbered in order (the groups of `regroup_answers`)."""
    _, group = np.unique(np.sort(code_array(game), axis=1), axis=0, return_inverse=True)
    return group.reshape(-1)


def grouped_answers(game: Game, table: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`regroup_answers`, its regrouped table only for games with at least `GROUPED_MIN_CODES` codes per multiset.

    Kept per game (for the last game asked): a second table as large as
    the first, built once in the build's process so that forked workers
    share it.
    """
    if game not in _grouped:
        many = game.num_codes >= GROUPED_MIN_CODES * (int(multiset_of(game).max()) + 1)
        _grouped.clear()
        _grouped[game] = regroup_answers(game, table, regroup_table=many)
    return _grouped[game]


def regroup_answers(
    game: Game, table: np.ndarray, regroup_table: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The answer table regrouped by multisets of symbols, for `_most_answers` and `_least_base` to bound a few groups
    of codes before they count any code.

    Returns `(by_group, shared, starts, most_bulls, members)`: `table` with its
    columns ordered by multiset (each group's codes together, in code
    order), the symbols each code shares with each group's codes (one
    value per group: every code of a group shares as many), where each
    group's columns start (one more entry than groups), and for each count
    v of shared symbols how many bulls counts a guess can meet among the
    secrets that share v with it: v + 1, but n - 1 when all n are shared
    (n - 1 bulls would make the last symbol a bull too, and n bulls only
    the guess itself gets), and the code of each of `by_group`'s columns.
    Without `regroup_table`, `by_group` is empty (no second table).
    """
    n = game.length
    group = multiset_of(game)
    members = np.argsort(group, kind="stable")
    starts = np.searchsorted(group[members], np.arange(int(group.max()) + 2)).astype(np.int64)
    bulls, cows = np.divmod(np.arange(num_slots(game)), n + 1)
    shared = (bulls + cows).astype(np.uint8)[_kernels._columns_in_order(table, members[starts[:-1]])]
    most_bulls = np.array([v + 1 for v in range(n)] + [n - 1], np.int64)
    by_group = _kernels._columns_in_order(table, members) if regroup_table else np.zeros((0, 0), np.uint8)
    return by_group, shared, starts, most_bulls, members.astype(np.int64)


def partition_counts(game: Game, guesses: np.ndarray, subset: np.ndarray) -> np.ndarray:
    """Part sizes of `subset` (code indices) under each of `guesses`, one row per guess."""
    table = answer_table(game)
    return _kernels._partition_counts(
        table, np.asarray(guesses, np.int64), np.asarray(subset, np.int64), num_slots(game)
    )
