"""The tree finder (`TreeFinder`, `--tie-break none`): its kernels against the brute force, its trees, its resume file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_search import fits_within, parts

from bactree.pipeline.build import build
from bactree.game import Game
from bactree.search import Solver, TreeFinder
from bactree.search.height._finder_kernels import _three_left_guess, _three_left_search
from bactree.search.height._separator_kernels import _separating_guess
from bactree.search.height.cores import CoreStore
from bactree.search.height.screens import NO_CLASSES
from bactree.pipeline.resume import ResumeFileError
from bactree.treefile import check_document, dumps, replay_tree

GAMES = [Game(3, "012345", False), Game(2, "1234", True), Game(3, "1234", True)]
SOLVERS = {game: Solver(game, mask_kernels=True) for game in GAMES}  # small games search without them unasked


def _subset(game: Game, picks: list[int]) -> np.ndarray:
    return np.array(sorted({p % len(game.codes) for p in picks}), np.int64)


def _tree_within(game: Game, secrets: frozenset[str], guess: str, depth: int, hard: bool) -> bool:
    """The guess is allowed and leaves parts each solvable within `depth - 1` (brute force)."""
    if hard and guess not in secrets:
        return False
    split = parts(game, secrets, guess)
    return (guess in secrets or len(split) > 1) and all(fits_within(game, p, depth - 1, hard) for p in split.values())


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GAMES), st.lists(st.integers(0, 10**6), min_size=3, max_size=40), st.booleans(),
       st.sampled_from([-1, 1, 3]))
def test_last_guess_kernels_match_the_brute_force(game, picks, hard, max_tries):
    solver = SOLVERS[game]
    subset = _subset(game, picks)
    secrets = frozenset(game.codes[i] for i in subset)
    if len(subset) <= solver.caps[2]:
        two = int(_separating_guess(solver.table, subset, hard))
        assert (two >= 0) == fits_within(game, secrets, 2, hard)
        if two >= 0:
            assert _tree_within(game, secrets, game.codes[two], 2, hard)
    three, tried = _three_left_guess(
        solver.table, subset, solver.solved, solver.num_slots, *solver.count_caps(2), solver.arrangements, hard, max_tries,
        solver.cores.arrays(), NO_CLASSES,
    )
    if three >= 0:
        assert _tree_within(game, secrets, game.codes[int(three)], 3, hard)
    if max_tries < 0:
        assert (three >= 0) == fits_within(game, secrets, 3, hard)
        # class bounds drop only guesses that fail and keep the order: the same guess, in no more tries
        caps = solver.class_caps
        by_class, fewer = _three_left_guess(
            solver.table, subset, solver.solved, solver.num_slots, caps.at(2), caps.orbit_of, solver.arrangements, hard, -1,
            solver.cores.arrays(), NO_CLASSES,
        )
        assert by_class == three and fewer <= tried
    else:
        assert tried <= max_tries
        if three < 0 and tried < max_tries:  # every guess tried: a refutation
            assert not fits_within(game, secrets, 3, hard)


def test_a_guess_the_three_left_kernel_names_leaves_no_part_without_a_separator():
    """On random sets of 6 to 40 secrets (more and larger than the test above draws, where a part smaller than the
    largest is often the one with no separator), every guess the kernel names leaves parts that two guesses solve,
    checked by brute force part by part."""
    game = GAMES[0]
    solver = SOLVERS[game]
    rng = np.random.default_rng(7)
    named = 0
    for _ in range(400):
        subset = np.sort(rng.choice(len(game.codes), int(rng.integers(6, 41)), replace=False)).astype(np.int64)
        guess, _ = _three_left_guess(
            solver.table, subset, solver.solved, solver.num_slots, *solver.count_caps(2), solver.arrangements, False, -1,
            Solver(game).cores.arrays(), NO_CLASSES,
        )
        if guess >= 0:
            named += 1
            secrets = frozenset(game.codes[i] for i in subset)
            assert all(fits_within(game, part, 2, False) for part in parts(game, secrets, game.codes[int(guess)]).values())
    assert named >= 100  # the sets are not all refuted: the check ran


MIDDLE_GAMES = [Game(4, "0123456789", False), Game(4, "123456", True)]
MIDDLE_SOLVERS = {game: Solver(game) for game in MIDDLE_GAMES}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(MIDDLE_GAMES), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=2),
       st.booleans(), st.sampled_from([-1, 5, 50]))
def test_remembered_part_verdicts_change_nothing(game, steps, hard, max_tries):
    """With and without the parts' remembered verdicts, the three-left search returns the same guess after the same tries.

    On sets a search meets (what one or two guesses of 4 of 10 or
    Mastermind 4x6 leave), where a part comes back under many guesses (the
    brute force above covers only tiny sets).
    """
    solver = MIDDLE_SOLVERS[game]
    subset = solver.all_guesses
    for guess, pick in steps:
        split = solver.split(subset, guess % len(game.codes))
        subset = split[pick % len(split)] if split else subset
    caps = solver.class_caps
    args = (solver.table, subset, solver.solved, solver.num_slots, caps.at(2), caps.orbit_of, solver.arrangements, hard, max_tries)
    assert _three_left_search(*args, True, solver.cores.arrays(), NO_CLASSES) == _three_left_search(
        *args, False, CoreStore().arrays(), NO_CLASSES
    )


@pytest.mark.parametrize("mask_kernels", [None, True], ids=["as-chosen", "mask-kernels"])
@pytest.mark.parametrize("game", [Game(4, "012345", False), Game(4, "0123456", False), Game(4, "12345", True)], ids=str)
def test_found_trees_have_the_least_height(game, mask_kernels):
    """These games have symmetry and too few codes for the mask kernels unasked (`MASK_KERNELS_FROM_CODES`): with them
    or not, the least height and a tree of it."""
    solver = Solver(game, mask_kernels=mask_kernels)
    assert solver.mask_kernels is bool(mask_kernels)
    height = solver.min_height()
    finder = TreeFinder(solver)
    everything = solver.all_guesses
    assert finder.find(everything, height) >= 0
    tree = finder.tree(everything, height)
    assert replay_tree(game, tree).max_guesses == height


def test_a_narrow_search_fails_without_claiming_and_a_wider_one_succeeds():
    game = Game(4, "0123456", False)
    solver = Solver(game)
    height = solver.min_height()
    finder = TreeFinder(solver)
    assert finder.find(solver.all_guesses, height - 1) < 0  # refuted heights are never claimed
    assert finder.find(solver.all_guesses, height, widths=(1, 2, 4)) >= 0


GAME = Game(3, "012345", False)  # first guess forced: 8 parts


def test_resumed_height_search_gives_the_same_bytes(tmp_path: Path):
    path = tmp_path / "out.json.resume"
    fresh = build(GAME, "worst-case", "none", workers=1, checkpoint=path)
    saved = orjson.loads(path.read_bytes())
    saved["parts"] = [part for part in saved["parts"] if part["depth"] == fresh.height - 1]
    assert len(saved["parts"]) == 8
    saved["parts"] = saved["parts"][:3]
    path.write_bytes(orjson.dumps(saved))
    resumed = build(GAME, "worst-case", "none", workers=1, checkpoint=path, resume=True)
    assert dumps(resumed.document) == dumps(fresh.document)
    assert dumps(build(GAME, "worst-case", "none", workers=2).document) == dumps(fresh.document)


def test_a_tampered_height_resume_file_is_refused(tmp_path: Path):
    path = tmp_path / "out.json.resume"
    build(GAME, "worst-case", "none", workers=1, checkpoint=path)
    saved = orjson.loads(path.read_bytes())
    saved["parts"][0]["tree"] = saved["parts"][1]["tree"]
    path.write_bytes(orjson.dumps(saved))
    with pytest.raises(ResumeFileError, match="saved part"):
        build(GAME, "worst-case", "none", workers=1, checkpoint=path, resume=True)


def test_a_budget_leaves_a_height_undecided_as_a_lower_bound():
    game = Game(4, "0123456", False)
    solver = Solver(game)
    counting = next(d for d in range(1, 99) if solver.most_solved(d) >= solver.num_codes)  # per answer class
    assert counting > next(d for d in range(1, 99) if solver.caps[d] >= solver.num_codes)  # beyond the plain count
    result = build(game, "worst-case", "none", budget=0, workers=1)
    check_document(result.document)
    assert result.document["optimal"] is False
    assert result.stats["lower_bound"] == counting
    assert result.height >= solver.min_height() >= counting


@pytest.mark.parametrize("game", [Game(4, "012345", False), Game(4, "12345", True)], ids=str)
def test_a_seeded_finder_writes_out_the_exhaustive_search_s_tree(game):
    """`TreeFinder.seed` with `Solver.found_guesses`: every set above the kernel's depth takes the exhaustive
    search's guess, and the tree has the least height; the solver's guesses each start a tree (brute force)."""
    solver = Solver(game)
    height = solver.min_height()
    found = solver.found_guesses()
    assert found and all(guess >= 0 for guess in found.values())
    for (members, depth), guess in list(found.items())[:20]:
        secrets = frozenset(game.codes[i] for i in np.frombuffer(members, np.int64))
        assert _tree_within(game, secrets, game.codes[guess], depth, False)
    finder = TreeFinder(solver)
    finder.seed(found)
    tree = finder.tree(solver.all_guesses, height)
    assert replay_tree(game, tree).max_guesses == height

    def followed(node, subset, depth):  # each seeded set in the tree takes the seeded guess
        key = (subset.tobytes(), depth)
        checked = int(key in found and game.codes[found[key]] == node["guess"])
        assert key not in found or checked
        guess = game.code_index[node["guess"]]
        for part in solver.split(subset, guess):
            checked += followed(node["next"][str(solver.answer_to(guess, part))], part, depth - 1)
        return checked

    assert followed(tree, solver.all_guesses, height) > 0
