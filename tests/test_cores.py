"""Cores of sets that no guess separates (`bactree.search.height.cores`): the kernels against plain numpy, the store, the search with it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_search import fits_within

from bactree.game import Game
from bactree.search import Solver
from bactree.search.height._core_kernels import _holds_core, _least_core, _store_core
from bactree.search.height._finder_kernels import _largest_fitting_part, _screened_by_classes, _screened_by_count, _three_left_guess, _three_left_search
from bactree.search.height._separator_kernels import _separators
from bactree.search.height.cores import CoreStore
from bactree.search.height.screens import CALLS_FIRST, MOST_SECRETS, NO_CLASSES, ClassScreen

TINY = Game(3, "012345", False)
GAMES = [TINY, Game(4, "0123456789", False), Game(4, "123456", True)]
SOLVERS = {game: Solver(game, mask_kernels=True) for game in GAMES}


def _separating_codes(table: np.ndarray, part: np.ndarray) -> np.ndarray:
    """Every code giving each secret of `part` its own answer, lowest first (plain numpy)."""
    answers = np.sort(table[part], axis=0)  # a column per code
    return np.flatnonzero((np.diff(answers, axis=0) != 0).all(axis=0))


def _part(game: Game, picks: list[int]) -> np.ndarray:
    return np.array(sorted({p % len(game.codes) for p in picks}), np.int64)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.lists(st.integers(0, 10**6), min_size=1, max_size=14), st.integers(1, 5000))
def test_separators_match_numpy(game, picks, limit):
    table = SOLVERS[game].table
    part = _part(game, picks)
    expected = _separating_codes(table, part)
    found = np.empty(limit, np.int64)
    distinct = np.zeros(table.shape[1], np.uint8)
    count = _separators(table, part, distinct, found)
    assert found[:count].tolist() == expected[:limit].tolist()
    if count < limit:  # every code scanned: each one's answers counted
        assert distinct.tolist() == [len(set(column)) for column in table[part].T.tolist()]


def _unseparated(game: Game, seed: int, size: int) -> np.ndarray | None:
    """A random set of `size` secrets of one answer class of a random guess, if no code separates it."""
    table = SOLVERS[game].table
    rng = np.random.default_rng(seed)
    row = table[rng.integers(len(game.codes))]
    answers, counts = np.unique(row, return_counts=True)
    wide = answers[counts >= size]
    if not len(wide):
        return None
    part = np.sort(rng.choice(np.flatnonzero(row == rng.choice(wide)), size, replace=False)).astype(np.int64)
    return None if len(_separating_codes(table, part)) else part


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10**9), st.integers(3, 40))
def test_least_core_is_a_minimal_set_without_separator(game, seed, size):
    """The core lies in the part, no code separates it, and every code-less secret removed lets one separate it.

    On 4 of 10 (5040 codes) the kernel's first few codes are not all of
    them, so its check against every code and its retries are exercised.
    """
    table = SOLVERS[game].table
    part = _unseparated(game, seed, size)
    if part is None:
        return
    distinct = np.zeros(table.shape[1], np.uint8)
    assert _separators(table, part, distinct, np.empty(1, np.int64)) == 0
    core = _least_core(table, part, distinct)
    assert set(core.tolist()) <= set(part.tolist()) and len(core) >= 3
    assert len(_separating_codes(table, core)) == 0
    for i in range(len(core)):
        assert len(_separating_codes(table, np.delete(core, i))) > 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 40), min_size=3, max_size=6), min_size=1, max_size=30),
       st.lists(st.lists(st.integers(0, 40), min_size=1, max_size=20), min_size=1, max_size=10),
       st.integers(4, 64))
def test_holds_core_is_containment(cores, parts, most):
    """`_holds_core` says whether a part holds a stored core, through the store's growth and its reset when full."""
    store = CoreStore(most_members=most)
    stored: list[set[int]] = []
    for members in cores:
        core = np.array(sorted(set(members)) + [100, 101][: max(0, 3 - len(set(members)))], np.int64)
        before = len(store)
        arrays = store.arrays()
        if len(store) < before:  # emptied at its size limit
            stored = []
        _store_core(core, *arrays)
        if len(store) > len(stored):
            stored.append(set(core.tolist()))
    inside = np.zeros(128, np.bool_)
    members, starts, chains, heads = store.members, store.starts, store.chains, store.heads  # as the kernel last saw them
    assert len(store) == len(stored)
    for picks in parts:
        part = np.array(sorted(set(picks), reverse=True), np.int64)  # any order
        held = _holds_core(part, members, starts, chains, heads, inside)
        assert held == any(core <= set(picks) for core in stored)
        assert not inside.any()


