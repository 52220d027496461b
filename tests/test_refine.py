"""Budgeted builds (`bactree.search.cost.refine`): the greedy rules' guesses and the lower bound over the other guesses."""

from __future__ import annotations

import re

import naive_search
import numpy as np
import pytest
from game_strategies import small_games
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bactree.pipeline.build import build
from bactree.game.codes import partition_counts
from bactree.cli.main import app
from bactree.evaluate import evaluate
from bactree.game import Game
from bactree.search import Solver, greedy_order, others_bound
from bactree.search.cost import search as cost, deep
from bactree.search import TOTAL_GUESSES, CostSearch
from bactree.strategies import Entropy
from bactree.treefile import check_document, dumps


def random_subset(game: Game, data: st.DataObject, least: int, most: int) -> np.ndarray:
    size = len(game.codes)
    picked = data.draw(st.lists(st.integers(0, size - 1), min_size=min(least, size), max_size=min(most, size), unique=True))
    return np.array(sorted(picked), np.int64)


def entropy_best(game: Game, subset: np.ndarray) -> tuple[set[int], set[int]]:
    """(the codes of least sum of c log2 c over `subset`'s parts, those of them still possible), from the counts."""
    solver = Solver(game)
    counts = partition_counts(game, np.arange(len(game.codes)), subset).astype(np.float64)
    scores = (counts * np.log2(np.maximum(counts, 1.0))).sum(axis=1)
    best = {g for g in range(len(game.codes)) if scores[g] <= scores.min() + 1e-9 * max(1.0, scores.min())}
    return best, {g for g in best if counts[g, solver.solved] > 0}


def assert_entropy_pick(game: Game, subset: np.ndarray) -> None:
    """The rule's pick among the candidates (one code per distinct partition) has the strategy's best entropy and is
    still possible if a code of that entropy is: the strategy's own pick (lowest code) unless several partitions tie,
    where the rule takes the candidate of best bound."""
    search = CostSearch(Solver(game), TOTAL_GUESSES, greedy_rule="entropy")
    depth = search.solver.num_codes
    guesses = search.candidates(subset, depth, ())[0]
    pick = greedy_order(search, subset, depth, (), guesses)[0]
    best, possible = entropy_best(game, subset)
    assert pick in (possible or best)
    if len(possible or best) == 1:
        assert pick == Entropy(game).pick(subset)


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_entropy_rule_picks_a_guess_of_the_entropy_strategy_s_score(game: Game, data: st.DataObject) -> None:
    assert_entropy_pick(game, random_subset(game, data, 2, cost.SYMMETRY_MIN_SET - 1))  # below symmetry's sizes


def test_entropy_rule_breaks_a_tie_of_partitions_by_bound() -> None:
    """Four still-possible codes tie on entropy with other partitions; the best bound's (6) is first, not code 3."""
    game = Game(2, "0123", True)
    subset = np.array([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 12], np.int64)
    assert_entropy_pick(game, subset)
    search = CostSearch(Solver(game), TOTAL_GUESSES, greedy_rule="entropy")
    guesses = search.candidates(subset, search.solver.num_codes, ())[0]
    assert greedy_order(search, subset, search.solver.num_codes, (), guesses)[0] == 6
    assert Entropy(game).pick(subset) == 3


@pytest.mark.parametrize("game", [Game(3, "0123456", False), Game(3, "12345", True)], ids=str)
def test_entropy_rule_picks_the_entropy_strategy_s_first_guess(game: Game) -> None:
    """On every code the candidates are the symmetry classes' least codes: the pick is still the strategy's."""
    search = CostSearch(Solver(game), TOTAL_GUESSES, greedy_rule="entropy")
    everything = search.solver.all_guesses
    guesses = search.candidates(everything, search.solver.num_codes, ())[0]
    assert greedy_order(search, everything, search.solver.num_codes, (), guesses)[0] == Entropy(game).pick(everything)


