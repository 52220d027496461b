"""The exact search's screen two guesses deep (`deep.guess_bound` in `CostSearch._finish_guess`) against brute force.

The screen runs on sets of `DEEP_SCREEN_MIN_SET` secrets or more, which no
tiny game has; here it runs on every set (and its second guess on every
part past a kernel of 2 or 3 secrets), so the brute force of
tests/naive_search.py can check each value it lets through.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from game_strategies import word_games
from naive_search import least_total, min_chain_tree

from bactree.pipeline.build import build
from bactree.compile_clock import Deadline
from bactree.game import Game
from bactree.search import TOTAL_GUESSES, CostSearch, Solver
from bactree.search.cost import deep
from bactree.search.cost import search as search_cost
from bactree.treefile import dumps

GAMES = [Game(2, "123456", True), Game(2, "1234567", True), Game(3, "01234", False), Game(3, "012345", False),
         Game(3, "1234", True)]


@contextlib.contextmanager
def screening(kernel_max: int = 3) -> Iterator[list[bool]]:
    """Screen every set, deepen every part past a kernel of `kernel_max`; yields the screen's verdicts (True: ruled
    out)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield from _screening(monkeypatch, kernel_max)


def _screening(monkeypatch: pytest.MonkeyPatch, kernel_max: int) -> Iterator[list[bool]]:
    monkeypatch.setattr(search_cost, "DEEP_SCREEN_MIN_SET", 0)
    monkeypatch.setattr(search_cost, "LIST_DEEP_SCREEN_MIN_SET", 0)
    monkeypatch.setattr(search_cost, "KERNEL_MAX_SET", kernel_max)
    monkeypatch.setattr(deep, "DEEPER_MIN_SET", 0)
    verdicts: list[bool] = []
    real = deep.guess_bound

    def counted(search, subset, depth, history, guess, base, limit):
        bound = real(search, subset, depth, history, guess, base, limit)
        verdicts.append(bound >= limit)
        return bound

    monkeypatch.setattr(deep, "guess_bound", counted)
    yield verdicts


@pytest.fixture
def screen_everywhere() -> Iterator[list[bool]]:
    with screening() as verdicts:
        yield verdicts


@settings(max_examples=80, deadline=None)
@given(game=st.sampled_from(GAMES), picks=st.lists(st.integers(0, 10**6), min_size=2, max_size=40), data=st.data())
def test_values_with_the_screen_are_the_brute_force_ones(game, picks, data) -> None:
    """The least total of a random set, with no bound and with one just above it; below a bound under it a proven
    bound: at least the bound, at most the least total (fail-soft, as `solve` promises)."""
    with screening(data.draw(st.sampled_from([3, 5, 8]))):
        check_values(game, picks, data)


@settings(max_examples=40, deadline=None)
@given(game=word_games(max_secrets=14), data=st.data())
def test_word_lists_values_with_the_screen_are_the_brute_force_ones(game: Game, data: st.DataObject) -> None:
    """As above on random word lists (`LIST_DEEP_SCREEN_MIN_SET`, the screen's own size there, at 0 too)."""
    with screening(data.draw(st.sampled_from([2, 3, 5]))) as verdicts:
        solver = Solver(game)
        optimum = least_total(game, frozenset(solver.names[i] for i in solver.secrets.tolist()))
        depth = solver.num_secrets
        assert CostSearch(solver, TOTAL_GUESSES).solve(solver.secrets, depth, kernel=False) == optimum
        assert CostSearch(solver, TOTAL_GUESSES).solve(solver.secrets, depth, optimum + 1, kernel=False) == optimum
        bound = data.draw(st.integers(1, optimum))
        assert bound <= CostSearch(solver, TOTAL_GUESSES).solve(solver.secrets, depth, bound, kernel=False) <= optimum
        assert verdicts  # the screen ran


def check_values(game: Game, picks: list[int], data: st.DataObject) -> None:
    solver = Solver(game)
    subset = np.unique(np.array([p % len(game.codes) for p in picks], np.int64))
    secrets = frozenset(game.codes[i] for i in subset.tolist())
    optimum = least_total(game, secrets)
    depth = solver.num_codes
    assert CostSearch(solver, TOTAL_GUESSES).solve(subset, depth, kernel=False) == optimum
    # With a bound just above the optimum every guess is screened, the best one too, which must get through.
    assert CostSearch(solver, TOTAL_GUESSES).solve(subset, depth, optimum + 1, kernel=False) == optimum
    bound = data.draw(st.integers(1, optimum))
    below = CostSearch(solver, TOTAL_GUESSES).solve(subset, depth, bound, kernel=False)
    assert bound <= below <= optimum


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", ["", "hard", "capped"])
def test_the_screen_changes_no_tree(monkeypatch: pytest.MonkeyPatch, game: Game, mode: str) -> None:
    """Whole expected builds (hard mode; capped at the least height) are the same bytes with the screen on every set
    as with it off."""
    options = {"hard": mode == "hard", "max_guesses": Solver(game).min_height() if mode == "capped" else None}
    monkeypatch.setattr(search_cost, "KERNEL_MAX_SET", 3)
    monkeypatch.setattr(deep, "DEEPER_MIN_SET", 0)
    monkeypatch.setattr(search_cost, "DEEP_SCREEN_MIN_SET", 10**9)
    without = dumps(build(game, "expected", workers=1, **options).document)
    monkeypatch.setattr(search_cost, "DEEP_SCREEN_MIN_SET", 0)
    assert dumps(build(game, "expected", workers=1, **options).document) == without


@pytest.mark.parametrize("keys", [("total",), ("crush", "total"), ("nodes", "total")])
def test_tie_breaks_counting_total_guesses_keep_the_brute_force_optimum(screen_everywhere, keys) -> None:
    """Worst-case trees whose tie-break counts total guesses (the screen runs for those) have the brute force's keys."""
    game = Game(3, "01234", False)
    doc = build(game, "worst-case", tie_break=",".join(keys), workers=1).document
    expected, _ = min_chain_tree(game, doc["stats"]["max_guesses"], keys)
    stats = doc["stats"]
    crush = stats["histogram"].get(str(stats["max_guesses"]), 0)  # secrets solved at the least height
    figures = {"total": stats["total_guesses"], "nodes": stats["nodes"], "crush": crush}
    assert tuple(figures[k] for k in keys) == expected


def test_the_screen_rules_guesses_out_on_these_games(screen_everywhere) -> None:
    """The tests above see the screen at work: on Mastermind 2x7 it rules out guesses and lets others through."""
    build(Game(2, "1234567", True), "expected", workers=1)
    assert any(screen_everywhere) and not all(screen_everywhere)


def test_the_bounds_stop_at_the_searchs_deadline() -> None:
    """The coach's searches have a deadline: past it the two-deep bounds stop as `solve` does (`BudgetExceeded`)."""
    game = Game(3, "012345", False)
    search = CostSearch(Solver(game), TOTAL_GUESSES)
    everything = search.solver.all_guesses
    guesses, bases, _ = search.candidates(everything, search.solver.num_codes, ())
    search.deadline = Deadline(-1.0)  # passed as soon as it is set
    with pytest.raises(search_cost.BudgetExceeded):
        deep.others_bound(search, everything, search.solver.num_codes, (), guesses, bases, -1, search_cost.INFINITE)
    search.deadline = None
    assert deep.others_bound(search, everything, search.solver.num_codes, (), guesses, bases, -1,
                             search_cost.INFINITE) > 0
