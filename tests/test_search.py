"""The exact search against brute force on tiny games, with and without its shortcuts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_search import (
    canonical_codes,
    min_chain_tree,
    min_cost_tree,
    min_height,
    tree_to_nodes,
)

from bactree.pipeline.build import build
from bactree.game.codes import code_array
from bactree.game import BactreeError, Game
from bactree.search.cost import cost_model
from bactree.search.height import guess_symmetry
from bactree.search.height import solver as search_height
from bactree.search._symmetry import _canonical_mask
from bactree.treefile import check_document, dumps

TINY_GAMES = [
    Game(2, "0123", False),
    Game(3, "0123", False),
    Game(3, "01234", False),
    Game(2, "123", True),
    Game(2, "1234", True),
    Game(3, "123", True),
]



@pytest.mark.parametrize("game", TINY_GAMES, ids=str)
def test_min_height_matches_brute_force(game, search_paths):
    solver = search_height.Solver(game)
    height = solver.min_height()
    assert height == min_height(game)
    assert solver.stats.refuted == list(range(1, height))  # every smaller height refuted


@pytest.mark.parametrize("game", TINY_GAMES, ids=str)
@pytest.mark.parametrize("tie_break", ["nodes", "total"])
def test_worst_case_tree_matches_brute_force(game, tie_break, search_paths):
    height = min_height(game)
    expected_cost, expected_tree = min_cost_tree(game, height, per_secret=tie_break == "total")
    result = build(game, "worst-case", tie_break)
    assert result.cost == expected_cost
    assert result.document["root"] == tree_to_nodes(expected_tree)
    assert result.document["stats"]["max_guesses"] == height
    check_document(result.document)


@pytest.mark.parametrize("game", TINY_GAMES, ids=str)
def test_expected_tree_matches_brute_force(game, search_paths):
    expected_total, expected_tree = min_cost_tree(game, None, per_secret=True)
    result = build(game, "expected")
    assert result.stats["total_guesses"] == expected_total
    assert result.document["root"] == tree_to_nodes(expected_tree)


@pytest.mark.parametrize("game", TINY_GAMES[2:], ids=str)
def test_expected_with_cap_equals_worst_case_total_tie_break(game):
    height = min_height(game)
    capped = build(game, "expected", max_guesses=height).document
    tied = build(game, "worst-case", "total").document
    assert capped["root"] == tied["root"]
    assert capped["stats"] == tied["stats"]


def test_build_is_byte_identical():
    game = Game(3, "01234", False)
    assert dumps(build(game).document) == dumps(build(game).document)


def test_cap_below_least_height_is_refused():
    with pytest.raises(BactreeError, match="least is 4"):
        build(Game(3, "01234", False), "expected", max_guesses=3)


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from([Game(3, "01234", False), Game(2, "0123", False), Game(3, "123", True), Game(2, "1234", True)]),
    picks=st.lists(st.integers(min_value=0, max_value=10**6), min_size=0, max_size=3),
)
def test_canonical_mask_matches_orbit_minima(game, picks):
    history = [game.codes[p % len(game.codes)] for p in picks]
    codes = code_array(game)
    past = codes[[game.code_index[h] for h in history]] if history else codes[:0]
    perms = search_height.Solver(game).perms
    mask = _canonical_mask(codes, past, perms, game.num_symbols)
    got = {code for code, keep in zip(game.codes, mask) if keep}
    assert got == canonical_codes(game, history)


@settings(max_examples=20, deadline=None)
@given(
    game=st.sampled_from([Game(3, "01234", False), Game(3, "123", True), Game(2, "1234", True)]),
    histories=st.lists(st.lists(st.integers(min_value=0, max_value=10**6), max_size=3), min_size=1, max_size=12),
    cap=st.sampled_from([0, 64, 1 << 20]),
    entries=st.sampled_from([1, 3, 1 << 20]),
)
def test_canonical_guesses_stay_right_and_within_the_cache_cap(game, histories, cap, entries):
    """Remembered or recomputed after the cache starts afresh, the canonical guesses are the orbit minima."""
    solver = search_height.Solver(game)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(guess_symmetry, "CANONICAL_CACHE_BYTES", cap)
        patch.setattr(guess_symmetry, "CANONICAL_CACHE_ENTRIES", entries)
        for picks in histories + histories:  # the second round meets remembered histories, or recomputes them
            history = tuple(p % len(game.codes) for p in picks)
            got = solver.canonical_guesses(history)
            assert {game.codes[g] for g in got} == canonical_codes(game, [game.codes[h] for h in history])
            assert (got is solver.all_guesses) == (len(got) == len(game.codes))  # every code canonical: shared
            own = {id(a): a for a in solver.symmetry._canonical.values() if a is not solver.all_guesses}.values()  # shared arrays once
            held = sum(a.nbytes for a in own)
            assert held == solver.symmetry._canonical_bytes and (held <= cap or len(own) == 1)  # past the cap only the newest
            assert len(solver.symmetry._canonical) <= entries + 1  # a history and the array it shares with others


def test_a_build_gives_the_same_bytes_when_the_canonical_cache_keeps_nothing(monkeypatch):
    game = Game(4, "012345", False)
    kept = dumps(build(game, "expected", workers=1).document)
    monkeypatch.setattr(guess_symmetry, "CANONICAL_CACHE_BYTES", 0)
    assert dumps(build(game, "expected", workers=1).document) == kept


def test_level_caps_bound_what_depth_can_solve():
    game = Game(4, "0123456789", False)
    caps = search_height.level_caps(game, 4)
    assert list(caps[1:]) == [1, 14, 183, 2380]
    assert cost_model.level_fill(1 + 13 + 5, 13) == 1 + 2 * 13 + 3 * 5
    assert np.all(np.diff(caps[1:]) > 0)


HARD_GAP_GAME = Game(2, "12345", True)  # height 4, but 5 when every guess must be still possible


@pytest.mark.parametrize("game", TINY_GAMES + [HARD_GAP_GAME], ids=str)
def test_hard_height_matches_brute_force(game, search_paths):
    solver = search_height.Solver(game, hard=True)
    height = solver.min_height()
    assert height == min_height(game, hard=True)
    assert solver.stats.refuted == list(range(1, height))


def test_hard_mode_can_need_more_guesses():
    assert min_height(HARD_GAP_GAME) == 4 and min_height(HARD_GAP_GAME, hard=True) == 5
    assert build(HARD_GAP_GAME).stats["max_guesses"] == 4
    assert build(HARD_GAP_GAME, hard=True).stats["max_guesses"] == 5


def assert_still_possible(game, node, secrets):
    """Every guess of the tree is a code still possible where it is made."""
    assert node["guess"] in secrets
    for answer, child in node.get("next", {}).items():
        assert_still_possible(game, child, {s for s in secrets if str(game.score(node["guess"], s)) == answer})


CHAINS = [("crush",), ("crush", "total"), ("nodes", "total"), ("total", "crush"), ("crush", "nodes", "total")]


@pytest.mark.parametrize("game", TINY_GAMES[:5] + [HARD_GAP_GAME], ids=str)
@pytest.mark.parametrize("chain", CHAINS, ids=",".join)
@pytest.mark.parametrize("hard", [False, True], ids=["free", "hard"])
def test_tie_break_chains_match_brute_force(game, chain, hard, search_paths):
    """Each key of the chain, compared in order, is the brute force's lexicographic least (ties to the lowest code)."""
    height = min_height(game, hard)
    figures, expected_tree = min_chain_tree(game, height, chain, hard)
    result = build(game, "worst-case", ",".join(chain), hard=hard)
    doc = result.document
    assert doc["root"] == tree_to_nodes(expected_tree)
    stats = doc["stats"]
    got = {"nodes": stats["nodes"], "total": stats["total_guesses"], "crush": stats["histogram"][str(height)]}
    assert tuple(got[k] for k in chain) == figures
    assert doc["objective"]["tie_breaks"] == list(chain) and doc["objective"]["hard_mode"] is hard
    assert doc["optimal"] is True
    check_document(doc)
    if hard:
        assert_still_possible(game, doc["root"], set(game.codes))


