"""Saving, loading and merging refutation stores (bactree/search/height/refutations.py): verdicts unchanged, bad files refused."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner
from naive_search import fits_within
from test_set_symmetry import met_sets, random_image

from bactree.pipeline.build import build
from bactree.game import BactreeError, Game
from bactree.search.height import solver as search_height
from bactree.search.height import refutations
from bactree.cli.main import app
from bactree.treefile import dumps, game_to_json

GAMES = [Game(3, "01234", False), Game(3, "123", True), Game(2, "1234", True), Game(3, "0123", False)]
STEPS = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=3)


def searched(game: Game, steps, depth: int) -> search_height.Solver:
    """A solver that asked about every part of the sets `steps` meet, refutations of 3+ secrets stored."""
    solver = search_height.Solver(game)
    for parts, _, history in met_sets(solver, steps):
        for part in parts:
            solver.find_guess(part, depth, history)
    return solver


SEVEN = Game(3, "0123456", False)


def refuting(answers: list[str]) -> search_height.Solver:
    """A solver of 3 of 7 that asked about the parts 012 leaves with these answers, within 3 (each refuted)."""
    solver = search_height.Solver(SEVEN)
    first = SEVEN.code_index["012"]
    for part in solver.split(solver.all_guesses, first):
        if str(solver.answer_to(first, part)) in answers:
            assert solver.find_guess(part, 3, (first,)) < 0
    return solver


@pytest.fixture(autouse=True)
def store_small_sets(monkeypatch):
    monkeypatch.setattr(search_height, "STORE_MIN_SET", 3)
    monkeypatch.setattr(search_height, "KERNEL_DEPTH", 2)


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), steps=STEPS, other=STEPS, depth=st.integers(3, 4), seed=st.integers(0, 10**6))
def test_a_loaded_store_refutes_what_was_saved_and_searches_agree_with_brute_force(
    tmp_path_factory, game, steps, other, depth, seed
):
    path = tmp_path_factory.mktemp("store") / "store.json"
    first = searched(game, steps, depth)
    first.refutations.save(path, game)
    solver = search_height.Solver(game)
    assert solver.refutations.load(path, game) == (len(first.refutations), 0)
    for entry_depth, codes in first.refutations.entries():
        image = random_image(game, [game.codes[c] for c in codes], seed)
        subset = np.array(sorted(game.code_index[c] for c in image), np.int64)
        assert solver.refutations.refuted(subset, entry_depth)
    for parts, _, history in met_sets(solver, other):  # a search with the loaded store: the brute force's verdicts
        for part in parts:
            found = solver.find_guess(part, depth, history)
            assert (found >= 0) == fits_within(game, frozenset(game.codes[x] for x in part), depth)


def test_stores_merge_and_save_the_same_bytes(tmp_path):
    game = SEVEN
    one, two = refuting(["0B0C", "0B1C"]), refuting(["0B1C", "0B2C", "1B1C"])
    assert len(one.refutations) == 2 and len(two.refutations) == 3
    one.refutations.save(tmp_path / "one.json", game)
    two.refutations.save(tmp_path / "two.json", game)
    merged = search_height.Solver(game)
    merged.refutations.load(tmp_path / "one.json", game)
    merged.refutations.load(tmp_path / "two.json", game)
    for entry_depth, codes in one.refutations.entries() + two.refutations.entries():
        assert merged.refutations.refuted(np.array(codes, np.int64), entry_depth)
    assert len(merged.refutations) == 4  # the one both held is kept once
    merged.refutations.save(tmp_path / "merged.json", game)
    again = search_height.Solver(game)
    again.refutations.load(tmp_path / "merged.json", game)
    again.refutations.save(tmp_path / "again.json", game)
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "merged.json").read_bytes()


def _damaged(document: dict) -> dict:
    document["entries"][0][1] = document["entries"][0][1][1:]
    return document


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: {**d, "format": "bactree-tree"}, "is not a bactree refutation store"),
        (lambda d: {**d, "version": 3}, "refutation store version 3, not 1 or 2"),
        (lambda d: {**d, "game": {**d["game"], "symbols": "0123457"}}, "is a refutation store of another game"),
        (_damaged, "do not match its digest"),
        (lambda d: [1, 2], "is not a bactree refutation store"),
    ],
    ids=["format", "version", "game", "damaged", "not-an-object"],
)
def test_a_foreign_or_damaged_store_is_refused_in_one_line(tmp_path, change, message):
    game = SEVEN
    solver = refuting(["0B0C", "1B0C"])
    path = tmp_path / "store.json"
    solver.refutations.save(path, game)
    path.write_bytes(orjson.dumps(change(orjson.loads(path.read_bytes()))))
    fresh = search_height.Solver(game)
    with pytest.raises(BactreeError, match=message) as caught:
        fresh.refutations.load(path, game)
    assert "\n" not in str(caught.value)
    assert len(fresh.refutations) == 0


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "store.json"
    path.write_text("{not json")
    with pytest.raises(BactreeError, match="cannot read the refutation store"):
        search_height.Solver(GAMES[0]).refutations.load(path, GAMES[0])


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, Path(__file__).parents[1] / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


probe_height = _script("probe_height")


def test_probe_decide_resumes_from_its_store_with_the_same_lines(tmp_path, capsys):
    store = tmp_path / "refuted.json"
    command = ["-n", "3", "--symbols", "0123456", "--path", "012/1B1C", "--store", str(store), "decide", "--left", "3"]
    probe_height.main(command)
    first = capsys.readouterr()
    assert store.exists()
    probe_height.main(command)
    second = capsys.readouterr()
    assert first.out == second.out
    assert "loaded" in second.err and "refutations from" in second.err


@pytest.mark.parametrize("seed", range(5))
def test_a_loaded_store_refutes_every_image_of_what_was_saved(tmp_path, seed):
    saved = refuting(["0B0C", "0B1C", "0B2C", "1B0C", "1B1C"])
    path = tmp_path / "store.json"
    saved.refutations.save(path, SEVEN)
    solver = search_height.Solver(SEVEN)
    assert solver.refutations.load(path, SEVEN) == (len(saved.refutations), 0) == (5, 0)
    for depth, codes in saved.refutations.entries():
        image = random_image(SEVEN, [SEVEN.codes[c] for c in codes], seed)
        subset = np.array(sorted(SEVEN.code_index[c] for c in image), np.int64)
        assert solver.refutations.refuted(subset, depth)
        assert not solver.refutations.refuted(subset, depth + 1)  # a refutation holds for its depth only
        assert solver.find_guess(subset, depth) < 0 and solver.stats.store_hits > 0


def test_a_store_kept_in_a_file_is_saved_however_the_block_ends_and_loaded_again(tmp_path):
    path = tmp_path / "kept.json"
    solver = search_height.Solver(SEVEN)
    with pytest.raises(KeyboardInterrupt), refutations.kept_in(solver.refutations, path, SEVEN) as loaded:
        assert loaded == (0, 0) and not path.exists()
        first = SEVEN.code_index["012"]
        for part in solver.split(solver.all_guesses, first):
            if str(solver.answer_to(first, part)) in ("0B0C", "0B1C"):
                assert solver.find_guess(part, 3, (first,)) < 0
        raise KeyboardInterrupt
    again = search_height.Solver(SEVEN)
    with refutations.kept_in(again.refutations, path, SEVEN) as loaded:
        assert loaded == (len(solver.refutations), 0) == (2, 0)
    assert again.refutations.entries() == solver.refutations.entries()


def test_a_store_kept_in_a_file_saves_as_it_grows(tmp_path):
    path = tmp_path / "kept.json"
    solver = search_height.Solver(SEVEN)
    first = SEVEN.code_index["012"]
    saved = []
    with refutations.kept_in(solver.refutations, path, SEVEN, every=0.0):
        for part in solver.split(solver.all_guesses, first):
            if str(solver.answer_to(first, part)) in ("0B0C", "0B1C", "1B1C"):
                solver.find_guess(part, 3, (first,))
                saved.append(search_height.Solver(SEVEN).refutations.load(path, SEVEN))
    assert saved == [(1, 0), (2, 0), (3, 0)]


def test_past_its_cap_a_store_forgets_the_refutations_of_fewest_guesses_first():
    solver = refuting(["0B0C", "0B1C", "0B2C"])
    store = solver.refutations
    (_, a), (_, b), (_, c) = store.entries()
    a, b, c = (np.array(codes, np.int64) for codes in (a, b, c))
    store.add(a, 4)
    store.max_bytes = store.held  # full: the next set must make room
    store.add(b, 5)
    assert [depth for depth, _ in store.entries()] == [4, 5]  # the three of depth 3 went first
    store.max_bytes = store.held - a.nbytes + c.nbytes  # room for c once a, the one of depth 4, is gone
    store.add(c, 5)
    assert [depth for depth, _ in store.entries()] == [5, 5]
    assert store.refuted(b, 5) and store.refuted(c, 5) and not store.refuted(a, 4)


@pytest.mark.parametrize("tie_break", [None, "none"])
def test_a_build_with_a_refutation_file_writes_the_same_tree_and_resumes_from_it(tmp_path, tie_break):
    game = Game(3, "12345", True)  # height 4 is refuted by the search, not by counting
    path = tmp_path / "refuted.json"
    plain = dumps(build(game, "worst-case", tie_break).document)
    said: list[str] = []
    assert dumps(build(game, "worst-case", tie_break, progress=said.append, refutations=path).document) == plain
    saved = len(orjson.loads(path.read_bytes())["entries"])
    assert saved > 0 and "refutations: 0 set(s) loaded" in said[0]
    said.clear()
    assert dumps(build(game, "worst-case", tie_break, progress=said.append, refutations=path).document) == plain
    assert f"refutations: {saved} set(s) loaded" in said[0]


def test_refutation_files_are_for_the_worst_case(tmp_path):
    with pytest.raises(BactreeError, match="--refutations is for -O worst-case"):
        build(SEVEN, "expected", refutations=tmp_path / "refuted.json")


def test_a_height_whose_first_guesses_leave_stored_parts_is_refuted_before_the_finder(tmp_path):
    """The refutations of a long run (one part of each first guess) decide the height in a build at once."""
    game = Game(3, "12345", True)
    plain = dumps(build(game, "worst-case", "none").document)
    run = search_height.Solver(game)
    everything = run.all_guesses
    assert not run.refuted_one_guess_deep(everything, 4)  # nothing stored yet
    for guess in run.ordered_guesses(everything, 4, ()):
        failed = [part for part in run.split(everything, int(guess)) if run.find_guess(part, 3, (int(guess),)) < 0]
        assert failed  # height 4 is refuted: every first guess leaves a part with no tree of 3
        run.refutations.add(max(failed, key=len), 3)
    path = tmp_path / "parts.json"
    run.refutations.save(path, game)
    fresh = search_height.Solver(game)
    fresh.refutations.load(path, game)
    assert fresh.refuted_one_guess_deep(everything, 4)
    assert not fresh.refuted_one_guess_deep(everything, 5)  # a tree of 5 exists: nothing can rule it out
    said: list[str] = []
    assert dumps(build(game, "worst-case", "none", progress=said.append, refutations=path).document) == plain
    assert any(m.startswith("height 4: refuted (every first guess leaves a part ruled out") for m in said)
    assert not any("height 4: searching for a tree" in m for m in said)



def test_merged_stores_hold_every_set_once_and_refuse_a_damaged_input(tmp_path, capsys):
    game = Game(3, "12345", True)
    run = search_height.Solver(game)
    everything = run.all_guesses
    refuted = [p for g in (0, 1, 7) for p in run.split(everything, g) if len(p) >= 20 and run.find_guess(p, 3, (g,)) < 0]
    assert len(refuted) >= 2
    first, second = search_height.Solver(game).refutations, search_height.Solver(game).refutations
    for part in refuted[: len(refuted) // 2 + 1]:
        first.add(part, 3)
    for part in refuted[len(refuted) // 2:]:  # one set in both stores
        second.add(part, 3)
    first.save(tmp_path / "a.json", game)
    second.save(tmp_path / "b.json", game)
    merge = _script("merge_refutations")
    out = tmp_path / "merged.json"
    argv = ["--game", "mastermind", "-n", "3", "--symbols", "12345", "-o", str(out), str(tmp_path / "a.json"), str(tmp_path / "b.json")]
    merge.main(argv)
    merged = search_height.Solver(game).refutations
    assert merged.load(out, game) == (len(refuted), 0)  # the set in both files is kept once
    assert all(merged.refuted(part, 3) for part in refuted)
    again = tmp_path / "again.json"
    merge.main(argv[:-3] + [str(again), str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    assert again.read_bytes() == out.read_bytes()
    damaged = tmp_path / "damaged.json"
    damaged.write_bytes(out.read_bytes().replace(b"[3,[", b"[4,[", 1))
    with pytest.raises(SystemExit) as stopped:
        merge.main(argv[:-2] + [str(damaged)])
    assert stopped.value.code == 2
    assert "do not match its digest" in capsys.readouterr().err


def _one_part_per_first_guess(game: Game, depth: int) -> list[list]:
    """Entries [depth - 1, codes]: for each first guess the search tries within `depth`, its largest part."""
    run = search_height.Solver(game)
    everything = run.all_guesses
    return [[depth - 1, max(run.split(everything, int(g)), key=len).tolist()] for g in run.ordered_guesses(everything, depth, ())]


def _version_1_file(path: Path, game: Game, entries: list[list]) -> None:
    """A refutation file as version 1 wrote it: no search code named, so its entries are claims only."""
    entries = sorted(entries, key=lambda entry: (entry[0], len(entry[1]), entry[1]))
    document = {"format": refutations.STORE_FORMAT, "version": 1, "game": game_to_json(game),
                "digest": refutations._digest(entries), "entries": entries}
    path.write_bytes(orjson.dumps(document))


def test_a_file_of_other_search_code_steers_but_refutes_nothing(tmp_path, monkeypatch):
    """True refutations written by other code: the build refutes height 4 itself (no store line) and writes the
    same tree; saved again, the file holds what this code refuted as its entries, and the rest as claims."""
    game = Game(3, "12345", True)
    plain = dumps(build(game, "worst-case", "none").document)
    run = search_height.Solver(game)
    everything = run.all_guesses
    for guess in run.ordered_guesses(everything, 4, ()):
        failed = [part for part in run.split(everything, int(guess)) if run.find_guess(part, 3, (int(guess),)) < 0]
        run.refutations.add(max(failed, key=len), 3)
    path = tmp_path / "parts.json"
    with monkeypatch.context() as other:
        other.setattr(refutations, "search_code", lambda: "0" * 32)
        run.refutations.save(path, game)
    claimed = len(run.refutations.entries())
    fresh = search_height.Solver(game)
    assert fresh.refutations.load(path, game) == (0, claimed)
    assert not fresh.refuted_one_guess_deep(everything, 4)
    said: list[str] = []
    assert dumps(build(game, "worst-case", "none", progress=said.append, refutations=path).document) == plain
    assert said[:2] == [
        f"refutations: 0 set(s) loaded from {path}; saved there as the search goes",
        f"refutations: {claimed} set(s) of {path} were refuted by other search code (or name none): they steer the "
        "search, and every height is refuted again here",
    ]
    assert "height 4: searching for a tree (iterative broadening)" in said
    saved = orjson.loads(path.read_bytes())
    assert saved["code"] == refutations.search_code() and saved["entries"]
    assert not any(entry in saved["claims"] for entry in saved["entries"])
    again = search_height.Solver(game)
    assert again.refutations.load(path, game) == (len(saved["entries"]), len(saved["claims"]))
    for depth, codes in run.refutations.entries():  # each claim now refuted by this code, or still a claim
        subset = np.array(codes, np.int64)
        assert again.refutations.refuted(subset, depth) or again.refutations.claims.match(subset, depth) is not None


@pytest.mark.parametrize("tie_break", [None, "none"])
def test_forged_refutations_contradicted_by_the_tree_found_are_an_error_naming_the_entry(tmp_path, tie_break):
    """As with Mastermind 4x6 once: a file saying one part of every first guess has no tree within h - 1 would,
    believed, refute the height h the game has; as claims they are contradicted by the tree found, and the build
    stops naming the entry instead of writing a tree."""
    game = Game(3, "12345", True)
    height = build(game, "worst-case", "none").height
    path = tmp_path / "forged.json"
    _version_1_file(path, game, _one_part_per_first_guess(game, height))
    with pytest.raises(refutations.ClaimContradicted) as caught:
        build(game, "worst-case", tie_break, refutations=path)
    message = str(caught.value)
    assert message.startswith(f"{path}: its entry [{height - 1}, [") and "\n" not in message
    assert f"says no tree solves that set within {height - 1} guesses, but the search found one within" in message


def test_the_command_refuses_a_contradicted_file_and_writes_no_tree(tmp_path):
    game = Game(3, "12345", True)
    path = tmp_path / "forged.json"
    _version_1_file(path, game, [[5, list(range(len(game.codes)))]])  # "the whole game has no tree within 5"
    out = tmp_path / "tree.json"
    result = CliRunner().invoke(app, ["build", "-g", "mastermind", "-n", "3", "--symbols", "12345", "--tie-break",
                                      "none", "--refutations", str(path), "--quiet", "-o", str(out)])
    assert result.exit_code != 0 and not out.exists()
    assert result.output.startswith(f"Error: {path}: its entry [5, [0, 1, 2, 3, ...]] ({len(game.codes)} secrets) says "
                                    "no tree solves that set within 5 guesses, but the search found one within")