def others_bound_of(
    game: Game, subset: np.ndarray, pick: int | str, lower: int = cost.INFINITE, size_floors: bool = False
) -> tuple[int, str]:
    """`others_bound` on `subset` (fresh memos), all guesses left, keeping candidate number `pick` (or the code
    `pick`), capped at `lower`: (bound, kept code). With `size_floors`, a part's floor is its size's alone, as if no
    answer class raised it."""
    solver = Solver(game)
    depth = solver.num_codes
    search = CostSearch(solver, TOTAL_GUESSES)
    if size_floors:
        by_size = search.class_floor.copy()
        for d in range(by_size.shape[0]):
            by_size[d] = search.floor_at(d)[None, None, : by_size.shape[3]]
        search.class_floor = by_size
        search.context = search._new_context()  # the kernels read the floors from the search's context
    guesses, bases, _ = search.candidates(subset, depth, ())
    kept = game.code_index[pick] if isinstance(pick, str) else int(guesses[pick % len(guesses)])
    return others_bound(search, subset, depth, (), guesses, bases, kept, lower), game.codes[kept]


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_others_bound_equals_the_reference(game: Game, data: st.DataObject) -> None:
    """The kernel's screen plus the large parts' lookahead gives the bound the docstrings define, recomputed from the rules.

    `naive_search.others_lookahead` works on code strings: every code as a
    guess, each part's bound from its answers (not the search's candidates
    or `lookahead_bound`, which are under test). A small `KERNEL_MAX_SET`
    sends parts past it through the Python path. The reference floors a
    part by its size alone, so it is met with the search's floors by size;
    the floors by answer class (tested on their own in test_class_caps.py)
    may only raise the bound (4 of 4 symbols: 57 against 56, the least
    total over the other guesses being 58).
    """
    saved = cost.KERNEL_MAX_SET
    cost.KERNEL_MAX_SET = data.draw(st.sampled_from([3, 5, 30]))
    try:
        subset = random_subset(game, data, 3, cost.SYMMETRY_MIN_SET - 1)
        fast, kept = others_bound_of(game, subset, data.draw(st.integers(0, 10**6)))
        by_size, _ = others_bound_of(game, subset, kept, size_floors=True)
        secrets = frozenset(game.codes[i] for i in subset.tolist())
        expected = naive_search.others_lookahead(game, secrets, len(game.codes), kept, cost.KERNEL_MAX_SET)
        assert by_size == (cost.INFINITE if expected is None else expected)
        assert fast >= by_size
    finally:
        cost.KERNEL_MAX_SET = saved


@settings(max_examples=40, deadline=None)
@given(small_games(max_codes=120), st.data())
def test_others_bound_is_at_most_the_brute_force_optimum(game: Game, data: st.DataObject) -> None:
    """A proven bound: never above the least total, by brute force, of a tree whose first guess is not the kept one's."""
    saved = cost.KERNEL_MAX_SET
    cost.KERNEL_MAX_SET = data.draw(st.sampled_from([3, 30]))
    try:
        subset = random_subset(game, data, 3, 10)
        fast, kept = others_bound_of(game, subset, data.draw(st.integers(0, 10**6)))
        secrets = frozenset(game.codes[i] for i in subset.tolist())
        optimum = naive_search.others_least_total(game, secrets, len(game.codes), kept)
        if optimum is None:  # every useful guess splits like the kept one
            assert fast == cost.INFINITE
        else:
            assert naive_search.fill_floor(game, len(secrets)) <= fast <= optimum
    finally:
        cost.KERNEL_MAX_SET = saved


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([Game(2, "123456", True), Game(2, "1234567", True)]), st.data())
def test_deeper_others_bound_equals_the_reference(game: Game, data: st.DataObject) -> None:
    """With every set deepened, each large part of another guess is bounded two guesses deep, as the reference says.

    On Mastermind 2x6 and 2x7 the deeper bound is above one guess of
    lookahead for about 1 set of 4 of 10 to 23 secrets, so the test sees it
    at work (it fails when the deeper pass is skipped).
    """
    saved = cost.KERNEL_MAX_SET, deep.DEEPER_MIN_SET
    cost.KERNEL_MAX_SET, deep.DEEPER_MIN_SET = data.draw(st.sampled_from([3, 5])), 0
    try:
        subset = random_subset(game, data, 10, cost.SYMMETRY_MIN_SET - 1)  # random sets: no symmetry holds
        cap = 10**6  # deepening needs a bound to reach (with none, as for a first guess, it is skipped)
        fast, kept = others_bound_of(game, subset, data.draw(st.integers(0, 10**6)), cap)
        secrets = frozenset(game.codes[i] for i in subset.tolist())
        expected = naive_search.others_deeper(game, secrets, len(game.codes), kept, cost.KERNEL_MAX_SET)
        assert fast == (cap if expected is None else min(cap, expected))
    finally:
        cost.KERNEL_MAX_SET, deep.DEEPER_MIN_SET = saved


