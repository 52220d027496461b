"""A set's own symmetries (`_set_automorphisms`, `Solver.set_canonical_guesses`) against brute force on tiny games."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_search import (
    are_images, canonical_codes, fits_within, guess_total, guesses, least_total, set_canonical_codes, set_symmetries,
    useful_parts,
)

from bactree.game.codes import encode_answer, num_slots
from bactree.game import Game
from bactree.search import TOTAL_GUESSES, CostSearch
from bactree.search.cost import search as search_cost
from bactree.search.height import guess_symmetry
from bactree.search.height import solver as search_height
from bactree.search._symmetry import _answer_counts, _least_in_orbits, _set_automorphisms
from bactree.search.cost.refine import refine
from bactree.search.height.refutations import RefutationStore

GAMES = [Game(3, "01234", False), Game(2, "0123", False), Game(3, "123", True), Game(2, "1234", True), Game(3, "0123", False)]


def subset_of(game: Game, picks: list[int]) -> np.ndarray:
    return np.unique(np.array([p % len(game.codes) for p in picks], np.int64))


def met_sets(solver: search_height.Solver, steps: list[tuple[int, int]]):
    """Sets a search meets: for each (guess, pick) of `steps`, the parts the guess leaves of the set so far,
    the one picked (where the walk goes on), and the history with the guess; until a guess leaves nothing.
    """
    subset, history = solver.all_guesses, ()
    for guess, pick in steps:
        guess %= solver.num_codes
        parts = solver.split(subset, guess)
        if not parts:
            return
        subset, history = parts[pick % len(parts)], history + (guess,)
        yield parts, subset, history


def every_symmetry(solver: search_height.Solver, subset: np.ndarray) -> tuple:
    """`_set_automorphisms` of the set with a cap no tiny game reaches."""
    member = np.zeros(solver.num_codes, np.bool_)
    member[subset] = True
    return _set_automorphisms(
        solver.codes, subset, member, solver.perms, solver.game.num_symbols, solver.index_of(), 1 << 20
    )


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_the_listed_symmetries_are_the_whole_group(game, picks):
    """Each listed map keeps the set, and with the free symbols' relabellings they count the brute force's group."""
    solver = search_height.Solver(game)
    subset = subset_of(game, picks)
    rows, maps, used, complete = every_symmetry(solver, subset)
    assert complete
    secrets = frozenset(game.codes[x] for x in subset)
    free = game.num_symbols - int(used.sum())
    assert len(rows) * math.factorial(free) == len(set_symmetries(game, secrets))
    for perm, symbol_map in zip(rows, maps):
        images = set()
        for x in subset:
            image = [0] * game.length
            for i, symbol in enumerate(solver.codes[x]):
                image[perm[i]] = symbol_map[symbol]
            images.add("".join(game.symbols[s] for s in image))
        assert images == secrets


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_least_in_orbits_of_a_set_group_are_the_orbit_minima(game, picks):
    solver = search_height.Solver(game)
    subset = subset_of(game, picks)
    rows, maps, used, _ = every_symmetry(solver, subset)
    least = _least_in_orbits(solver.codes, rows, maps, used)
    got = {code for code, keep in zip(game.codes, least) if keep}
    assert got == set_canonical_codes(game, frozenset(game.codes[x] for x in subset))


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_orbit_names_are_the_least_images_under_the_set_group(game, picks):
    """`set_orbit_names`: every code is named by the least code a symmetry of the set sends it to."""
    solver = search_height.Solver(game)
    subset = subset_of(game, picks)
    group = set_symmetries(game, frozenset(game.codes[x] for x in subset))
    names = solver.set_orbit_names(subset)
    assert [game.codes[name] for name in names] == [min(images[code] for images in group) for code in game.codes]


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(GAMES), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=2))
def test_after_a_history_the_set_group_holds_its_stabiliser(game, picks):
    """The set a history leaves: its canonical guesses are those of its own group, a subset of the history's."""
    solver = search_height.Solver(game)
    history = tuple(p % len(game.codes) for p in picks)
    subset = solver.all_guesses
    for guess in history:  # the largest part of each guess's answers, as a search would meet it
        parts = solver.split(subset, guess)
        if not parts:
            return
        subset = max(parts, key=len)
    got = {game.codes[g] for g in solver.set_canonical_guesses(subset, history)}
    assert got == set_canonical_codes(game, frozenset(game.codes[x] for x in subset))
    assert got <= canonical_codes(game, [game.codes[h] for h in history])


