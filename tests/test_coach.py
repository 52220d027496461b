"""`bactree.coach.analysis` against brute force on tiny games, and the shipped trees' values against the search."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive_search import guess_height, guess_total, least_height, least_total

from bactree.coach import InvalidHistoryError, analyse, read_history
from bactree.coach.analysis import analyse_position
from bactree.coach.engine import EXPECTED, Engine
from bactree.coach.tree_values import TreeValues
from bactree.coach.review import review
from bactree.coach.symmetry import carrying, least_image
from bactree.game import Game, preset

TINY = [Game(3, "01234", False), Game(3, "123", True)]
PLENTY = 600.0  # seconds: tiny games are always solved exactly


def naive_value(game, secrets, guess, objective, hard):
    if objective == "expected":
        return guess_total(game, secrets, guess, hard)
    return guess_height(game, secrets, guess, hard)


def naive_best(game, secrets, objective, hard):
    if objective == "expected":
        return least_total(game, secrets, hard)
    return least_height(game, secrets, hard)


def check(game, history, objective, hard, named=None, top=4, unlisted=False):
    """analyse's values against brute force; with `unlisted`, also that no guess left out beats the last listed."""
    result = analyse(game, history, top=top, guess=named, objective=objective, hard=hard, seconds=PLENTY)
    secrets = frozenset(result.secrets)
    assert secrets == frozenset(c for c in game.codes if all(game.score(g, c) == a for g, a in result.pairs))
    assert result.complete
    best = naive_best(game, secrets, objective, hard)
    assert result.best[0].value == best
    values = [v.value for v in result.best]
    assert values == sorted(values)
    for entry in result.best:
        assert entry.value == naive_value(game, secrets, entry.guess, objective, hard), entry
        assert entry.possible == (entry.guess in secrets)
        if hard:
            assert entry.possible
    if unlisted and len(values) == top:  # nothing left out beats the last listed, but guesses alike to a listed one
        pool = sorted(secrets) if hard else game.codes
        for guess in pool:
            value = naive_value(game, secrets, guess, objective, hard)
            assert value >= values[-1] or value in values, (guess, value, values)
    if named is not None:
        assert result.guess.value == naive_value(game, secrets, named, objective, hard)
        assert result.loss == (result.guess.value - best, result.guess.value - best)
    return result


@pytest.mark.parametrize("game", TINY, ids=str)
@pytest.mark.parametrize("objective", ["expected", "worst-case"])
@pytest.mark.parametrize("hard", [False, True], ids=["free", "hard"])
def test_every_position_after_one_guess_matches_brute_force(game, objective, hard):
    check(game, [], objective, hard, named=game.codes[-1], unlisted=True)
    for guess in game.codes:
        answers = {game.score(guess, secret) for secret in game.codes} - {game.solved}
        for answer in answers:
            check(game, [(guess, answer)], objective, hard)


@st.composite
def positions(draw):
    game = draw(st.sampled_from(TINY))
    secret = draw(st.sampled_from(game.codes))
    count = draw(st.integers(0, 3))
    history = []
    for _ in range(count):
        guess = draw(st.sampled_from(game.codes))
        answer = game.score(guess, secret)
        if answer == game.solved:
            break
        history.append((guess, answer))
    return game, history, draw(st.sampled_from(game.codes)), draw(st.integers(1, 6))


@given(positions(), st.sampled_from(["expected", "worst-case"]), st.booleans())
@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
def test_random_positions_and_named_guesses_match_brute_force(position, objective, hard):
    game, history, named, top = position
    secrets = [c for c in game.codes if all(game.score(g, c) == a for g, a in history)]
    if hard and named not in secrets:
        named = secrets[-1]
    check(game, history, objective, hard, named, top, unlisted=True)


def test_a_useless_guess_costs_a_whole_guess_more():
    game = TINY[0]
    history = [("012", game.score("012", "340"))]
    result = check(game, history, "expected", False, named="012")
    assert result.loss[0] == len(result.secrets)  # every secret takes one more guess


def test_hard_mode_refuses_a_guess_that_is_not_possible():
    game = TINY[0]
    with pytest.raises(ValueError, match="hard mode: 012 is not still possible"):
        analyse(game, ["012=0B1C"], guess="012", hard=True)


def hard_game(game, secret, pick):
    """A game played in hard mode: each guess `pick` of the codes still possible, until the secret is found."""
    left, moves = list(game.codes), []
    while True:
        guess = pick(left)
        moves.append(f"{guess}={game.score(guess, secret)}")
        if guess == secret:
            return moves
        left = [c for c in left if game.score(guess, c) == game.score(guess, secret)]