@settings(max_examples=40, deadline=None)
@given(small_games(max_codes=120), st.data())
def test_deeper_bound_is_proven_and_stops_at_need(game: Game, data: st.DataObject) -> None:
    """`deeper_bound` never exceeds the brute-force optimum, stops at `need` (past what the memo held), and reaches at
    least one guess of lookahead or `need`; what it proves is remembered (a memo bound at least as high)."""
    saved = cost.KERNEL_MAX_SET
    cost.KERNEL_MAX_SET = 3
    try:
        subset = random_subset(game, data, 4, 9)
        assume(len(subset) > cost.KERNEL_MAX_SET)  # as called: on parts the kernel does not value
        search = CostSearch(Solver(game), TOTAL_GUESSES)
        depth = search.solver.num_codes
        optimum = naive_search.least_total(game, frozenset(game.codes[i] for i in subset.tolist()))
        need = data.draw(st.integers(1, 2 * optimum))
        ahead = CostSearch(Solver(game), TOTAL_GUESSES).lookahead_bound(subset, depth, ())
        held = search.memo_bound(subset, depth)
        found = deep.deeper_bound(search, subset, depth, (), need)
        assert min(need, ahead) <= found <= optimum
        assert found <= max(need, held)
        assert search.memo_bound(subset, depth) >= found
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


def test_a_budgeted_build_splits_by_a_first_guess_symmetry_does_not_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mastermind: the rule's first guess, its parts refined; the bound covers every other first guess."""
    game = Game(3, "12345", True)
    optimum = build(game, "expected", workers=1).stats["total_guesses"]
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)
    messages: list[str] = []
    doc = build(game, "expected", budget=0, workers=1, greedy="entropy", progress=messages.append).document
    check_document(doc)
    root = doc["root"]["guess"]
    assert root == Entropy(game).next_guess() and "first_guess" not in doc["objective"]
    stats = doc["stats"]
    assert stats["lower_bound"] <= optimum <= stats["total_guesses"]
    # Each class's own bound is reported (the game's bound is the least over first-guess classes).
    pattern = rf"trees that start with {root} cost at least (\d+); any other, at least (\d+)"
    matches = [found for found in (re.fullmatch(pattern, m) for m in messages) if found]
    this, others = (int(figure) for figure in matches[0].groups())
    assert min(this, others) == stats["lower_bound"] and this <= stats["total_guesses"]


@pytest.mark.parametrize("first", ["112", "123"])
def test_a_budgeted_build_with_a_given_first_guess_bounds_its_trees_only(monkeypatch: pytest.MonkeyPatch, first) -> None:
    """`--first CODE --budget`: the given guess's parts refined, the bound of the trees that start with it (at most
    their least, the exact `--first` build's), and the file says so."""
    game = Game(3, "12345", True)
    least = build(game, "expected", workers=1, first_guess=first).stats["total_guesses"]
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)
    messages: list[str] = []
    doc = build(game, "expected", budget=0, workers=1, greedy="entropy", first_guess=first, progress=messages.append).document
    check_document(doc)
    assert doc["root"]["guess"] == first and doc["objective"]["first_guess"] == first
    assert doc["stats"].get("lower_bound", least) <= least <= doc["stats"]["total_guesses"]
    assert not any("any other" in message for message in messages)


