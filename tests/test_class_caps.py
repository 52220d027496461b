"""Counting bounds per answer class (`bactree.search.height.class_caps`) against the brute force on tiny games."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from game_strategies import small_games, word_games
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_search import fits_within, least_total, most_solved_of, parts

from bactree.game.codes import encode_answer
from bactree.game import Game
from bactree.search.height import solver as search_height
from bactree.search.height.class_caps import code_orbits

GAMES = [Game(2, "123", True), Game(3, "123", True), Game(2, "1234", True), Game(3, "0123", False), Game(2, "01234", False)]


def answer_classes(game: Game, guess: str) -> dict:
    """Every code grouped by its answer to `guess`, all-bulls aside."""
    return parts(game, frozenset(game.codes), guess)


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_bounds_hold_every_class_and_are_exact_within_two(game):
    solver = search_height.Solver(game)
    caps = solver.class_caps
    tight = 0
    for g, guess in enumerate(game.codes):
        for answer, members in answer_classes(game, guess).items():
            for depth in range(1, 5):
                bound = caps.at(depth)[caps.orbit_of[g], encode_answer(game, answer)]
                exact = most_solved_of(game, members, depth)
                assert bound >= exact, (guess, answer, depth)
                if depth <= 2:
                    assert bound == exact, (guess, answer, depth)
                tight += bound < len(members)
    assert tight > 0  # the bounds say something on every one of these games


def class_caps_reference(solver: search_height.Solver, depth: int) -> np.ndarray:
    """The recursion of `bactree.search.height.class_caps`, code by code: bounds [orbit, answer] within `depth` guesses of
    each answer class of each orbit's first code."""
    table, solved, num_slots = solver.table.astype(np.int64), solver.solved, solver.num_slots
    orbit_of = solver.class_caps.orbit_of
    firsts = [int(np.flatnonzero(orbit_of == o)[0]) for o in range(orbit_of.max() + 1)]
    bounds = np.zeros((len(firsts), num_slots), np.int64)
    for d in range(1, depth + 1):
        deeper = np.zeros_like(bounds)
        for o, g in enumerate(firsts):
            for a in range(num_slots):
                members = np.flatnonzero(table[g] == a)
                best = 0
                for h in range(len(table)):
                    total = int(table[g, h] == a)
                    if d > 1:
                        for b in range(num_slots):
                            if b != solved:
                                total += min(int((table[h, members] == b).sum()), bounds[orbit_of[h], b])
                    best = max(best, total)
                deeper[o, a] = min(best, len(members))
        bounds = deeper
    return bounds


@settings(max_examples=15, deadline=None)
@given(small_games(max_codes=80))
def test_bounds_equal_the_recursion_computed_code_by_code(game):
    """`ClassCaps.at` (each code's shared counts made once, one of each distinct row kept) against the recursion."""
    solver = search_height.Solver(game)
    for depth in range(6):
        assert solver.class_caps.at(depth).tolist() == class_caps_reference(solver, depth).tolist(), depth


@settings(max_examples=25, deadline=None)
@given(word_games())
def test_a_word_lists_bounds_equal_the_recursion_and_hold(game):
    """A word list's codes are orbits of their own, counted afresh at each depth (`_class_caps_of_each_code`): the
    same bounds as the recursion, and none below what a tree can solve of its class."""
    solver = search_height.Solver(game)
    caps = solver.class_caps
    assert caps.orbit_of.tolist() == list(range(game.num_codes))
    for depth in range(5):
        assert caps.at(depth).tolist() == class_caps_reference(solver, depth).tolist(), depth
    for g, guess in enumerate(game.codes):
        for answer, members in answer_classes(game, guess).items():
            for depth in range(1, 4):
                assert caps.at(depth)[g, encode_answer(game, answer)] >= most_solved_of(game, members, depth)


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_whole_game_bound_holds(game):
    solver = search_height.Solver(game)
    everything = frozenset(game.codes)
    for depth in range(1, 5):
        assert solver.class_caps.whole(depth) >= most_solved_of(game, everything, depth)
        assert solver.class_caps.whole(depth) <= solver.caps[depth]