@pytest.mark.parametrize("game", TINY, ids=str)
@pytest.mark.parametrize("objective", ["expected", "worst-case"])
def test_a_hard_mode_review_values_every_move_as_brute_force_does(game, objective):
    for secret in game.codes[::5]:
        for pick in (lambda left: left[-1], lambda left: left[len(left) // 2]):
            moves = hard_game(game, secret, pick)
            result = review(game, moves, objective, seconds=PLENTY, hard=True)
            assert result.hard and result.solved and result.complete
            for move in result.moves:
                secrets = frozenset(move.analysis.secrets)
                best = naive_best(game, secrets, objective, True)
                played = naive_value(game, secrets, move.guess, objective, True)
                assert (move.best.value, move.played.value) == (best, played), (moves, move.number)
                scale = len(secrets) if objective == "expected" else 1
                assert move.loss() == ((played - best) / scale,) * 2
                assert move.best.guess in secrets  # the best guess of hard mode is still possible too


def test_a_hard_mode_review_refuses_a_game_that_broke_it():
    game = TINY[0]
    free = review(game, ["012=0B2C", "013=0B1C"], seconds=PLENTY)  # 013 could not be the secret after 012=0B2C
    assert not free.hard
    with pytest.raises(InvalidHistoryError, match=r"^guess 2 \(013=0B1C\): hard mode: 013 was not still possible"):
        review(game, ["012=0B2C", "013=0B1C"], seconds=PLENTY, hard=True)


def test_symmetries_carry_a_history_onto_another_and_name_classes():
    game = preset("bulls-cows")
    symmetry = carrying(game, ["4567", "4890"], ["0123", "0456"])
    assert symmetry("4567") == "0123" and symmetry("4890") == "0456"
    assert symmetry.inverse()(symmetry("9876")) == "9876"
    assert carrying(game, ["0123", "0124"], ["0123", "4567"]) is None  # sharing 3 symbols, or none: no map
    assert least_image(game, "9876", []) == "0123"
    assert least_image(game, "7186", ["0123"]) == "0456"  # one symbol in its place, three new
    assert least_image(game, "7816", ["0123"]) == "1456"  # one symbol out of its place


TREE_POSITIONS = [  # (game, history, on the shipped expected tree)
    (preset("bulls-cows"), ["0123=0B2C", "1245=0B2C"], True),
    (preset("bulls-cows"), ["4567=0B2C", "5689=0B2C"], True),  # the one above, relabelled
    (preset("bulls-cows"), ["4567=1B1C", "4589=0B1C"], False),
    (preset("mastermind"), ["1123=1B0C"], True),
    (preset("mastermind"), ["4564=1B1C"], True),  # 1123 relabelled and reordered
    (preset("mastermind"), ["3344=1B0C", "1516=1B1C"], False),
    (preset("mastermind"), ["1234=1B1C"], False),
]


@pytest.mark.parametrize(("game", "history", "on_tree"), TREE_POSITIONS)
def test_shipped_tree_values_equal_the_search(game, history, on_tree):
    """The tree alone (no book, which would answer first for 4 of 10) against the search alone."""
    tree_only = Engine(game, EXPECTED, tree=TreeValues.shipped(game, False))
    from_tree = analyse_position(read_history(game, history), 3, None, EXPECTED, False, PLENTY, tree_only)
    searched = analyse(game, history, top=3, seconds=PLENTY, use_shipped=False)
    check_equal(from_tree, searched, on_tree)


@pytest.mark.parametrize("history", [["1123=1B0C"], ["5565=1B1C", "1234=0B1C"]])
def test_the_hard_mode_tree_values_equal_the_search(history):
    game = preset("mastermind")
    from_tree = analyse(game, history, top=2, seconds=PLENTY, hard=True)
    searched = analyse(game, history, top=2, seconds=PLENTY, hard=True, use_shipped=False)
    check_equal(from_tree, searched, history == ["1123=1B0C"])
    assert all(v.possible for v in from_tree.best)


def check_equal(from_tree, searched, on_tree):
    assert from_tree.source.startswith("tree") == on_tree
    assert searched.source == "search"
    assert from_tree.complete and searched.complete
    assert [v.value for v in from_tree.best] == [v.value for v in searched.best]


BOUNDED = [  # (game, history, named guess): sets large enough for the Python search, which the deadline stops
    (preset("bulls-cows"), ["0123=0B2C", "4567=1B0C"], "1456"),
    (preset("bulls-cows"), ["0123=1B1C", "0456=1B0C"], "7890"),
    (preset("mastermind"), ["1122=0B1C"], "3456"),
]


@pytest.mark.parametrize(("game", "history", "named"), BOUNDED)
@pytest.mark.parametrize("objective", ["expected", "worst-case"])
def test_out_of_time_values_are_proven_bounds(game, history, named, objective):
    fresh = Engine(game, objective)  # no memo of earlier tests: the search must stop at once
    hurried = analyse_position(read_history(game, history), 3, named, objective, False, 0.0, fresh)
    assert not hurried.complete
    exact = analyse(game, history, top=8, guess=named, objective=objective, seconds=PLENTY, use_shipped=False)
    assert exact.complete
    for entry in [*hurried.best, hurried.guess]:
        truth = analyse(game, history, top=1, guess=entry.guess, objective=objective, seconds=PLENTY, use_shipped=False)
        assert entry.lower <= truth.guess.value and (entry.upper is None or truth.guess.value <= entry.upper), entry
    best = exact.optimum.value
    assert hurried.optimum.lower <= best and (hurried.optimum.upper is None or best <= hurried.optimum.upper)
    low, high = hurried.loss
    true_loss = exact.loss[0]
    assert low <= true_loss and (high is None or true_loss <= high)


@pytest.mark.parametrize(("game", "history", "named"), BOUNDED)
def test_nothing_runs_past_the_deadline_not_even_the_greedy_upper_bound(game, history, named):
    """A greedy tree of a large set takes seconds (5 of 9 at the start: about 4): its upper bound is computed within
    the time limit too, and left out when none is left, so a zero limit shows lower bounds only."""
    fresh = Engine(game, EXPECTED)
    hurried = analyse_position(read_history(game, history), 3, named, EXPECTED, False, 0.0, fresh)
    assert not hurried.complete
    assert all(entry.upper is None for entry in [*hurried.best, hurried.guess])


def test_one_engine_per_game_objective_and_mode_however_it_is_asked_for():
    """`play --coach` asks for `engine(game)`, analyse and review with every argument: the memos are shared."""
    from bactree.coach.analysis import engine

    game = Game(3, "01234", False)
    assert engine(game) is engine(game, EXPECTED, False, True) is engine(game, objective=EXPECTED, use_shipped=True)
    assert engine(game, EXPECTED, True) is not engine(game)


def test_a_tree_not_proven_optimal_gives_bounds_never_values(tmp_path):
    """A shipped tree of the largest games is a budgeted build's: its subtree totals bound its guesses from above,
    the file's lower bound the best value at the root. Here a tree of Mastermind 3x3 that opens with 111 (86 guesses
    in all, where 73 is the least), recorded as at least 72: out of time, its figures bound the truth; with time, the
    search's exact values come out as without it."""
    from bactree.search import TOTAL_GUESSES, CostSearch, Solver
    from bactree.treefile import Objective, document, dumps
    from bactree.walker import load_tree

    game = Game(3, "123", True)
    solver = Solver(game)
    search = CostSearch(solver, TOTAL_GUESSES)
    root = search.tree_after(solver.all_guesses, solver.num_codes, game.code_index["111"])
    path = tmp_path / "mastermind-3x3-expected.json"
    path.write_bytes(dumps(document(game, Objective("expected"), False, root, 72)))
    values = TreeValues(load_tree(path))
    secrets = frozenset(game.codes)
    hurried = analyse_position(read_history(game, []), 3, "111", EXPECTED, False, 0.0, Engine(game, EXPECTED, tree=values))
    assert hurried.source.startswith("tree ") and not hurried.complete
    assert (hurried.guess.lower, hurried.guess.upper) == (max(72, hurried.guess.lower), 86)
    assert hurried.optimum.lower >= 72 and hurried.optimum.upper == 86
    for entry in [*hurried.best, hurried.guess]:
        truth = guess_total(game, secrets, entry.guess, False)
        assert entry.lower <= truth and (entry.upper is None or truth <= entry.upper), entry
    for history in ([], ["111=1B0C"]):
        exact = analyse_position(read_history(game, history), 3, None, EXPECTED, False, PLENTY,
                                 Engine(game, EXPECTED, tree=values))
        searched = analyse(game, history, top=3, seconds=PLENTY, use_shipped=False)
        assert exact.complete and [(v.guess, v.value) for v in exact.best] == [(v.guess, v.value) for v in searched.best]


def test_a_time_limit_reached_says_exact_only_where_a_value_is() -> None:
    from bactree.coach.analysis import Analysis, GuessValue
    from bactree.coach.text import source_text

    game = preset("bulls-cows")
    bound, exact = GuessValue("0123", False, 100, None, 50), GuessValue("0124", False, 101, 101, 50)
    for best, said in [((bound,), "Values: proven bounds, from the search"),
                       ((bound, exact), "Values: exact where a single figure is shown, from the search; the others are proven bounds")]:
        found = Analysis(game, (), EXPECTED, False, (), best, None, bound, "search", False, 1.25)
        assert source_text(found) == f"{said} (time limit reached after 1.2s: --seconds allows more)."
    done = Analysis(game, (), EXPECTED, False, (), (exact,), None, exact, "search", True, 0.5)
    assert source_text(done) == "Values: exact, from the search (0.5s)."
