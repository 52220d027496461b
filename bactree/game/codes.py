"""Codes as numpy arrays and the answer table: the bridge from `Game` to the kernels."""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from . import _answer_kernels as _kernels
from . import BUILD_LIMIT, AnyAnswer, Game, GameTooLargeError


def code_array(game: Game) -> np.ndarray:
    """Every code as a row of symbol indices (uint8), in the order of `game.codes` (a game of lists: its guesses).

    `GameTooLargeError` for games past `BUILD_LIMIT`, whose answer table would not fit.
    """
    game.check_size(BUILD_LIMIT)
    k, n = game.num_symbols, game.length
    if game.has_lists:
        index = {symbol: i for i, symbol in enumerate(game.symbols)}
        rows = ([index[symbol] for symbol in code] for code in game.codes)
    elif game.repeats:
        rows = itertools.product(range(k), repeat=n)
    else:
        rows = itertools.permutations(range(k), n)
    return np.array(list(rows), dtype=np.uint8).reshape(-1, n)


# Answers are stored one byte each in the table.
MOST_SLOTS = 256


def num_slots(game: Game) -> int:
    """Size of the encoded answer range, the rule's (`(length + 1) ** 2` for bulls and cows)."""
    return game.rule.num_slots(game.length)


def encode_answer(game: Game, answer: AnyAnswer) -> int:
    """The answer's slot (`bulls * (length + 1) + cows` for bulls and cows): ascending slots, ascending keys."""
    return game.rule.slot(answer, game.length)


def decode_answer(game: Game, slot: int) -> AnyAnswer:
    return game.rule.from_slot(int(slot), game.length)


def solved_slot(game: Game) -> int:
    """The slot of the answer that ends the game, which only a guess's own secret gives (the rule's `solved`)."""
    return encode_answer(game, game.solved)


def check_slots(game: Game) -> None:
    """`GameTooLargeError` if the game's answers do not fit the table's byte (6-letter Wordle's 729)."""
    if num_slots(game) > MOST_SLOTS:
        raise GameTooLargeError(
            f"game too large for a build or an evaluation: {game.rule.name} on {game.length} positions has "
            f"{num_slots(game)} answers, more than the table's {MOST_SLOTS}"
        )


# Most entries (multisets squared times symbols) of the shared-symbol table `answer_table` builds
# in numpy; games past it (many symbols, few positions) count each pair's symbols in the kernel.
COMMON_TABLE_MAX = 1 << 24


@lru_cache(maxsize=4)
def answer_table(game: Game) -> np.ndarray:
    """Encoded answers (the rule's slots) for every guess (rows) and secret (columns), uint8.

    Cached per game; 25 MB for 4 of 10. The array is read-only. A rule
    whose answer follows from the bulls and cows is mapped from their
    table (`_bulls_cows_table`); Wordle's marks have a kernel of their own,
    which scores the secrets' columns only (`secret_indices`) and leaves
    the other guesses' columns 0: a code that is not a possible secret is
    never one, so no search reads them, and the original Wordle lists'
    table (12,972 guesses, 2,315 secrets) takes a sixth of the time.
    """
    check_slots(game)
    codes = code_array(game)
    if game.rule.slot_of_bulls_cows(0, 0, game.length) is None:
        table = _kernels._marks_table(codes, game.num_symbols, secret_indices(game))
    else:
        table = _rule_slots(game, _bulls_cows_table(game, codes))
    table.flags.writeable = False
    return table


def _rule_slots(game: Game, table: np.ndarray) -> np.ndarray:
    """A table of bulls-and-cows slots mapped to the rule's slots (the table itself where they are the same)."""
    rule, n = game.rule, game.length
    bulls, cows = np.divmod(np.arange(MOST_SLOTS), n + 1)
    mapped = np.array(
        [rule.slot_of_bulls_cows(int(b), int(c), n) if b + c <= n else 0 for b, c in zip(bulls, cows)], np.uint8
    )
    valid = bulls + cows <= n
    if np.array_equal(mapped[valid], np.arange(MOST_SLOTS)[valid]):  # the slots of bulls and cows as they are
        return table
    return mapped[table]