def test_first_all_is_refused_without_a_budget(tmp_path) -> None:
    result = CliRunner().invoke(app, ["build", "-O", "expected", "-n", "2", "--first", "all", "-o", str(tmp_path / "t.json")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == ["Error: --first all is for budgeted expected builds: add -O expected --budget SETS"]


def test_deeper_calls_cap_the_parts_bounded_two_guesses_deep(monkeypatch: pytest.MonkeyPatch) -> None:
    """`deeper_calls` reaches the bound of every budgeted part: none, the same tree and bound as with no deeper pass at
    all; more, a higher bound here (on Mastermind 2x7 it meets the tree's total), on one worker or two alike."""
    game = Game(2, "1234567", True)
    optimum = build(game, "expected", workers=1).stats["total_guesses"]
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)  # past the budget on every set worth it
    monkeypatch.setattr(deep, "DEEPER_MIN_SET", 0)  # the deeper pass on sets this small

    def bounded(calls: int | None, workers: int = 1) -> dict:
        doc = build(game, "expected", budget=0, workers=workers, greedy="entropy", deeper_calls=calls).document
        check_document(doc)
        stats = doc["stats"]
        assert stats.get("lower_bound", optimum) <= optimum <= stats["total_guesses"]
        return doc

    none, many = bounded(0), bounded(1000)
    monkeypatch.setattr(deep, "DEEPER_MIN_SET", 10**9)
    assert dumps(bounded(None)) == dumps(none)  # no deeper pass: as with no calls
    monkeypatch.setattr(deep, "DEEPER_MIN_SET", 0)
    assert many["stats"].get("lower_bound", optimum) > none["stats"]["lower_bound"]
    assert dumps(bounded(1000, workers=2)) == dumps(many)


def _build_refused(tmp_path, *arguments: str):
    """`bactree build ARGUMENTS -o tmp/t.json`, which must exit 2 (a usage error)."""
    result = CliRunner().invoke(app, ["build", *arguments, "-o", str(tmp_path / "t.json")])
    assert result.exit_code == 2
    return result


@pytest.mark.parametrize("options", [["-n", "2"], ["-n", "2", "-O", "expected"]])
def test_deeper_calls_are_refused_without_a_budget_in_one_line(tmp_path, options: list[str]) -> None:
    result = _build_refused(tmp_path, *options, "--deeper-calls", "5")
    assert result.output.strip().splitlines() == [
        "Error: --deeper-calls is for budgeted expected builds: add -O expected --budget SETS"]


def test_negative_deeper_calls_are_refused_in_one_line(tmp_path) -> None:
    result = _build_refused(tmp_path, "-n", "2", "-O", "expected", "--budget", "1", "--deeper-calls", "-1")
    assert result.output.strip().splitlines() == ["Error: --deeper-calls must be at least 0, got -1"]


@pytest.mark.parametrize("options", [["-O", "expected"], ["-O", "expected", "--budget", "1", "--first", "12"]])
def test_others_deeper_to_is_refused_where_the_build_picks_no_first_guess(tmp_path, options: list[str]) -> None:
    result = _build_refused(tmp_path, "-n", "2", *options, "--others-deeper-to", "5")
    assert result.output.strip().splitlines() == [
        "Error: --others-deeper-to is for budgeted expected builds that pick their first guess: add -O expected "
        "--budget SETS, without --first"]


def test_a_negative_others_deeper_to_is_refused_in_one_line(tmp_path) -> None:
    result = _build_refused(tmp_path, "-n", "2", "-O", "expected", "--budget", "1", "--others-deeper-to", "-1")
    assert result.output.strip().splitlines() == ["Error: --others-deeper-to must be at least 0, got -1"]
