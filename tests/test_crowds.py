"""Crowds: more rearrangements of one multiset of symbols than d guesses can tell apart (`Solver.crowd_limit`).

The bound against the brute force on tiny games, the kernels that find
crowded parts against a plain reference, and the searches that use them
against the same searches with the bound switched off.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_search import fits_within, parts

from bactree.game import Game
from bactree.search import Solver
from bactree.search.height._crowd_kernels import MASK_MEMBERS_MOST, _crowd_masks, _crowded, _crowded_guesses, _crowded_in_planes, _crowds, _uncrowded_guesses
from bactree.search.height._finder_kernels import _three_left_search
from bactree.search.height.cores import CoreStore
from bactree.search.height.crowds import CrowdCache, crowd_limits
from bactree.search.height.screens import NO_CLASSES

TINY_GAMES = [Game(3, "0123", False), Game(3, "012345", False), Game(3, "1234", True)]
MIDDLE_GAMES = [Game(4, "0123456789", False), Game(4, "123456", True)]
SOLVERS = {game: Solver(game, mask_kernels=True) for game in TINY_GAMES + MIDDLE_GAMES}


def _multiset(code: str) -> str:
    return "".join(sorted(code))


@pytest.mark.parametrize("game", TINY_GAMES, ids=str)
def test_more_rearrangements_than_the_limit_are_never_solved(game):
    """Every set of rearrangements of one multiset larger than `crowd_limit(d)` has no tree of d guesses (brute
    force), for d = 1 to 3; and the limit for 2 guesses is met: some n of them are solved within 2."""
    solver = SOLVERS[game]
    rng = np.random.default_rng(1)
    groups = Counter(_multiset(code) for code in game.codes)
    met = False
    for multiset in groups:
        group = [code for code in game.codes if _multiset(code) == multiset]
        for depth in (1, 2, 3):
            limit = solver.crowd_limit(depth)
            for size in range(limit + 1, len(group) + 1):
                for _ in range(3):
                    secrets = frozenset(rng.choice(group, size, replace=False).tolist())
                    assert not fits_within(game, secrets, depth)
        if len(group) >= game.length:
            met |= any(
                fits_within(game, frozenset(rng.choice(group, game.length, replace=False).tolist()), 2) for _ in range(20)
            )
    assert met


def _crowd_limits_reference(game: Game, most_depth: int) -> list[int]:
    """L(d) for d = 0 to `most_depth` by the recursion of `bactree.search.height.crowds`, over every multiset of the
    game (not one per shape), its bulls counted code by code."""
    groups = defaultdict(list)
    for code in game.codes:
        groups[_multiset(code)].append(code)
    n = game.length
    limits = [min(depth, 1) for depth in range(most_depth + 1)]
    for group in groups.values():
        counts = [
            [sum(1 for x in group if sum(a == b for a, b in zip(guess, x)) == bulls) for bulls in range(n + 1)]
            for guess in game.codes
        ]
        level = 1
        for depth in range(2, most_depth + 1):
            level = max(sum(min(level, count) for count in row[:n]) + row[n] for row in counts)
            limits[depth] = max(limits[depth], level)
    return limits


@pytest.mark.parametrize("game", TINY_GAMES + [Game(4, "123456", True)], ids=str)
def test_crowd_limits_match_a_plain_count(game):
    """`Solver.crowd_limit` against the recursion counted over every multiset, to a depth past where it stops
    growing, and never above n ** (depth - 1)."""
    solver = SOLVERS[game]
    expected = _crowd_limits_reference(game, 6)
    assert [solver.crowd_limit(depth) for depth in range(7)] == expected
    codes, multiset_of = solver.codes, solver.arrangements[0]
    assert crowd_limits(codes, multiset_of, cells=1) == crowd_limits(codes, multiset_of)  # one member at a time
    widest = max(Counter(_multiset(code) for code in game.codes).values())
    plain = [0] + [min(game.length ** (depth - 1), widest) for depth in range(1, 7)]
    uncounted = crowd_limits(codes, multiset_of, most_cells=0)  # every shape past the budget: the plain limits
    assert uncounted + [uncounted[-1]] * (7 - len(uncounted)) == plain
    assert all(limit <= game.length ** (depth - 1) for depth, limit in enumerate(expected) if depth)


def test_the_crowd_limits_of_5_of_10():
    """5 of 10: 1, 5, 21, 73, then all 120 rearrangements. By hand: to a guess that is one of them, 44, 45, 20
    and 10 of the other 119 give 0 to 3 bulls (derangements, one fixed point, two, three), so three guesses solve
    4 * 5 + 1 and four 21 + 21 + 20 + 10 + 1; other guesses do no better (a guess sharing 4 symbols gives 3 bulls
    to 4 of them and 4 bulls to 1)."""
    game = Game(5, "0123456789", False)
    codes = np.array([[int(c) for c in code] for code in game.codes], np.uint8)
    multisets = {m: i for i, m in enumerate(sorted({_multiset(code) for code in game.codes}))}
    assert crowd_limits(codes, np.array([multisets[_multiset(code)] for code in game.codes])) == [0, 1, 5, 21, 73, 120]


def _crowded_reference(game: Game, subset: np.ndarray, guess: int, most: int) -> bool:
    """A part of `guess` (all-bulls aside) holds more than `most` secrets of one multiset: by splitting the codes."""
    secrets = frozenset(game.codes[i] for i in subset)
    split = parts(game, secrets, game.codes[guess])
    return any(
        max(Counter(_multiset(code) for code in part).values()) > most
        for answer, part in split.items() if answer.bulls < game.length
    )


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TINY_GAMES + MIDDLE_GAMES), st.integers(0, 10**9), st.integers(1, 6))
def test_crowded_guesses_match_a_plain_split(game, seed, most):
    solver = SOLVERS[game]
    rng = np.random.default_rng(seed)
    size = int(rng.integers(1, min(len(game.codes), 200) + 1))
    subset = np.sort(rng.choice(len(game.codes), size, replace=False)).astype(np.int64)
    guesses = rng.choice(len(game.codes), min(len(game.codes), 40), replace=False).astype(np.int64)
    multiset_of, _, codes, num_symbols = solver.arrangements
    crowded = _crowded_guesses(
        solver.table, guesses, subset, multiset_of, codes, num_symbols, most, solver.solved, solver.num_slots
    )
    assert crowded.tolist() == [_crowded_reference(game, subset, int(g), most) for g in guesses]
    crowds, starts = _crowds(subset, multiset_of, most)
    counts = Counter(_multiset(game.codes[i]) for i in subset)
    assert sorted(game.codes[i] for i in crowds) == sorted(game.codes[i] for i in subset if counts[_multiset(game.codes[i])] > most)
    assert len(starts) - 1 == sum(1 for c in counts.values() if c > most)
    # One by one: reading the table, and the bit planes (no group here passes 64 members).
    masks = _crowd_masks(codes, num_symbols, crowds, starts)
    tally = np.zeros(solver.num_slots, np.int64)
    for guess, expected in zip(guesses, crowded.tolist()):
        assert _crowded(solver.table, guess, crowds, starts, solver.solved, most, tally) == expected
        assert not len(crowds) or _crowded_in_planes(codes, guess, masks, starts, most) == expected
    assert not tally.any()
    if len(crowds):  # the three-left kernel's pass: every code, the bulls totals first, in the kernel's order
        member = np.isin(np.arange(len(game.codes)), subset)
        order = np.empty(len(game.codes), np.int64)
        kept = _uncrowded_guesses(codes, subset, member, False, masks, starts, most, order)
        every = subset.tolist() + np.flatnonzero(~member).tolist()
        table = solver.table
        assert order[:kept].tolist() == [g for g in every if not _crowded(table, g, crowds, starts, solver.solved, most, tally)]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TINY_GAMES + MIDDLE_GAMES), st.integers(0, 10**9), st.integers(1, 6), st.sampled_from([4, 1 << 10]))
def test_a_cached_crowd_pass_finds_no_guess_where_the_kernels_pass_does(game, seed, most, slots):
    """`CrowdCache.leave_no_guess` is True exactly when `_uncrowded_guesses` keeps no code, on sets made of a few
    multisets' rearrangements and some other codes, asked in turn of one cache (crowds found again), full or not."""
    solver = SOLVERS[game]
    multiset_of, _, codes, num_symbols = solver.arrangements
    arrangements = (multiset_of, most, codes, num_symbols)
    rng = np.random.default_rng(seed)
    cache = CrowdCache(len(game.codes), slots=slots, cells=1 << 16)
    shapes = np.unique(multiset_of)
    for _ in range(12):
        chosen = rng.choice(shapes, int(rng.integers(1, 4)), replace=False)
        picks = [np.flatnonzero(multiset_of == shape) for shape in chosen]
        picks = [rng.choice(p, int(rng.integers(1, min(len(p), 64) + 1)), replace=False) for p in picks]
        others = rng.choice(len(game.codes), int(rng.integers(0, 20)), replace=False)
        subset = np.unique(np.concatenate(picks + [others])).astype(np.int64)
        crowds, starts = _crowds(subset, multiset_of, most)
        masks = _crowd_masks(codes, num_symbols, crowds, starts)
        if masks.shape[0]:
            member = np.isin(np.arange(len(game.codes)), subset)
            order = np.empty(len(game.codes), np.int64)
            expected = _uncrowded_guesses(codes, subset, member, False, masks, starts, most, order) == 0
        else:  # no crowd, or one past a word of members: the kernel's pass does not run, and the cache says nothing
            expected = False
        assert cache.leave_no_guess(subset, arrangements) == expected
    assert len(cache) <= slots // 2