@pytest.mark.parametrize("extra", [2, 40])
def test_holds_core_by_pairs_and_by_walks(extra):
    """Cores sharing a lowest secret: walked when they are fewer than the part's secrets, else found by their pairs.

    Twenty cores of four secrets share the lowest, 0: parts of a core less
    or more one secret, with `extra` random others, are under twenty
    secrets (pairs looked up) or over (the cores walked).
    """
    store = CoreStore()
    arrays = store.arrays()
    rng = np.random.default_rng(extra)
    stored = [{0, *rng.choice(np.arange(1, 60), 3, replace=False).tolist()} for _ in range(20)]
    for core in stored:
        _store_core(np.array(sorted(core), np.int64), *arrays)
    inside = np.zeros(64, np.bool_)
    outcomes = set()
    for _ in range(300):
        picks = set(stored[rng.integers(len(stored))])
        picks.discard(int(rng.choice(sorted(picks)))) if rng.random() < 0.5 else None
        picks |= set(rng.choice(np.arange(1, 60), extra, replace=False).tolist())
        part = rng.permutation(sorted(picks)).astype(np.int64)
        held = _holds_core(part, *arrays[:4], inside)
        assert held == any(core <= picks for core in stored)
        outcomes.add(held)
    assert outcomes == {True, False}


def test_a_full_store_adds_nothing_and_starts_again():
    store = CoreStore(most_members=8)
    arrays = store.arrays()
    for low in range(0, 12, 3):
        _store_core(np.arange(low, low + 3), *arrays)
    assert len(store) == 2  # 8 member slots, 2 core slots: the third and fourth did not fit
    store.arrays()
    assert len(store) == 0


# Found by random sets (not the parts of a search): in hard mode a larger part may be separated by
# one of its own codes that a smaller unsolvable part lacks; the kernel once inferred it unsolvable.
HARD_SET = [1, 2, 17, 21, 23, 26, 29, 30, 34, 38, 42, 51, 57, 61, 62, 63, 64, 66, 69, 79, 82, 85, 88, 98, 101, 102, 115]


def test_hard_mode_infers_nothing_from_smaller_parts():
    solver = Solver(TINY, hard=True, mask_kernels=True)
    caps = solver.class_caps
    subset = np.array(HARD_SET, np.int64)
    guess, _ = _three_left_guess(
        solver.table, subset, solver.solved, solver.num_slots, caps.at(2), caps.orbit_of, solver.arrangements, True, -1, solver.cores.arrays(), NO_CLASSES
    )
    assert fits_within(TINY, frozenset(TINY.codes[i] for i in HARD_SET), 3, True)
    assert guess >= 0


@pytest.mark.parametrize("hard", [False, True])
@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), picks=st.lists(st.integers(0, 10**6), min_size=3, max_size=40))
def test_the_store_changes_no_search(hard, game, picks):
    """Random sets (parts of a search are tested in test_finder): the same guess after the same tries with the
    solver's store, which holds the cores of every earlier example, and with no memory at all."""
    solver = SOLVERS[game]
    caps = solver.class_caps
    args = (solver.table, _part(game, picks), solver.solved, solver.num_slots, caps.at(2), caps.orbit_of, solver.arrangements, hard, -1)
    assert _three_left_search(*args, True, solver.cores.arrays(), NO_CLASSES) == _three_left_search(
        *args, False, CoreStore().arrays(), NO_CLASSES
    )


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10**9), st.integers(1, 400), st.booleans())
def test_the_count_screen_matches_numpy(game, seed, size, by_class):
    """`_screened_by_count` (every code in one pass) and `_largest_fitting_part` (one code) give each code's
    largest part when every part is within its answer class's bound, else -1, as counted by numpy."""
    solver = SOLVERS[game]
    caps = solver.class_caps
    limits, orbit_of = (caps.at(2), caps.orbit_of) if by_class else solver.count_caps(2)
    rng = np.random.default_rng(seed)
    subset = np.sort(rng.choice(len(game.codes), min(size, len(game.codes)), replace=False)).astype(np.int64)
    screened = _screened_by_count(solver.table, subset, solver.solved, solver.num_slots, limits, orbit_of)
    tally = np.zeros(solver.num_slots, np.int64)
    for guess in rng.choice(len(game.codes), min(60, len(game.codes)), replace=False):
        counts = np.bincount(solver.table[subset, guess], minlength=solver.num_slots)
        counts[solver.solved] = 0
        fits = (counts <= limits[orbit_of[guess]]).all()
        expected = int(counts.max()) if fits else -1
        assert screened[guess] == expected
        assert _largest_fitting_part(solver.table, guess, subset, solver.solved, solver.num_slots, limits, orbit_of, tally) == expected
    assert not tally.any()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10**9), st.integers(3, 1500), st.booleans(), st.booleans())
