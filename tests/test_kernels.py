"""The numba answer table and partition counts against the plain-Python references."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive
from bactree.game import _answer_kernels as _kernels, codes
from bactree.game import Answer, Game, make_game, word_game
from game_strategies import small_games

BULLS_COWS = Game(4, "0123456789", False)
MASTERMIND = Game(4, "123456", True)


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250))
def test_answer_table_equals_reference(game: Game) -> None:
    table = codes.answer_table(game)
    assert table.shape == (len(game.codes), len(game.codes))
    assert np.array_equal(table, naive.answer_table(game))


@settings(max_examples=40, deadline=None)
@given(small_games(max_codes=250))
def test_answer_table_by_counts_equals_reference(game: Game) -> None:
    """The per-pair kernel that games with too many multisets of symbols for the shared-symbol table take."""
    rows = codes.code_array(game)
    assert np.array_equal(_kernels._answer_table_by_counts(rows, rows, game.num_symbols), naive.answer_table(game))


@pytest.mark.parametrize("game", [Game(9, "01", True), Game(3, "0123456", False), Game(4, "123", True)], ids=str)
def test_answer_table_takes_the_per_pair_kernel_past_its_cap(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nine positions fill two words of the packed codes; past COMMON_TABLE_MAX the counting kernel is used, alike (and
    for some secrets' columns, `answer_columns`)."""
    fast = codes.answer_table(game)
    order = codes.secrets_first(game, np.arange(0, game.num_codes, 3))
    count = len(range(0, game.num_codes, 3))
    columns = codes.answer_columns(game, codes.code_array(game)[order], count)
    monkeypatch.setattr(codes, "COMMON_TABLE_MAX", 0)
    codes.answer_table.cache_clear()
    try:
        counted = codes.answer_table(game)
    finally:
        codes.answer_table.cache_clear()
    assert np.array_equal(fast, naive.answer_table(game)) and np.array_equal(counted, fast)
    counted_columns = codes.answer_columns(game, codes.code_array(game)[order], count)
    for found in (columns, counted_columns):  # some secrets' columns, both ways, alike (the secrets numbered first)
        assert np.array_equal(found[0], fast[np.ix_(order, order[:count])]) and np.array_equal(found[1], found[0].T)


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_answer_columns_equal_the_reference_tables_columns(game: Game, data: st.DataObject) -> None:
    """Some secrets' columns of the table, both ways, in the order `secrets_first` numbers the codes (they first)."""
    secrets = np.array(sorted(data.draw(st.sets(st.integers(0, game.num_codes - 1), min_size=1))), np.int64)
    order = codes.secrets_first(game, secrets)
    assert sorted(order.tolist()) == list(range(game.num_codes)) and np.array_equal(order[: len(secrets)], secrets)
    table, by_secret = codes.answer_columns(game, codes.code_array(game)[order], len(secrets))
    reference = naive.answer_table(game)[np.ix_(order, secrets)]
    assert np.array_equal(table, reference) and np.array_equal(by_secret, reference.T)
    assert table.flags.c_contiguous and by_secret.flags.c_contiguous and not table.flags.writeable


def test_answer_row_is_a_row_of_the_table() -> None:
    for game in (BULLS_COWS, MASTERMIND):
        table = codes.answer_table(game)
        assert all(np.array_equal(codes.answer_row(game, g), table[g]) for g in (0, 77, game.num_codes - 1))


@pytest.mark.parametrize("game", [word_game(("care", "race", "tons")), make_game("bulls-cows", 3, rule="wordle")])
def test_tables_of_some_secrets_refuse_the_games_they_do_not_fit(game: Game) -> None:
    """Lists, and rules whose answers do not follow from the bulls and cows both ways, get no row or columns apart
    from the whole table: the kernels would score them as codes of bulls and cows."""
    assert not codes.columns_apply(game)
    with pytest.raises(ValueError, match="no answer"):
        codes.answer_row(game, 0)
    with pytest.raises(ValueError, match="no answer"):
        codes.answer_columns(game, codes.code_array(game), 1)


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_partition_counts_equal_reference(game: Game, data: st.DataObject) -> None:
    size = len(game.codes)
    index = st.integers(0, size - 1)
    guesses = data.draw(st.lists(index, min_size=1, max_size=8))
    subset = data.draw(st.lists(index, max_size=size, unique=True))
    counts = codes.partition_counts(game, np.array(guesses), np.array(subset, dtype=np.int64))
    assert counts.shape == (len(guesses), codes.num_slots(game))
    assert np.array_equal(counts, naive.partition_counts(game, guesses, subset))
    assert (counts.sum(axis=1) == len(subset)).all()


@pytest.mark.parametrize("game", [BULLS_COWS, MASTERMIND], ids=["bulls-cows-4x10", "mastermind-4x6"])
def test_preset_tables_on_random_pairs(game: Game) -> None:
    """Spot check of the full-size tables, including the bare `_answer` kernel."""
    table = codes.answer_table(game)
    code_rows = codes.code_array(game)
    rnd = random.Random(20240601)
    size = len(game.codes)
    for _ in range(3000):
        gi, si = rnd.randrange(size), rnd.randrange(size)
        expected = naive.encode(game.length, *naive.score(game.codes[gi], game.codes[si], game.repeats))
        assert table[gi, si] == expected
        assert _kernels._answer(code_rows[gi], code_rows[si], game.num_symbols) == expected
    assert (np.diagonal(table) == codes.solved_slot(game)).all()


def test_preset_partition_of_first_guess() -> None:
    """The classic first split of Bulls and Cows: 0123 against all 5040 secrets."""
    game = BULLS_COWS
    guess = game.code_index["0123"]
    counts = codes.partition_counts(game, np.array([guess]), np.arange(len(game.codes)))[0]
    expected = naive.partition_counts(game, [guess], list(range(len(game.codes))))[0]
    assert np.array_equal(counts, expected)
    assert counts[codes.encode_answer(game, Answer(0, 0))] == 360  # 4 of the other 6 symbols: 6*5*4*3
    assert counts[codes.solved_slot(game)] == 1


def test_answer_table_is_read_only_and_cached() -> None:
    game = Game(2, "abc", False)
    table = codes.answer_table(game)
    assert codes.answer_table(game) is table
    with pytest.raises(ValueError):
        table[0, 0] = 0


@settings(max_examples=50, deadline=None)
@given(small_games(max_codes=250))
def test_code_array_matches_codes(game: Game) -> None:
    rows = codes.code_array(game)
    assert ["".join(game.symbols[i] for i in row) for row in rows] == list(game.codes)


@pytest.mark.parametrize("game", [Game(3, "01234", False), Game(3, "012", True)])
def test_answer_encoding_round_trips(game: Game) -> None:
    for answer in game.answers:
        slot = codes.encode_answer(game, answer)
        assert 0 <= slot < codes.num_slots(game)
        assert codes.decode_answer(game, slot) == answer
    assert codes.decode_answer(game, codes.solved_slot(game)) == game.solved