def test_past_the_cap_the_history_guesses_stay(monkeypatch):
    game = Game(3, "01234", False)
    solver = search_height.Solver(game)
    monkeypatch.setattr(guess_symmetry, "SET_SYMMETRY_CAP", 0)
    got = solver.set_canonical_guesses(solver.all_guesses, ())
    assert np.array_equal(got, solver.canonical_guesses(()))


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from([Game(3, "01234", False), Game(3, "123", True), Game(2, "1234", True), Game(3, "0123", False)]),
    steps=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), max_size=2),
    depth=st.integers(2, 4),
    hard=st.booleans(),
)
def test_find_guess_with_set_symmetry_matches_brute_force(game, steps, depth, hard):
    """Every level searched in Python (where the set's symmetries prune): the verdict is the brute force's.

    The set is one a search meets: what some guesses and answers leave.
    """
    solver = search_height.Solver(game, hard=hard)
    subset, history = solver.all_guesses, ()
    for _, subset, history in met_sets(solver, steps):
        pass
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_height, "KERNEL_DEPTH", 1)
        found = solver.find_guess(subset, depth, history)
    assert (found >= 0) == fits_within(game, frozenset(game.codes[x] for x in subset), depth, hard)


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from([Game(3, "01234", False), Game(3, "123", True), Game(2, "1234", True), Game(3, "0123", False)]),
    steps=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=2),
    hard=st.booleans(),
    set_symmetry_from=st.sampled_from([3, 10**9]),
)
def test_cost_search_with_set_symmetry_matches_brute_force(game, steps, hard, set_symmetry_from):
    """Every set searched in Python over one guess per orbit of its own symmetries (from 3 secrets up), or of its
    history's only (`SET_SYMMETRY_MIN_SET` past every set): the least total and the lowest guess reaching it are the
    brute force's."""
    solver = search_height.Solver(game, hard=hard)
    for _, subset, history in met_sets(solver, steps):
        pass
    secrets = frozenset(game.codes[x] for x in subset)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_cost, "SYMMETRY_MIN_SET", 3)
        patch.setattr(search_cost, "SET_SYMMETRY_MIN_SET", set_symmetry_from)
        patch.setattr(search_cost, "KERNEL_MAX_SET", 2)
        total, guess = CostSearch(solver, TOTAL_GUESSES).best_guess(subset, solver.num_codes, history)
    assert total == least_total(game, secrets, hard)
    if len(secrets) > 1:
        useful = [g for g in guesses(game, secrets, hard) if useful_parts(game, secrets, g) is not None]
        assert game.codes[guess] == min(g for g in useful if guess_total(game, secrets, g, hard) == total)


def test_the_cost_search_uses_set_symmetry_from_its_least_size_and_refine_at_every_size(monkeypatch):
    """Sets of `SET_SYMMETRY_MIN_SET` or more get one guess per orbit of their own symmetries, smaller ones the
    history's; `refine` (a budgeted search, whose budget counts sets) uses the set's at every size."""
    game = Game(3, "01234", False)
    solver = search_height.Solver(game)
    sizes = []
    monkeypatch.setattr(search_height.Solver, "set_canonical_guesses",
                        lambda self, subset, history: sizes.append(len(subset)) or self.canonical_guesses(history))
    monkeypatch.setattr(search_cost, "SYMMETRY_MIN_SET", 3)
    monkeypatch.setattr(search_cost, "KERNEL_MAX_SET", 2)
    monkeypatch.setattr(search_cost, "SET_SYMMETRY_MIN_SET", 20)
    search = CostSearch(solver, TOTAL_GUESSES)
    search.solve(solver.all_guesses, 6, kernel=False)
    assert sizes and min(sizes) >= 20, sizes
    assert search.nodes_searched > len(sizes)  # the smaller sets were searched too, without them
    sizes.clear()
    refine(CostSearch(solver, TOTAL_GUESSES), solver.all_guesses, 6, (), budget=10**6)
    assert sizes and min(sizes) < 20, sizes


def random_image(game: Game, codes: list[str], seed: int) -> list[str]:
    """The codes under a random relabelling of positions and symbols."""
    rng = np.random.default_rng(seed)
    perm = rng.permutation(game.length)
    relabel = dict(zip(game.symbols, rng.permutation(list(game.symbols))))
    images = []
    for code in codes:
        image = [""] * game.length
        for i, symbol in enumerate(code):
            image[perm[i]] = relabel[symbol]
        images.append("".join(image))
    return images


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=20),
    other=st.lists(st.integers(0, 10**6), min_size=1, max_size=20),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_store_finds_every_image_and_nothing_else(game, picks, other, seed):
    solver = search_height.Solver(game)
    store = RefutationStore(solver.codes, solver.table, solver.perms, game.num_symbols, solver.index_of())
    subset = subset_of(game, picks)
    store.add(subset, 3)
    image = np.array(sorted(game.code_index[c] for c in random_image(game, [game.codes[x] for x in subset], seed)))
    assert store.refuted(image, 3)
    assert not store.refuted(image, 4)  # another depth is another question
    probe = subset_of(game, other)
    secrets = [frozenset(game.codes[x] for x in s) for s in (subset, probe)]
    assert store.refuted(probe, 3) == are_images(game, *secrets)


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from([Game(3, "01234", False), Game(3, "123", True), Game(2, "1234", True), Game(3, "0123", False)]),
    steps=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), max_size=3),
    depth=st.integers(3, 4),
    hard=st.booleans(),
)
def test_find_guess_with_the_store_matches_brute_force(game, steps, depth, hard):
    """One solver asked about many sets, every refutation of 3 or more secrets stored: verdicts stay the brute force's."""
    solver = search_height.Solver(game, hard=hard)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_height, "STORE_MIN_SET", 3)
        patch.setattr(search_height, "KERNEL_DEPTH", 2)
        for parts, _, history in met_sets(solver, steps):
            for part in parts:  # every sibling asked too, so images of earlier refutations come up
                found = solver.find_guess(part, depth, history)
                assert (found >= 0) == fits_within(game, frozenset(game.codes[x] for x in part), depth, hard)


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_answer_counts_count_each_secrets_answers_from_the_set(game, picks):
    """`_answer_counts`, the shape key's rows, against counting answers with `Game.score`."""
    solver = search_height.Solver(game)
    subset = subset_of(game, picks)
    counts = _answer_counts(solver.table, subset, num_slots(game))
    for i, x in enumerate(subset):
        expected = np.zeros(num_slots(game), np.int64)
        for y in subset:
            expected[encode_answer(game, game.score(game.codes[x], game.codes[y]))] += 1
        assert counts[i].tolist() == expected.tolist()