def test_the_screen_by_answer_classes_equals_the_count(game, seed, size, one_class, inside):
    """`_screened_by_classes` keeps the codes `_screened_by_count` keeps, with the same largest parts, on a part
    of the set whose classes it holds (the search gives it parts of `CLASS_SCREEN_LEAST` or more); it declines
    (an empty array) for parts under its least size and for sets not inside that one; no classes are made for
    sets over `MOST_SECRETS`."""
    solver = SOLVERS[game]
    caps = solver.class_caps
    rng = np.random.default_rng(seed)
    outer = np.sort(rng.choice(len(game.codes), min(size, len(game.codes)), replace=False)).astype(np.int64)
    row = solver.table[rng.integers(len(game.codes))]
    same = row[outer] == row[outer[0]]
    part = outer[same] if one_class or same.all() else outer[~same]  # one answer class of a guess, or the rest
    if not inside:
        part = np.union1d(part, rng.integers(len(game.codes), size=2)).astype(np.int64)
    classes = ClassScreen(solver.table, outer, solver.num_slots, solver.solved)
    classes.counted[0] = CALLS_FIRST
    screened = _screened_by_classes(part, caps.at(2), caps.orbit_of, classes.arrays(), 0)
    if not np.isin(part, outer).all() or len(outer) > MOST_SECRETS:
        assert len(screened) == 0
    else:
        counted = _screened_by_count(solver.table, part, solver.solved, solver.num_slots, caps.at(2), caps.orbit_of)
        assert screened.tolist() == counted.tolist()
        declined = len(_screened_by_classes(part, caps.at(2), caps.orbit_of, classes.arrays(), len(part) + 1)) == 0
        assert declined and len(_screened_by_classes(part, caps.at(2), caps.orbit_of, classes.arrays(), len(part)))
    args = (solver.table, part, solver.solved, solver.num_slots, caps.at(2), caps.orbit_of, solver.arrangements, False, -1, True)
    assert _three_left_search(*args, solver.cores.arrays(), classes.arrays()) == _three_left_search(
        *args, CoreStore().arrays(), NO_CLASSES
    )


def test_a_screen_is_made_only_after_searches_that_screened_by_count():
    """Each three-left search that screens its codes by count adds one to the screen's counter; the masks are made
    once `CALLS_FIRST` have."""
    solver = SOLVERS[TINY]
    caps = solver.class_caps
    screen = ClassScreen(solver.table, solver.all_guesses, solver.num_slots, solver.solved)
    part = solver.all_guesses[::7]
    args = (solver.table, part, solver.solved, solver.num_slots, caps.at(2), caps.orbit_of, solver.arrangements, False, -1, True)
    for calls in range(CALLS_FIRST):
        assert screen.arrays()[0].size == 0 and screen.counted[0] == calls
        _three_left_search(*args, CoreStore().arrays(), screen.arrays())
    bits, by_size, position, counted = screen.arrays()
    assert bits.shape == (len(TINY.codes), solver.num_slots, 2) and position.tolist() == list(range(len(TINY.codes)))
    assert counted[0] == CALLS_FIRST


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_a_set_holding_one_three_guesses_do_not_solve_is_refuted_at_once_and_rightly(game, hard):
    """`Solver.find_guess` with three guesses left keeps the sets it refutes (`Solver.unsolved`) and refutes a set
    holding one without a search: random sets, sets grown from refuted ones and refuted ones less a secret give the verdict of the kernel with
    nothing stored (and of the brute force on the smallest game), and the shortcut is taken; in hard mode, where a
    larger set may be solved by a code of its own, nothing is kept."""
    solver = Solver(game, hard=hard, mask_kernels=True)
    caps = solver.class_caps
    rng = np.random.default_rng(7)
    refuted: list[np.ndarray] = []
    for _ in range(120):
        draw = rng.random()
        if refuted and draw < 0.4:  # grown from a refuted set: refuted too, by the store
            grown = np.union1d(refuted[rng.integers(len(refuted))], rng.choice(len(game.codes), rng.integers(1, 4)))
            subset = grown.astype(np.int64)
        elif refuted and draw < 0.6:  # a refuted set less one secret: often solved, and the store must say so
            shrunk = refuted[rng.integers(len(refuted))]
            subset = np.delete(shrunk, 0 if draw < 0.5 else rng.integers(len(shrunk)))  # its least, or any
        else:  # one answer class of a random guess, thinned: solved or not
            row = solver.table[rng.integers(len(game.codes))]
            members = np.flatnonzero(row == rng.choice(row))
            subset = np.sort(rng.choice(members, min(len(members), rng.integers(3, 120)), replace=False)).astype(np.int64)
        if len(subset) < 3:
            continue
        solved = solver.find_guess(subset, 3) >= 0
        alone, _ = _three_left_guess(
            solver.table, subset, solver.solved, solver.num_slots, caps.at(2), caps.orbit_of, solver.arrangements, hard, -1,
            CoreStore().arrays(), NO_CLASSES,
        )
        assert solved == (alone >= 0)
        if game is TINY:
            assert solved == fits_within(game, frozenset(game.codes[i] for i in subset), 3, hard)
        if not solved:
            refuted.append(subset)
    if hard:
        assert len(refuted) > 0 and len(solver.unsolved) == 0
    else:
        assert solver.stats.unsolved_hits > 0 and len(solver.unsolved) > 0
