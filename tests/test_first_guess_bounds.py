"""scripts/first_guess_bounds.py: each first-guess class's bounds against the brute force's least total with that first guess."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from naive_search import least_total, parts

from bactree.game import Game

_spec = importlib.util.spec_from_file_location(
    "first_guess_bounds", Path(__file__).parents[1] / "scripts" / "first_guess_bounds.py"
)
first_guess_bounds = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(first_guess_bounds)


def _shape(code: str) -> tuple[int, ...]:
    """How often each symbol repeats: Mastermind's first guesses are alike (one class) exactly when their shapes are."""
    return tuple(sorted((code.count(symbol) for symbol in set(code)), reverse=True))


@pytest.mark.parametrize("game", [Game(2, "1234", True), Game(3, "123", True), Game(2, "12345", True)], ids=str)
def test_each_class_bound_is_at_most_the_least_total_with_that_first_guess(game):
    rows = first_guess_bounds.class_bounds(game)
    assert sorted(_shape(code) for code, *_ in rows) == sorted({_shape(code) for code in game.codes})  # one per class
    least = {}
    for code, floor, lookahead, by_class, largest in rows:
        split = parts(game, frozenset(game.codes), code)
        least[code] = len(game.codes) + sum(least_total(game, part) for part in split.values())
        assert floor <= lookahead <= least[code]
        assert by_class <= least[code]
        assert largest == max(map(len, split.values()))
    assert min(least.values()) == least_total(game, frozenset(game.codes))  # the classes cover every first guess


def test_a_game_too_large_to_build_is_one_line():
    with pytest.raises(SystemExit, match="^Error: "):
        first_guess_bounds.main(["-n", "9", "--symbols", "0123456789"])