@pytest.mark.parametrize("game", TINY_GAMES + [HARD_GAP_GAME], ids=str)
@pytest.mark.parametrize("tie_break", ["nodes", "total"])
def test_hard_worst_case_matches_brute_force(game, tie_break, search_paths):
    height = min_height(game, hard=True)
    expected_cost, expected_tree = min_cost_tree(game, height, tie_break == "total", hard=True)
    result = build(game, "worst-case", tie_break, hard=True)
    assert result.cost == expected_cost
    assert result.document["root"] == tree_to_nodes(expected_tree)


@pytest.mark.parametrize("game", TINY_GAMES + [HARD_GAP_GAME], ids=str)
def test_hard_expected_tree_matches_brute_force(game, search_paths):
    expected_total, expected_tree = min_cost_tree(game, None, per_secret=True, hard=True)
    result = build(game, "expected", hard=True, workers=1)
    assert result.stats["total_guesses"] == expected_total
    assert result.document["root"] == tree_to_nodes(expected_tree)
    assert result.document["objective"]["hard_mode"] is True
    assert_still_possible(game, result.document["root"], set(game.codes))


@pytest.mark.parametrize("chain, message", [("crush,bogus", "unknown tie-break 'bogus'"), ("total,total", "twice")])
def test_bad_tie_break_chains_are_refused(chain, message):
    with pytest.raises(BactreeError, match=message):
        build(Game(2, "0123", False), "worst-case", chain)


def test_chain_weights_order_lexicographically():
    chain = cost_model.Cost.chain(("crush", "total"), 7, 5040)
    assert chain.weights == (0, 1, 7 * 5040 + 1)
    assert cost_model.Cost.chain(("nodes",), 7, 5040) is cost_model.NODES
    assert cost_model.Cost.chain(("total",), 7, 5040) is cost_model.TOTAL_GUESSES


@pytest.mark.parametrize("branching", [1, 2, 13, 19])
def test_level_fills_sum_the_depths_of_the_places_in_level_order(branching):
    """`level_fills` against placing the secrets one by one: 1 place at depth 1, b times more at each next depth."""
    expected, total, depth, room, left = [0], 0, 1, 1, 1
    for _ in range(1, 500):
        if left == 0:
            depth, room = depth + 1, room * branching
            left = room
        total += depth
        left -= 1
        expected.append(total)
    assert cost_model.level_fills(500, branching).tolist() == expected
    assert [cost_model.level_fill(s, branching) for s in range(500)] == expected
