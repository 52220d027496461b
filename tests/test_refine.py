"""Budgeted builds (`bactree.search.refine`): the greedy rules' guesses and the lower bound over the other guesses."""

from __future__ import annotations

import re

import numpy as np
import pytest
from game_strategies import small_games
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bactree.build import build
from bactree.cli import app
from bactree.evaluate import evaluate
from bactree.game import Game
from bactree.search import Solver, others_bound
from bactree.search import cost
from bactree.search.cost import TOTAL_GUESSES, CostSearch
from bactree.strategies import Entropy
from bactree.treefile import check_document, dumps


def random_subset(game: Game, data: st.DataObject, least: int, most: int) -> np.ndarray:
    size = len(game.codes)
    picked = data.draw(st.lists(st.integers(0, size - 1), min_size=min(least, size), max_size=min(most, size), unique=True))
    return np.array(sorted(picked), np.int64)


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_entropy_rule_picks_the_entropy_strategy_s_guess(game: Game, data: st.DataObject) -> None:
    """Among the candidates (one code per distinct partition) the rule picks what the strategy picks among all codes."""
    search = CostSearch(Solver(game), TOTAL_GUESSES, greedy_rule="entropy")
    subset = random_subset(game, data, 2, cost.SYMMETRY_MIN_SET - 1)  # below the size where symmetry prunes guesses
    depth = search.solver.num_codes
    guesses = search.candidates(subset, depth, ())[0]
    assert search.greedy_order(subset, depth, (), guesses)[0] == Entropy(game).pick(subset)


@pytest.mark.parametrize("game", [Game(3, "0123456", False), Game(3, "12345", True)], ids=str)
def test_entropy_rule_picks_the_entropy_strategy_s_first_guess(game: Game) -> None:
    """On every code the candidates are the symmetry classes' least codes: the pick is still the strategy's."""
    search = CostSearch(Solver(game), TOTAL_GUESSES, greedy_rule="entropy")
    everything = search.solver.all_guesses
    guesses = search.candidates(everything, search.solver.num_codes, ())[0]
    assert search.greedy_order(everything, search.solver.num_codes, (), guesses)[0] == Entropy(game).pick(everything)


def plain_others_bound(search: CostSearch, subset: np.ndarray, depth: int, kept: int) -> int:
    """Reference: the least, over every candidate but `kept`, of its cost plus each part's lookahead bound."""
    guesses, _, _ = search.candidates(subset, depth, ())
    least = cost.INFINITE
    for guess in guesses.tolist():
        if guess != kept:
            parts = search.solver.split(subset, guess)
            bound = search.cost.guess_cost(len(subset), depth) + sum(
                search.lookahead_bound(part, depth - 1, (guess,)) for part in parts
            )
            least = min(least, bound)
    return least


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_others_bound_equals_the_plain_loop(game: Game, data: st.DataObject) -> None:
    """The kernel's screen plus the large parts' lookahead gives the plain loop's bound (fresh memos on both sides)."""
    saved = cost.KERNEL_MAX_SET
    cost.KERNEL_MAX_SET = data.draw(st.sampled_from([3, 5, 30]))  # small: parts past it go through the Python path
    try:
        subset = random_subset(game, data, 3, cost.SYMMETRY_MIN_SET - 1)
        solver = Solver(game)
        depth = solver.num_codes
        search = CostSearch(solver, TOTAL_GUESSES)
        guesses, bases, _ = search.candidates(subset, depth, ())
        kept = int(guesses[data.draw(st.integers(0, len(guesses) - 1))])
        fast = others_bound(search, subset, depth, (), guesses, bases, kept, cost.INFINITE)
        assert fast == plain_others_bound(CostSearch(solver, TOTAL_GUESSES), subset, depth, kept)
    finally:
        cost.KERNEL_MAX_SET = saved


def test_budgeted_entropy_tree_is_no_worse_than_the_entropy_strategy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the budget the entropy guess is kept and small sets are exact: never more guesses than the strategy."""
    game = Game(3, "0123456", False)
    optimum = build(game, "expected", workers=1).stats["total_guesses"]
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)  # else every set of this game is small enough to be exact
    doc = build(game, "expected", budget=0, workers=1, greedy="entropy").document
    check_document(doc)
    stats = doc["stats"]
    assert stats["lower_bound"] <= optimum <= stats["total_guesses"] <= evaluate(Entropy(game)).total_guesses
    again = build(game, "expected", budget=0, workers=2, greedy="entropy").document
    assert dumps(again) == dumps(doc)


def test_unknown_greedy_rule_is_refused_in_one_line(tmp_path) -> None:
    result = CliRunner().invoke(app, ["build", "-O", "expected", "-n", "2", "--greedy", "best", "-o", str(tmp_path / "t.json")])
    assert result.exit_code == 2  # bad input, as for every build option
    assert result.output.strip().splitlines() == ["Error: unknown greedy rule 'best': choose one of bound, entropy"]


@pytest.mark.parametrize("first", [None, "112", "123"])
def test_a_budgeted_build_splits_by_a_first_guess_symmetry_does_not_force(monkeypatch: pytest.MonkeyPatch, first) -> None:
    """Mastermind: the given first guess (or the rule's), its parts refined; the bound covers every other first guess."""
    game = Game(3, "12345", True)
    optimum = build(game, "expected", workers=1).stats["total_guesses"]
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)
    messages: list[str] = []
    doc = build(game, "expected", budget=0, workers=1, greedy="entropy", first_guess=first, progress=messages.append).document
    check_document(doc)
    root = doc["root"]["guess"]
    assert root == (first or Entropy(game).next_guess())
    stats = doc["stats"]
    assert stats["lower_bound"] <= optimum <= stats["total_guesses"]
    # Each class's own bound is reported (the game's bound is the least over first-guess classes).
    pattern = rf"trees that start with {root} cost at least (\d+); any other, at least (\d+)"
    matches = [found for found in (re.fullmatch(pattern, m) for m in messages) if found]
    this, others = (int(figure) for figure in matches[0].groups())
    assert min(this, others) == stats["lower_bound"] and this <= stats["total_guesses"]


def test_first_is_refused_without_a_budget(tmp_path) -> None:
    result = CliRunner().invoke(app, ["build", "-O", "expected", "-n", "2", "--first", "01", "-o", str(tmp_path / "t.json")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == ["Error: --first is for budgeted expected builds: add -O expected --budget SETS"]
