"""The coach on tables of a position's secrets (`Engine(subtables=True)`, as on 5 of 10 and Mastermind 5x8) against
the whole game's table, on random positions of small games: the same exact values, guess for guess."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bactree.coach import read_history
from bactree.coach.analysis import analyse_position
from bactree.coach.engine import EXPECTED, WORST_CASE, Engine
from bactree.game import Game, preset, word_game
from bactree.search import Solver

GAMES = [Game(3, "0123456789", False), preset("mastermind"), Game(4, "012345", False), Game(3, "12345", True)]
PLENTY = 600.0  # seconds: these games are always solved exactly


def random_history(game: Game, rng: random.Random) -> list[str]:
    """One or two guesses at random, answered by a random secret (none of them the secret)."""
    secret = rng.choice(game.codes)
    guesses = [g for g in rng.sample(game.codes, rng.randint(1, 2)) if g != secret]
    return [f"{g}={game.score(g, secret)}" for g in guesses] or [f"{game.codes[0]}={game.score(game.codes[0], game.codes[-1])}"]


@pytest.mark.parametrize("hard", [False, True], ids=["free", "hard"])
@pytest.mark.parametrize("game", GAMES, ids=str)
def test_tables_of_a_positions_secrets_give_the_whole_tables_values(game: Game, hard: bool) -> None:
    """Best values, the best value and a named guess's value alike; every guess listed valued as the whole table values
    it (at a tie for the last place the two may list different guesses of that value: the visiting order differs)."""
    rng = random.Random(f"{game}{hard}")
    whole, sub = Engine(game, EXPECTED, hard), Engine(game, EXPECTED, hard, subtables=True)
    assert not whole.subtables and sub.subtables
    for _ in range(8):
        position = read_history(game, random_history(game, rng))
        named = rng.choice(position.secrets if hard else game.codes)
        expected = analyse_position(position, 4, named, EXPECTED, hard, PLENTY, whole)
        found = analyse_position(position, 4, named, EXPECTED, hard, PLENTY, sub)
        assert found.complete and expected.complete
        assert sub.solver.num_secrets <= len(position.secrets) and sub.solver.table.shape[1] == sub.solver.num_secrets
        assert [v.value for v in found.best] == [v.value for v in expected.best], position.pairs
        assert (found.optimum.value, found.guess.value) == (expected.optimum.value, expected.guess.value)
        assert found.best[0] == expected.best[0]  # the lowest best guess: ties at the top go the same way
        for value in found.best:
            again = analyse_position(position, 1, value.guess, EXPECTED, hard, PLENTY, whole)
            assert again.guess.value == value.value and value.possible == (value.guess in position.secrets)


def test_a_review_carries_the_table_and_memos_while_the_secrets_fit() -> None:
    """A later position within the last one's secrets is searched on the same table, with the same values as a fresh
    engine's (guesses tied for the last place may differ: the two tables number the codes apart); one outside them
    gets a table of its own."""
    game = Game(4, "012345", False)
    engine = Engine(game, EXPECTED, subtables=True)
    history = ["0123=0B2C", "1045=1B1C"]
    first = analyse_position(read_history(game, history[:1]), 3, None, EXPECTED, False, PLENTY, engine)
    solver = engine.solver
    later = analyse_position(read_history(game, history), 3, None, EXPECTED, False, PLENTY, engine)
    assert engine.solver is solver and solver.num_secrets == len(first.secrets) > len(later.secrets)
    fresh = analyse_position(read_history(game, history), 3, None, EXPECTED, False, PLENTY,
                             Engine(game, EXPECTED, subtables=True))
    assert [(v.lower, v.upper) for v in later.best] == [(v.lower, v.upper) for v in fresh.best]
    assert later.best[0] == fresh.best[0]
    analyse_position(read_history(game, ["0123=1B1C"]), 3, None, EXPECTED, False, PLENTY, engine)
    assert engine.solver is not solver


def test_the_start_is_searched_on_the_whole_table() -> None:
    game = Game(3, "012345", False)
    engine = Engine(game, EXPECTED, subtables=True)
    analyse_position(read_history(game, []), 2, None, EXPECTED, False, PLENTY, engine)
    assert engine.solver.order is None and engine.solver.table.shape == (game.num_codes, game.num_codes)


def test_only_expected_length_over_codes_takes_tables_of_some_secrets() -> None:
    """The worst case's bounds by answer class count over the whole game; word lists have no such tables."""
    with pytest.raises(ValueError, match="no tables of some secrets"):
        Engine(Game(3, "012345", False), WORST_CASE, subtables=True)
    with pytest.raises(ValueError, match="no tables of some secrets"):
        Engine(word_game(["abc", "bcd", "cda", "dab"]), EXPECTED, subtables=True)


def test_a_large_game_builds_no_whole_table() -> None:
    """5 of 10 after one guess: a table of the 7,800 secrets left (every code a guess), not of the 30,240; with no time
    to search, proven bounds come out, marked so."""
    game = Game(5, "0123456789", False)
    engine = Engine(game, EXPECTED)
    assert engine.subtables
    result = analyse_position(read_history(game, ["01234=0B2C"]), 2, None, EXPECTED, False, 0.0, engine)
    assert engine.solver.table.shape == (game.num_codes, 7800) and engine.solver.by_secret.shape == (7800, game.num_codes)
    assert not result.complete and not all(v.exact for v in result.best)
    assert np.array_equal(np.sort(engine.solver.order[:7800]), engine.solver.order[:7800])


def test_a_solver_of_some_secrets_uses_no_symmetry_without_the_history_that_leaves_them() -> None:
    """The symmetries of a history keep the secrets it leaves; with no history, those of the whole game need not."""
    game = Game(3, "012345", False)
    whole = Solver(game)
    secrets = whole.split(whole.secrets, game.code_index["012"])[0]  # what 012 leaves with its first answer
    some = Solver(game, secrets=secrets)
    assert np.array_equal(some.order[: len(secrets)], secrets) and [some.names[i] for i in range(3)] == [
        game.codes[i] for i in secrets[:3]]
    history = (int(np.flatnonzero(some.order == game.code_index["012"])[0]),)
    assert some.history_determines(some.secrets, history) and not some.history_determines(some.secrets, ())
    assert whole.history_determines(whole.secrets, ())