def test_the_bounds_beat_the_count_on_mastermind_3x4():
    """What the class bounds are for: the count allows more than any class holds."""
    game = Game(3, "1234", True)
    solver = search_height.Solver(game)
    assert solver.class_caps.whole(2) == most_solved_of(game, frozenset(game.codes), 2) == solver.caps[2]
    assert solver.class_caps.whole(3) < solver.caps[3]
    assert solver.class_caps.whole(4) < solver.caps[4]


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_orbits_are_the_codes_alike_under_relabellings(game):
    codes = np.array([[game.symbols.index(c) for c in code] for code in game.codes])
    orbit_of = code_orbits(codes, game.num_symbols)
    index = {code: i for i, code in enumerate(game.codes)}
    images = set()
    for perm in itertools.permutations(range(game.length)):
        for relabel in itertools.permutations(game.symbols):
            for i, code in enumerate(game.codes):
                image = "".join(relabel[game.symbols.index(code[p])] for p in perm)
                assert orbit_of[index[image]] == orbit_of[i]
                images.add((orbit_of[i], image))
    # codes of one orbit are images of each other: as many orbits as shapes of symbol counts
    shapes = {tuple(sorted(code.count(s) for s in set(code))) for code in game.codes}
    assert len(set(orbit_of.tolist())) == len(shapes)


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from([Game(3, "123", True), Game(2, "1234", True), Game(3, "0123", False), Game(3, "01234", False)]),
    steps=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=2),
    depth=st.integers(2, 4),
    hard=st.booleans(),
)
def test_find_guess_on_answer_classes_matches_brute_force(game, steps, depth, hard):
    """Answer classes and their shares of another class, where the class bounds prune most: every level in
    Python, the brute force's verdict.

    The guess found is also the one found without the class bounds: they drop
    only guesses that fail, and keep the order.
    """
    solver = search_height.Solver(game, hard=hard)
    subset, history = solver.all_guesses, ()
    for guess, pick in steps:
        classes = solver.split(subset, guess % solver.num_codes)
        if not classes:
            break
        subset, history = classes[pick % len(classes)], history + (guess % solver.num_codes,)
    secrets = frozenset(game.codes[x] for x in subset)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_height, "KERNEL_DEPTH", 1)
        found = solver.find_guess(subset, depth, history)
        patch.setattr(type(solver.class_caps), "fits", lambda self, guesses, counts, depth: np.ones(len(guesses), bool))
        patch.setattr(type(solver.class_caps), "whole", lambda self, depth: len(game.codes))
        unpruned = search_height.Solver(game, hard=hard).find_guess(subset, depth, history)
    assert (found >= 0) == fits_within(game, secrets, depth, hard)
    assert found == unpruned


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_a_part_over_its_class_cap_has_no_tree(game):
    """`Solver.over_class_cap` refutes only parts the brute force refutes, and it does refute some."""
    solver = search_height.Solver(game)
    refuted = 0
    for guess in range(solver.num_codes):
        for part in solver.split(solver.all_guesses, guess):
            for depth in (1, 2, 3):
                if solver.over_class_cap(guess, part, depth):
                    refuted += 1
                    assert not fits_within(game, frozenset(game.codes[x] for x in part), depth)
    assert refuted > 0


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from([Game(2, "123", True), Game(3, "123", True), Game(2, "1234", True), Game(3, "0123", False)]),
    guess=st.integers(0, 10**6),
    pick=st.integers(0, 10**6),
    keep=st.lists(st.booleans(), min_size=27, max_size=27),
)
def test_class_floors_bound_the_least_total_of_any_set_of_the_class(game, guess, pick, keep):
    """`ClassCaps.floors`: no tree takes fewer guesses in all on secrets of one answer class (brute force)."""
    solver = search_height.Solver(game)
    guess %= solver.num_codes
    classes = solver.split(solver.all_guesses, guess)
    members = classes[pick % len(classes)]
    chosen = [x for i, x in enumerate(members) if keep[i % len(keep)]] or list(members[:1])
    floors = solver.class_caps.floors(solver.num_codes)
    floor = floors[solver.class_caps.orbit_of[guess], solver.table[guess, members[0]], len(chosen)]
    assert floor <= least_total(game, frozenset(game.codes[x] for x in chosen))
    assert floors[solver.class_caps.orbit_of[guess], solver.table[guess, members[0]], 0] == 0
