"""The exact search on games of word lists, against the slow brute force of `naive_search`, on many random lists.

A word list has no relabellings that map it onto itself, so the search runs
with every rule that uses them off (`Solver.symmetric`): each guess its own
orbit, refutations found again only as they are, the plain crowd limits, no
floors by answer class. These tests draw small random lists, isograms and
lists with repeated letters, with and without allowed guesses that are never
a secret, in free and hard mode, and compare every objective and tie-break
the build accepts with the brute force, tree for tree (ties to the lowest
word), through the kernels and through the Python levels alike.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from game_strategies import word_games
from build_checks import check_capped, check_least_height, check_least_total
from naive_search import min_chain_tree, min_height, others_deeper

from bactree.game import Game, word_game
from bactree.game.rules import RULES
from bactree.pipeline.build import build
from bactree.search import TOTAL_GUESSES
from bactree.search.cost import deep, search as cost
from bactree.search.height import solver as search_height



SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(game=word_games(), hard=st.booleans())
def test_least_total_matches_brute_force(game: Game, hard: bool, search_paths: str) -> None:
    check_least_total(game, hard)


@SETTINGS
@given(game=word_games(), hard=st.booleans(), chain=st.sampled_from([("nodes",), ("total",), ("crush", "total")]))
def test_least_height_and_tie_breaks_match_brute_force(game: Game, hard: bool, chain: tuple[str, ...], search_paths: str) -> None:
    check_least_height(game, hard, chain)


@SETTINGS
@given(game=word_games(), hard=st.booleans(), slack=st.integers(0, 1))
def test_a_cap_on_guesses_matches_brute_force(game: Game, hard: bool, slack: int) -> None:
    check_capped(game, hard, min_height(game, hard) + slack)


def test_the_rules_that_take_relabellings_are_off_for_a_word_list() -> None:
    """Each guess its own orbit, no stabiliser's pool, refutations matched only as they are, the plain crowd limits."""
    game = word_game(["abc", "acb", "bac", "bca", "cab", "cba", "abd", "dba"])
    solver = search_height.Solver(game)
    assert solver.symmetric is False and len(solver.perms) == 1
    assert solver.canonical_guesses(()) is solver.all_guesses
    assert solver.set_orbit_names(solver.secrets) is solver.all_guesses
    assert solver.refutations.index_of is None
    assert [solver.crowd_limit(d) for d in range(5)] == [0, 1, 3, 8, 8]
    assert solver.class_caps.orbit_of.tolist() == list(range(8))
    assert cost.CostSearch(solver, TOTAL_GUESSES).orbit_of.tolist() == [0] * 8
    every_code = search_height.Solver(Game(3, "abcd", False))
    assert every_code.symmetric is True and len(every_code.canonical_guesses(())) == 1


def test_allowed_guesses_that_are_never_secrets_can_win() -> None:
    """Three secrets one guess cannot tell apart among themselves are split by a word that is no secret."""
    game = word_game(["ab", "ba", "cd"], ["ab", "ba", "cd", "ac"])
    assert game.guesses == ("ab", "ac", "ba", "cd") and game.secret_codes == ("ab", "ba", "cd")
    result = build(game, "expected")
    assert result.document["stats"]["secrets"] == 3
    assert result.document["stats"]["total_guesses"] == min_chain_tree(game, None, ("total",))[0][0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=word_games(max_secrets=18, rules=tuple(RULES)), hard=st.booleans())
def test_other_first_guesses_bounded_deeper_stay_sound(game: Game, hard: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--others-deeper-to`: on random small lists under every rule, the same tree; the lower bound at least the
    one of lookahead alone, at most the brute force's least total, and (free mode) at least the brute force's own
    bound of the other first guesses two guesses deep below each part (`naive_search.others_deeper`), up to the
    picked guess's bound."""
    deepen_small_sets(monkeypatch)
    least = min_chain_tree(game, None, ("total",), hard)[0][0]

    def bounded(to: int | None) -> tuple[dict, int]:
        said: list[str] = []
        doc = build(game, "expected", budget=0, workers=1, hard=hard, greedy="entropy", others_deeper_to=to,
                    progress=said.append).document
        picked = [int(m.split(" cost at least ")[1].split(";")[0]) for m in said if " cost at least " in m]
        return doc, picked[0] if picked else doc["stats"].get("lower_bound", least)

    plain, own = bounded(None)
    deeper, _ = bounded(10**6)
    assert deeper["root"] == plain["root"]
    low = plain["stats"].get("lower_bound", plain["stats"]["total_guesses"])
    high = deeper["stats"].get("lower_bound", deeper["stats"]["total_guesses"])
    assert low <= high <= least
    if not hard:
        kept = plain["root"]["guess"]
        naive = others_deeper(game, frozenset(game.secret_codes), game.num_secrets, kept, 2)
        assert high >= min(own, least if naive is None else naive)


def deepen_small_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every part of 3 secrets or more bounded in Python, and the deeper pass on sets this small."""
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)
    monkeypatch.setattr(deep, "DEEPER_MIN_SET", 0)


def test_other_first_guesses_bounded_deeper_raise_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a Jotto list where one guess of lookahead leaves the other first guesses at 60, two guesses deep they
    reach the picked guess's 62, the least total: the build is proven, its tree the same; asked for 61, 61."""
    deepen_small_sets(monkeypatch)
    game = word_game("acdb adcb adec beac beca becd beda cbad dabc dbae dbce dbea debc eacd edca edcb".split(), rule="jotto")
    plain = build(game, "expected", budget=0, workers=1, greedy="entropy").document
    deeper = build(game, "expected", budget=0, workers=1, greedy="entropy", others_deeper_to=10**6).document
    assert plain["stats"]["lower_bound"] == 60 and plain["stats"]["total_guesses"] == 62
    assert deeper["optimal"] is True and deeper["root"] == plain["root"]
    short = build(game, "expected", budget=0, workers=1, greedy="entropy", others_deeper_to=61).document
    assert short["stats"]["lower_bound"] == 61 and short["root"] == plain["root"]  # raised as far as asked only
    assert min_chain_tree(game, None, ("total",))[0][0] == 62