def _shared_symbols(game: Game, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(each code's symbols packed eight to a word, its multiset's number, symbols shared per pair of multisets) for
    `_answer_table` and `_answer_columns`; None past `COMMON_TABLE_MAX` (then each pair is counted afresh)."""
    k, n = game.num_symbols, game.length
    multisets, multiset = np.unique(np.sort(codes, axis=1), axis=0, return_inverse=True)
    if len(multisets) ** 2 * k > COMMON_TABLE_MAX:
        return None
    counts = np.zeros((len(multisets), k), np.uint8)
    np.add.at(counts, (np.arange(len(multisets))[:, None], multisets), 1)
    common = np.minimum(counts[:, None, :], counts[None, :, :]).sum(axis=2, dtype=np.uint8)
    packed = np.zeros((len(codes), (n + 7) // 8), np.uint64)
    for i in range(n):
        packed[:, i // 8] |= codes[:, i].astype(np.uint64) << np.uint64(8 * (i % 8))
    return packed, multiset.reshape(-1), common


def _bulls_cows_table(game: Game, codes: np.ndarray) -> np.ndarray:
    """The bulls-and-cows slots of every code (rows: guesses) to every code (columns: secrets), uint8.

    Bulls plus cows depends only on the two codes' multisets of symbols, so
    it is tabulated once per pair of multisets (126 of them for Mastermind
    4x6, 210 for Bulls and Cows 4x10) and the kernel adds the bulls.
    """
    prepared = _shared_symbols(game, codes)
    if prepared is None:
        return _kernels._answer_table_by_counts(codes, codes, game.num_symbols)
    packed, multiset, common = prepared
    return _kernels._answer_table(packed, game.length, multiset, common)


def answer_row(game: Game, guess: int) -> np.ndarray:
    """The answers (the rule's slots) every code gives `guess` (an index of `game.codes`): one row of `answer_table`,
    made without it, for a game of codes whose answers follow from the bulls and cows (`columns_apply`)."""
    if not columns_apply(game):
        raise ValueError(f"no answer row made apart from the table for {game.rule.name} on {game}")
    codes = code_array(game)
    return _rule_slots(game, _kernels._answer_table_by_counts(codes[guess : guess + 1], codes, game.num_symbols)[0])


def secrets_first(game: Game, secrets: np.ndarray) -> np.ndarray:
    """Every index of `game.codes`, those of `secrets` (ascending) first, then the others in order: the numbering of
    a search of those secrets alone (`answer_columns`)."""
    rest = np.ones(game.num_codes, np.bool_)
    rest[secrets] = False
    return np.concatenate([np.asarray(secrets, np.int64), np.flatnonzero(rest)])


def columns_apply(game: Game) -> bool:
    """Whether `answer_columns` (and `answer_row`) take `game`: codes, not lists, under a rule whose answers follow
    from the bulls and cows and read alike both ways (every preset's)."""
    rule = game.rule
    return rule.mutual and rule.slot_of_bulls_cows(0, 0, game.length) is not None and not game.has_lists


def answer_columns(game: Game, codes: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(table, by_secret): the answers of every code of `codes` (rows: guesses) to its first `count` (columns: the
    secrets at hand), and the same answers a secret's row to every guess. Read-only, uint8.

    `codes`: every code of the game in some order (`code_array` rows), the
    secrets at hand first. What a search of those secrets reads of the
    whole game's table, in count / codes of its memory and time (on 5 of
    10 after one guess, 7,800 secrets of 30,240: a quarter each, twice).
    For rules whose answers follow from the bulls and cows and read alike
    both ways (`Rule.mutual`), as every game of codes has.
    """
    if not columns_apply(game):
        raise ValueError(f"no answer table of some secrets for {game.rule.name} on {game}")
    check_slots(game)
    prepared = _shared_symbols(game, codes)
    if prepared is None:
        by_secret = _kernels._answer_table_by_counts(codes[:count], codes, game.num_symbols)
        table = np.ascontiguousarray(by_secret.T)
    else:
        packed, multiset, common = prepared
        table, by_secret = _kernels._answer_columns(packed, game.length, multiset, common, count)
    table, by_secret = _rule_slots(game, table), _rule_slots(game, by_secret)
    table.flags.writeable = False
    by_secret.flags.writeable = False
    return table, by_secret


# `grouped_answers` regroups the table for games with at least this many codes per multiset of symbols (Bulls and
# Cows: 24 of 4 positions, 120 of 5): below it (Mastermind 4x7, 11) `_most_answers`'s scan in the table's own order
# costs less (`scripts/bench_most_answers.py`); the groups' other arrays are kept for `_least_base` all the same.
GROUPED_MIN_CODES = 20
_grouped: dict[tuple[Game, bool], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
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
    return multisets_in(code_array(game))


def multisets_in(codes: np.ndarray) -> np.ndarray:
    """Each of `codes`' multiset of symbols, numbered in the multisets' order (whatever the codes' order)."""
    _, group = np.unique(np.sort(codes, axis=1), axis=0, return_inverse=True)
    return group.reshape(-1)


def grouped_answers(
    game: Game, table: np.ndarray, regroup_table: bool = True, codes: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`regroup_answers`, its regrouped table only for games with at least `GROUPED_MIN_CODES` codes per multiset,
    and only if `regroup_table` (the bounds come out the same without it, more slowly); `UNGROUPED` for a rule whose
    answers neither follow from the bulls and the symbols shared nor tell the shared apart (`Rule.bulls_and_shared`,
    `Rule.tells_shared`), where the groups' bounds do not hold.

    Kept per game (for the last game asked): a second table as large as
    the first, built once in the build's process so that forked workers
    share it. With `codes` (the game's codes in the order of `table`'s
    rows, some secrets' answers to every guess: `answer_columns`'s
    `by_secret`) they are made afresh in that order, and kept by the caller.
    """
    if not (game.rule.bulls_and_shared and game.rule.tells_shared):
        return UNGROUPED
    many = regroup_table and game.num_codes >= GROUPED_MIN_CODES * (int(multiset_of(game).max()) + 1)
    if codes is not None:
        return regroup_answers(game, table, many, codes)
    if (game, many) not in _grouped:
        _grouped.clear()
        _grouped[game, many] = regroup_answers(game, table, regroup_table=many)
    return _grouped[game, many]


def regroup_answers(
    game: Game, table: np.ndarray, regroup_table: bool = True, codes: np.ndarray | None = None
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
    Without `regroup_table`, `by_group` is empty (no second table). The
    shared symbols are counted from the codes, not read from the answers,
    so they hold under any rule. `codes`: the game's codes in the order of
    `table`'s rows (`Solver`'s own order, the secrets at hand first), if
    not `code_array`'s.
    """
    n = game.length
    if codes is None:
        codes, group = code_array(game), multiset_of(game)
    else:
        group = multisets_in(codes)
    members = np.argsort(group, kind="stable")
    starts = np.searchsorted(group[members], np.arange(int(group.max()) + 2)).astype(np.int64)
    pairs = _kernels._answer_table_by_counts(codes, codes[members[starts[:-1]]], game.num_symbols)  # bulls and cows
    bulls, cows = np.divmod(np.arange((n + 1) ** 2), n + 1)
    shared = (bulls + cows).astype(np.uint8)[pairs]
    most_bulls = np.array([v + 1 for v in range(n)] + [n - 1], np.int64)
    by_group = _kernels._columns_in_order(table, members) if regroup_table else np.zeros((0, 0), np.uint8)
    return by_group, shared, starts, most_bulls, members.astype(np.int64)


@lru_cache(maxsize=4)
def secret_indices(game: Game) -> np.ndarray:
    """The indices in `game.codes` of the possible secrets, ascending: every code, or a word game's secrets among its
    allowed guesses. Read-only."""
    if game.guesses is None:
        found = np.arange(game.num_codes, dtype=np.int64)
    else:
        secrets = set(game.secret_codes)
        found = np.array([i for i, code in enumerate(game.codes) if code in secrets], np.int64)
    found.flags.writeable = False
    return found


def partition_counts(game: Game, guesses: np.ndarray, subset: np.ndarray) -> np.ndarray:
    """Part sizes of `subset` (code indices) under each of `guesses`, one row per guess."""
    table = answer_table(game)
    if not game.rule.mutual:  # the kernel reads a secret's row of answers to every guess
        table = np.ascontiguousarray(table.T)
    return _kernels._partition_counts(
        table, np.asarray(guesses, np.int64), np.asarray(subset, np.int64), num_slots(game)
    )