def test_crowd_masks_are_declined_past_a_word_of_members_or_seven_positions():
    """Groups of more than 64 members or codes of more than 7 symbols get no masks (the table is read instead)."""
    codes = np.zeros((200, 5), np.uint8)
    crowds = np.arange(200, dtype=np.int64)
    assert _crowd_masks(codes, 10, crowds, np.array([0, MASK_MEMBERS_MOST], np.int64)).shape[0] == 1
    assert _crowd_masks(codes, 10, crowds, np.array([0, 10, 10 + MASK_MEMBERS_MOST + 1], np.int64)).shape[0] == 0
    assert _crowd_masks(np.zeros((200, 8), np.uint8), 10, crowds, np.array([0, 9], np.int64)).shape[0] == 0


def _without_crowds(solver: Solver) -> tuple[np.ndarray, int, np.ndarray, int]:
    multiset_of, _, codes, num_symbols = solver.arrangements
    return multiset_of, len(solver.game.codes), codes, num_symbols  # no part ever holds more: the screen never fires


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(MIDDLE_GAMES), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=2),
       st.booleans(), st.sampled_from([-1, 5, 50]))
def test_the_crowd_screen_changes_no_three_left_search(game, steps, hard, max_tries):
    """The same guess with the screen as without it, on sets a search meets; with a cap on the tries (the tree
    finder's) after the same tries, the guesses it drops still counted, and with none in no more tries."""
    solver = SOLVERS[game]
    subset = solver.all_guesses
    for guess, pick in steps:
        split = solver.split(subset, guess % len(game.codes))
        subset = split[pick % len(split)] if split else subset
    caps = solver.class_caps
    args = (solver.table, subset, solver.solved, solver.num_slots, caps.at(2), caps.orbit_of)
    with_crowds = _three_left_search(*args, solver.arrangements, hard, max_tries, True, CoreStore().arrays(), NO_CLASSES)
    without = _three_left_search(*args, _without_crowds(solver), hard, max_tries, True, CoreStore().arrays(), NO_CLASSES)
    assert with_crowds[0] == without[0]
    assert with_crowds[1] == without[1] if max_tries >= 0 else with_crowds[1] <= without[1]


