"""A guess's parts searched with its slack spread over them (`CostSearch._spread_over_parts`) against the brute force.

The exact search values a guess below a bound, or proves it reaches the
bound, by searching its parts: in rounds, each part below its share of the
slack (the default), or largest first, each below all the slack left (the
budgeted builds'). Either way the contract is the same: the guess's value
when below the bound, else a proven bound at least the bound and at most
the value. Checked on every guess of random small word lists and games of
codes, at random bounds, with the kernel's sets at their least so that the
Python levels search every set of more than two secrets.
"""

from __future__ import annotations

import pytest
from game_strategies import small_games, word_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive_search import guess_total, least_total

from bactree.game import Game
from bactree.search import TOTAL_GUESSES, CostSearch, Solver
from bactree.search.cost import search as cost


@pytest.fixture
def python_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sets of three secrets and more searched by the Python levels (the kernel values sets of at most two)."""
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)


def check_every_guess(game: Game, hard: bool, data: st.DataObject) -> None:
    solver = Solver(game, hard=hard)
    secrets = frozenset(solver.names[i] for i in solver.secrets.tolist())
    depth = solver.num_secrets
    optimum = least_total(game, secrets, hard)
    guesses = sorted(secrets) if hard else [solver.names[g] for g in solver.all_guesses.tolist()]
    for spread in (True, False):
        search = CostSearch(solver, TOTAL_GUESSES)
        search.spread_slack = spread
        assert search.solve(solver.secrets, depth, kernel=False) == optimum
        for word in guesses:
            value = guess_total(game, secrets, word, hard)
            bound = data.draw(st.integers(len(secrets), value + 3), label=f"bound of {word}")
            fresh = CostSearch(solver, TOTAL_GUESSES)  # no memo from the other guesses
            fresh.spread_slack = spread
            found = fresh.guess_value(solver.secrets, depth, solver.game.code_index[solver.game.parse_code(word)], bound, ())
            if value < bound:
                assert found == value, (word, bound, spread)
            else:
                assert bound <= found <= value, (word, bound, spread)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=word_games(max_secrets=16), hard=st.booleans(), data=st.data())
def test_word_lists_every_guess_valued_or_bounded(game: Game, hard: bool, data: st.DataObject, python_levels: None) -> None:
    check_every_guess(game, hard, data)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=small_games(max_codes=24), hard=st.booleans(), data=st.data())
def test_games_of_codes_every_guess_valued_or_bounded(game: Game, hard: bool, data: st.DataObject, python_levels: None) -> None:
    check_every_guess(game, hard, data)


def test_the_budgeted_search_keeps_largest_first(python_levels: None) -> None:
    """`refine` turns the spread off (its trees depend on the sets a budget reaches), the exact search keeps it on."""
    from bactree.search.cost.refine import refine

    game = Game(3, "01234", False)
    search = CostSearch(Solver(game), TOTAL_GUESSES)
    assert search.spread_slack
    refine(search, search.solver.secrets, search.solver.num_secrets, (), 10)
    assert not search.spread_slack
