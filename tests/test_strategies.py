"""The strategy zoo against plain references (tests/naive_strategies.py) on small games."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_strategies as naive
from bactree.evaluate import MAX_TREE_DEPTH, evaluate, strategy_tree
from bactree.game import Answer, BactreeError, Game
from bactree.strategies import STRATEGIES, BlindStrategy, Strategy, UnknownStrategyError, make_strategy
from bactree.treefile import check_document, dumps

DETERMINISTIC = ["first-consistent", "least-frequent", "separator", "knuth", "most-parts", "entropy", "expected-size"]
SMALL_GAMES = [
    Game(3, "01234", False),
    Game(3, "012", True),
    Game(2, "BA9C", True),  # the alphabet's own order, not the characters', is "lowest"
]


def test_registry_holds_every_strategy_of_the_issue() -> None:
    assert set(STRATEGIES) == {"random", "enumerate", "cows-score", "random-consistent", *DETERMINISTIC}
    for cls in STRATEGIES.values():
        assert cls.__doc__ and len(cls.__doc__.strip()) > 40, cls


def test_unknown_strategy_lists_the_names() -> None:
    with pytest.raises(UnknownStrategyError, match=r"unknown strategy 'x': choose one of random, enumerate, .*tree:FILE"):
        make_strategy("x", Game(2, "012", True))


@pytest.mark.parametrize("hard", [False, True], ids=["free", "hard"])
@pytest.mark.parametrize("game", SMALL_GAMES, ids=str)
@pytest.mark.parametrize("name", DETERMINISTIC)
def test_compiled_tree_matches_the_reference_at_every_node(game: Game, name: str, hard: bool) -> None:
    doc = strategy_tree(make_strategy(name, game, hard=hard))
    replay = check_document(doc, name)
    assert doc["objective"]["hard_mode"] is (hard or make_strategy(name, game).hard_mode)
    if hard:
        assert replay.nodes == replay.secrets  # every guess still possible
    stack: list[tuple[dict[str, Any], list[str]]] = [(doc["root"], list(game.codes))]
    while stack:
        node, possible = stack.pop()
        assert node["guess"] == naive.pick(game, name, possible, hard)
        for key, child in node.get("next", {}).items():
            answer = Answer.from_str(key)
            rest = [s for s in possible if s != node["guess"] and game.score(node["guess"], s) == answer]
            stack.append((child, rest))
    result = evaluate(make_strategy(name, game, hard=hard))
    assert result.histogram == replay.histogram
    assert result.total_guesses == replay.total_guesses
    assert result.failures == 0 and result.plays == len(game.codes)


@pytest.mark.parametrize("name", ["knuth", "separator"])
def test_evaluation_matches_playing_each_secret_from_scratch(name: str) -> None:
    game = Game(2, "0123", True)
    expected: dict[int, int] = {}
    for secret in game.codes:
        k = naive.play(game, name, secret)
        expected[k] = expected.get(k, 0) + 1
    assert evaluate(make_strategy(name, game)).histogram == dict(sorted(expected.items()))


@st.composite
def small_games(draw: st.DrawFn) -> Game:
    """A game of at most 125 codes over an alphabet in a shuffled order."""
    repeats = draw(st.booleans())
    length = draw(st.integers(1, 3))
    k = draw(st.integers(1 if repeats else length, 5))
    alphabet = draw(st.permutations("ABCDE"))[:k]
    return Game(length, "".join(alphabet), repeats)


@settings(max_examples=30, deadline=None)
@given(small_games(), st.sampled_from(["enumerate", *DETERMINISTIC]))
def test_every_deterministic_strategy_compiles_to_a_verified_tree(game: Game, name: str) -> None:
    replay = check_document(strategy_tree(make_strategy(name, game)), name)
    result = evaluate(make_strategy(name, game))
    assert (result.histogram, result.failures) == (replay.histogram, 0)


@st.composite
def game_and_history(draw: st.DrawFn) -> tuple[Game, list[tuple[str, Answer]]]:
    """A small game and the answers of a random secret to random guesses."""
    game = draw(small_games())
    codes = st.sampled_from(game.codes)
    secret = draw(codes)
    guesses = draw(st.lists(codes.filter(lambda g: g != secret), max_size=3))
    return game, [(g, game.score(g, secret)) for g in guesses]


@settings(max_examples=60, deadline=None)
@given(game_and_history(), st.sampled_from(DETERMINISTIC))
def test_next_guess_from_a_history_matches_the_reference(
    case: tuple[Game, list[tuple[str, Answer]]], name: str
) -> None:
    game, history = case
    possible = naive.consistent(game, history)
    assert make_strategy(name, game).next_guess(history) == naive.pick(game, name, possible)


@settings(max_examples=40, deadline=None)
@given(game_and_history(), st.integers(0, 2**32))
def test_random_consistent_guesses_a_still_possible_code(case: tuple[Game, list[tuple[str, Answer]]], seed: int) -> None:
    game, history = case
    assert make_strategy("random-consistent", game, seed).next_guess(history) in naive.consistent(game, history)


def test_random_consistent_mean_is_the_exact_expectation() -> None:
    game = Game(3, "0123", False)
    exact = naive.random_consistent_mean(game)  # 3.0278
    result = evaluate(make_strategy("random-consistent", game, seed=7), runs=400)
    assert result.plays == 24 * 400 and result.failures == 0
    assert abs(result.mean_guesses - exact) < 0.05  # standard error about 0.01


def test_random_guesses_are_geometric_and_capped() -> None:
    game = Game(1, "012", False)  # each guess hits with probability 1/3
    result = evaluate(make_strategy("random", game, seed=3), runs=2000, max_guesses=5)
    assert result.plays == 6000
    assert abs(result.failures / result.plays - (2 / 3) ** 5) < 0.02
    for k in range(1, 6):
        assert abs(result.histogram[k] / result.plays - (2 / 3) ** (k - 1) / 3) < 0.02


def test_same_seed_same_figures() -> None:
    game = Game(3, "0123456", False)
    for name in ("random", "cows-score", "random-consistent"):
        first, second = (evaluate(make_strategy(name, game, seed=11)) for _ in range(2))
        assert (first.histogram, first.failures) == (second.histogram, second.failures)


def test_enumerate_takes_k_guesses_for_the_kth_code() -> None:
    game = Game(2, "0123", False)
    result = evaluate(make_strategy("enumerate", game))
    assert result.histogram == {k: 1 for k in range(1, 13)}
    history = [(code, game.score(code, "32")) for code in game.codes[:2]]
    assert [make_strategy("enumerate", game).next_guess(history[:j]) for j in range(3)] == ["01", "02", "03"]
    doc = strategy_tree(make_strategy("enumerate", game))
    assert check_document(doc).histogram == result.histogram


def cows_score_transcript_problem(game: Game, secret: str, guesses: list[str]) -> str | None:
    """Check a cows-score game against the rules as the docstring states them; None if it follows them."""
    n, k = game.length, game.num_symbols
    total = lambda g: sum(min(g.count(x), secret.count(x)) for x in set(g))  # noqa: E731
    i = 0
    fillers = ""
    if not game.repeats:
        passes = 0
        while not fillers:
            order = ""  # this pass's ordering of the alphabet, as far as its windows show it
            for j in range(k):
                guess = guesses[i]
                if passes == 0 and guess != (game.symbols * 2)[j : j + n]:
                    return f"window {j} of the first pass is {guess}"
                if j == 0:
                    order = guess
                elif guess[:-1] != guesses[i - 1][1:]:
                    return f"window {guess} does not follow {guesses[i - 1]}"
                elif j + n - 1 < k:
                    order += guess[-1]
                elif guess[-1] != order[(j + n - 1) % k]:
                    return f"window {guess} does not wrap around {order}"
                if len(set(order)) != len(order):
                    return f"pass {passes} repeats a symbol: {order}"
                i += 1
                if guess == secret:
                    return None if i == len(guesses) else "played on after all bulls"
                if total(guess) == 0:
                    fillers = guess
                    break
            passes += 1
    found = ""
    for x in game.symbols:
        if x in fillers or len(found) == n:
            continue
        expected = x * n if game.repeats else x + fillers[: n - 1]
        if guesses[i] != expected:
            return f"tested {guesses[i]}, expected {expected}"
        i += 1
        if guesses[i - 1] == secret:
            return None if i == len(guesses) else "played on after all bulls"
        found += x * total(expected)
    for guess in guesses[i:]:
        if sorted(guess) != sorted(found):
            return f"arrangement {guess} is not of {found}"
    return None if guesses[-1] == secret else "did not end on the secret"


@pytest.mark.parametrize("game", [Game(2, "012345", False), Game(3, "0123456", False), Game(2, "0123", True)], ids=str)
def test_cows_score_follows_its_rules(game: Game) -> None:
    strategy = make_strategy("cows-score", game, seed=5)
    for secret in game.codes:
        history: list[tuple[str, Answer]] = []
        guesses: list[str] = []
        while not guesses or guesses[-1] != secret:
            guesses.append(strategy.next_guess(history))
            history.append((guesses[-1], game.score(guesses[-1], secret)))
            assert len(guesses) < 500
        assert cows_score_transcript_problem(game, secret, guesses) is None, (secret, guesses)


def test_cows_score_without_fillers_only_wins_by_luck() -> None:
    game = Game(3, "01234", False)  # 5 symbols cannot hold 3 absent ones beside a secret of 3
    result = evaluate(make_strategy("cows-score", game, seed=1), max_guesses=30)
    assert result.failures > 0
    assert result.failures + sum(result.histogram.values()) == 60


def test_next_guess_refuses_a_finished_or_impossible_history() -> None:
    game = Game(3, "01234", False)
    with pytest.raises(BactreeError, match="the game is over"):
        make_strategy("knuth", game).next_guess([("012", Answer(3, 0))])
    with pytest.raises(BactreeError, match="no code is consistent"):
        make_strategy("knuth", game).next_guess([("012", Answer(2, 0)), ("012", Answer(1, 0))])
    with pytest.raises(BactreeError, match="invalid code"):
        make_strategy("knuth", game).next_guess([("011", Answer(0, 0))])


class _Stubborn(Strategy):
    """Guesses the first code forever: a deterministic strategy that never finishes."""

    name = "stubborn"
    endless = True

    def start(self) -> None:
        return None

    def choose(self, state: None) -> int:
        return 0

    def advance(self, state: None, guess: int, answer: int) -> None:
        return None


def test_a_deterministic_endless_strategy_is_cut_at_the_cap() -> None:
    game = Game(2, "012", True)
    result = evaluate(_Stubborn(game), max_guesses=4)
    assert result.histogram == {1: 1} and result.failures == 8


def test_compile_refuses_random_too_big_and_too_deep_trees() -> None:
    with pytest.raises(BactreeError, match="randomised"):
        strategy_tree(make_strategy("random-consistent", Game(2, "012", True)))
    with pytest.raises(BactreeError, match="more than 100 nodes"):
        strategy_tree(make_strategy("enumerate", Game(3, "01234", False)), max_nodes=100)
    symbols = "".join(chr(0x100 + i) for i in range(MAX_TREE_DEPTH + 1))
    deepest = strategy_tree(make_strategy("enumerate", Game(1, symbols[:-1], False)))
    assert deepest["stats"]["max_guesses"] == MAX_TREE_DEPTH
    assert dumps(deepest)  # orjson can still nest it
    with pytest.raises(BactreeError, match="deeper than"):
        strategy_tree(make_strategy("enumerate", Game(1, symbols, False)))


def test_compiled_trees_record_the_strategy_and_rebuild_byte_identical() -> None:
    game = Game(3, "01234", False)
    for name in DETERMINISTIC:
        doc = strategy_tree(make_strategy(name, game))
        assert doc["optimal"] is False
        assert doc["objective"]["name"] == name
        assert doc["objective"]["hard_mode"] == (name in {"first-consistent", "least-frequent"})
        assert dumps(doc) == dumps(strategy_tree(make_strategy(name, game)))


def test_blind_strategies_ignore_answers() -> None:
    game = Game(2, "0123", False)
    strategy = make_strategy("enumerate", game)
    assert isinstance(strategy, BlindStrategy)
    assert strategy.next_guess([("01", Answer(0, 0))]) == strategy.next_guess([("01", Answer(1, 0))]) == "02"


def test_greedy_picks_on_mastermind_match_knuths_figures() -> None:
    """Known answers: Knuth's rule solves Mastermind 4x6 with total 5801, max 5, opening 1122."""
    game = Game(4, "123456", True)
    strategy = make_strategy("knuth", game)
    assert strategy.next_guess() == "1122"
    result = evaluate(strategy)
    assert (result.total_guesses, result.max_guesses) == (5801, 5)
    assert np.isclose(result.mean_guesses, 5801 / 1296)


def test_hard_mode_is_refused_for_rules_without_a_choice_of_codes() -> None:
    with pytest.raises(BactreeError, match="'enumerate' has no hard-mode variant"):
        make_strategy("enumerate", Game(2, "012", True), hard=True)
    assert make_strategy("knuth", Game(2, "012", True), hard=True).name == "knuth-hard"
