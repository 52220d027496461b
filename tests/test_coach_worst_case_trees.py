"""The worst-case objective with worst-case trees: subtree heights as proven upper bounds, exact only at the root.

Trees built here for tiny games are checked node by node against brute
force (tests/naive_search.py), including a node whose subtree is taller than
its set's least height (so a subtree's height is a bound, not a value); the
shipped trees' bounds are checked against the search without them.
"""

from __future__ import annotations

from functools import lru_cache

import pytest
from naive_search import fits_within, guess_height

from bactree.pipeline.build import build
from bactree.coach import analyse, read_history
from bactree.coach.analysis import analyse_position
from bactree.coach.engine import WORST_CASE, Engine
from bactree.coach.tree_values import TreeValues
from bactree.game import Game, preset
from bactree.walker import Tree

PLENTY = 600.0  # seconds: tiny games are always solved exactly
TINY = [  # (game, tie-break, hard): the first two have a subtree taller than its set's least height
    (Game(3, "01234", False), "nodes", False),
    (Game(3, "1234", True), "nodes", False),
    (Game(3, "01234", False), "total", True),
    (Game(3, "123", True), "crush,total", False),
]


def least_height(game: Game, secrets: frozenset[str], hard: bool) -> int:
    """Brute force, by depth: the least depth within which some tree finds every secret."""
    depth = 1
    while not fits_within(game, secrets, depth, hard):
        depth += 1
    return depth


@lru_cache(maxsize=None)
def tiny_tree(game: Game, tie_break: str, hard: bool) -> TreeValues:
    return TreeValues(Tree(game, build(game, WORST_CASE, tie_break, hard=hard).document, f"tiny-{tie_break}"))


def positions(tree: TreeValues):
    """(history, node, secrets) at every node of the tree."""
    game = tree.game
    stack = [((), tree.tree.root, frozenset(game.codes))]
    while stack:
        history, node, secrets = stack.pop()
        yield history, node, secrets
        for key, child in (node.get("next") or {}).items():
            part = frozenset(s for s in secrets if str(game.score(node["guess"], s)) == key)
            stack.append(((*history, f"{node['guess']}={key}"), child, part))


@pytest.mark.parametrize(("game", "tie_break", "hard"), TINY, ids=str)
def test_height_bounds_hold_at_every_node_and_are_exact_at_the_root(game, tie_break, hard):
    tree = tiny_tree(game, tie_break, hard)
    taller = 0
    for history, node, secrets in positions(tree):
        on = tree.locate(read_history(game, history).pairs)
        assert on is not None and on.node is node
        lower, upper = tree.height_bounds(on)
        least = least_height(game, secrets, hard)
        assert lower <= least <= upper == tree.height(node)
        assert lower == (0 if history else least)  # the root alone is settled by the tree
        taller += upper > least
    if tie_break == "nodes":
        assert taller > 0  # a subtree chosen for its nodes within the guesses left: taller than it needs to be


@pytest.mark.parametrize(("game", "tie_break", "hard"), TINY, ids=str)
def test_values_with_a_tree_equal_brute_force_at_every_node(game, tie_break, hard):
    tree = tiny_tree(game, tie_break, hard)
    found = Engine(game, WORST_CASE, hard, tree)
    for history, node, secrets in positions(tree):
        position = read_history(game, history)
        for named in {node["guess"], max(secrets)}:  # the tree's guess (its parts bounded by the tree) and another
            result = analyse_position(position, 3, named, WORST_CASE, hard, PLENTY, found)
            assert result.complete and result.source.startswith("tree")
            assert result.optimum.value == least_height(game, secrets, hard), history
            for entry in [*result.best, result.guess]:
                assert entry.value == guess_height(game, secrets, entry.guess, hard), (history, entry)


def test_a_subtree_taller_than_needed_is_not_shown_as_the_value():
    game, tie_break, hard = TINY[0]
    tree = tiny_tree(game, tie_break, hard)
    found = Engine(game, WORST_CASE, hard, tree)
    for history, node, secrets in positions(tree):
        least = least_height(game, secrets, hard)
        if tree.height(node) > least:
            result = analyse_position(read_history(game, history), 1, None, WORST_CASE, hard, PLENTY, found)
            assert result.optimum.value == least < tree.height(node)
            return
    pytest.fail("no subtree taller than its set's least height")


ROOTS = [(preset("mastermind"), False, 5), (preset("bulls-cows"), True, 7), (preset("bulls-cows"), False, 7)]