@pytest.mark.parametrize("game", MIDDLE_GAMES, ids=str)
def test_the_crowd_limit_changes_no_decision(game, monkeypatch):
    """`find_guess` with four and five guesses left names the same guess (or none) with the crowd bound as with it
    switched off, on sets one or two guesses leave, where parts crowded past 4 ** 2 occur."""
    rng = np.random.default_rng(5)
    on, off = Solver(game), Solver(game)
    monkeypatch.setattr(off, "crowd_limit", lambda depth: len(game.codes))
    fired = 0
    for _ in range(12):
        subset = on.all_guesses
        for _ in range(int(rng.integers(1, 3))):
            split = on.split(subset, int(rng.integers(len(game.codes))))
            subset = max(split, key=len) if rng.random() < 0.7 else split[int(rng.integers(len(split)))]
        for depth in (3, 4):
            fired += on.crowd(subset) > on.crowd_limit(depth - 1)
            assert on.find_guess(subset, depth) == off.find_guess(subset, depth)
    assert fired


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(TINY_GAMES), st.integers(0, 10**9), st.booleans())
def test_three_left_verdicts_on_sets_of_rearrangements_match_the_brute_force(game, seed, hard):
    """Sets made of a few multisets' rearrangements, thinned at random (where crowds are the rule, not the
    exception): the three-left kernel with its crowd screen refutes exactly the sets the brute force does, and a
    guess it names starts a tree."""
    solver = SOLVERS[game]
    rng = np.random.default_rng(seed)
    multiset_of = solver.arrangements[0]
    chosen = rng.choice(int(multiset_of.max()) + 1, int(rng.integers(1, 4)), replace=False)
    members = np.flatnonzero(np.isin(multiset_of, chosen))
    subset = np.sort(rng.choice(members, int(rng.integers(1, len(members) + 1)), replace=False)).astype(np.int64)
    if len(subset) < 3:
        return
    caps = solver.class_caps
    guess, _ = _three_left_search(
        solver.table, subset, solver.solved, solver.num_slots, caps.at(2), caps.orbit_of, solver.arrangements, hard, -1,
        True, CoreStore().arrays(), NO_CLASSES,
    )
    secrets = frozenset(game.codes[i] for i in subset)
    assert (guess >= 0) == fits_within(game, secrets, 3, hard)
    if guess >= 0:
        named = game.codes[int(guess)]
        split = parts(game, secrets, named)
        assert not hard or named in secrets
        assert all(fits_within(game, part, 2, hard) for answer, part in split.items() if answer.bulls < game.length)