@pytest.mark.parametrize(("game", "hard", "height"), ROOTS, ids=str)
def test_the_root_of_an_optimal_shipped_tree_is_exact_at_once(game, hard, height):
    result = analyse(game, [], top=1, objective=WORST_CASE, hard=hard, seconds=0.0)
    assert result.complete and result.optimum.value == result.best[0].value == height
    assert result.source.startswith("tree")
    fresh = Engine(game, WORST_CASE, hard)  # without the tree and without time: a bound only
    alone = analyse_position(read_history(game, []), 1, None, WORST_CASE, hard, 0.0, fresh)
    assert not alone.complete and alone.optimum.upper is None


def test_the_shipped_choice_and_its_height_bounds():
    crush = TreeValues.shipped(preset("bulls-cows"), False, WORST_CASE)
    assert crush is not None and crush.name.endswith("bulls-cows-4x10-crush.json")  # least total among the optimal
    hard = TreeValues.shipped(preset("bulls-cows"), True, WORST_CASE)
    assert hard is not None and hard.name.endswith("bulls-cows-4x10-hard-worst-case.json")
    five = TreeValues.shipped(Game(5, "0123456789", False), False, WORST_CASE)  # proven optimal (session 37)
    assert five is not None and five.height_bounds(five.locate(())) == (7, 7)


def test_a_recorded_lower_bound_counts_only_for_a_tree_built_for_the_height_alone():
    game, tie_break, hard = TINY[3]
    document = build(game, WORST_CASE, tie_break, hard=hard).document
    height = document["stats"]["max_guesses"]
    for tie_breaks, expected in (([], height - 1), (["nodes"], 0)):
        unproven = {**document, "optimal": False, "objective": {**document["objective"], "tie_breaks": tie_breaks},
                    "stats": {**document["stats"], "lower_bound": height - 1}}
        tree = TreeValues(Tree(game, unproven, "unproven"))
        assert tree.height_bounds(tree.locate(())) == (expected, height)


MASTERMIND_PATHS = [  # along the shipped tree (mastermind-4x6-crush.json, first guess 1123), relabelled, and off it
    ["1123=0B2C"], ["1123=0B1C", "2445=1B2C"], ["1123=1B0C", "1445=1B1C"], ["1123=0B2C", "2435=2B1C", "6432=1B2C"],
    ["4456=0B1C"], ["6653=1B1C"], ["1234=0B1C"], ["1122=0B1C", "2344=1B1C"],
]


@pytest.mark.parametrize("history", MASTERMIND_PATHS, ids=" ".join)
def test_mastermind_worst_case_values_with_the_tree_equal_the_search_and_bounds_hold_out_of_time(history):
    game = preset("mastermind")
    tree = TreeValues.shipped(game, False, WORST_CASE)
    position = read_history(game, history)
    on = tree.locate(position.pairs)
    guess = on.symmetry.inverse()(on.node["guess"]) if on is not None else game.codes[0]
    with_tree = analyse_position(position, 3, guess, WORST_CASE, False, PLENTY, Engine(game, WORST_CASE, False, tree))
    searched = analyse(game, history, top=3, guess=guess, objective=WORST_CASE, seconds=PLENTY, use_shipped=False)
    assert with_tree.complete and searched.complete
    assert with_tree.source.startswith("tree") == (on is not None)
    assert [v.value for v in with_tree.best] == [v.value for v in searched.best]
    assert with_tree.guess.value == searched.guess.value
    hurried = analyse_position(position, 3, guess, WORST_CASE, False, 0.0, Engine(game, WORST_CASE, False, tree))
    best, truth = searched.optimum.value, searched.guess.value
    assert hurried.optimum.lower <= best and (hurried.optimum.upper is None or best <= hurried.optimum.upper)
    assert hurried.guess.lower <= truth and (hurried.guess.upper is None or truth <= hurried.guess.upper)
    if on is not None:  # no time to search: the tree still bounds the best value and its own guess from above
        assert hurried.optimum.upper is not None and hurried.guess.upper is not None


def test_out_of_time_on_the_tree_the_bounds_are_the_search_floor_and_the_subtree_height():
    game = preset("bulls-cows")
    tree = TreeValues.shipped(game, False, WORST_CASE)
    position = read_history(game, ["0123=0B2C"])  # 1260 secrets: the search needs seconds to settle 5 or 6
    on = tree.locate(position.pairs)
    assert tree.height_bounds(on) == (0, 6)
    own = on.symmetry.inverse()(on.node["guess"])
    hurried = analyse_position(position, 1, own, WORST_CASE, False, 0.0, Engine(game, WORST_CASE, False, tree))
    assert not hurried.complete
    assert (hurried.optimum.lower, hurried.optimum.upper) == (hurried.guess.lower, hurried.guess.upper) == (4, 6)
