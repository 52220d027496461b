"""`--first all` (`bactree.pipeline.openings`): every first guess's class refined, the best tree kept, the game bounded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bactree.pipeline.build import build
from bactree.pipeline import openings
from bactree.cli.main import app
from bactree.game import Game
from bactree.pipeline.openings import class_checkpoint, class_checkpoints, first_guess_bounds
from bactree.search import Solver
from bactree.search.cost import search as cost
from bactree.treefile import check_document, dumps

GAME = Game(3, "12345", True)  # Mastermind 3x5: five first-guess classes, 125 secrets


@pytest.fixture
def small_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sets past the budget keep the greedy guess: else every set of this game is small enough to be exact."""
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)


def class_builds(game: Game) -> dict[str, dict]:
    """Each first-guess class built alone (`--first CODE`), by its lowest code."""
    solver = Solver(game)
    codes = [game.codes[first] for first in solver.canonical_guesses(()).tolist()]
    return {code: build(game, "expected", budget=0, workers=1, greedy="entropy", first_guess=code).document for code in codes}


@pytest.mark.parametrize("order", ["lowest bound first", "highest bound first"])
def test_every_first_guess_keeps_the_best_class_tree_and_bounds_the_whole_game(
    small_kernel, monkeypatch: pytest.MonkeyPatch, order: str
) -> None:
    if order == "highest bound first":  # the best tree is then not the first class's: it must still be kept
        ranked = openings.first_guess_bounds
        monkeypatch.setattr(openings, "first_guess_bounds", lambda solver, depth: ranked(solver, depth)[::-1])
    optimum = build(GAME, "expected", workers=1).stats["total_guesses"]  # exact: unbudgeted
    messages: list[str] = []
    doc = build(GAME, "expected", budget=0, workers=1, greedy="entropy", first_guess="all", progress=messages.append).document
    check_document(doc)
    alone = class_builds(GAME)
    totals = {code: d["stats"]["total_guesses"] for code, d in alone.items()}
    stats = doc["stats"]
    # The best of the class trees (a class not refined cannot beat it: its bound is not below the best total).
    assert stats["total_guesses"] == min(totals.values())
    assert dumps(alone[doc["root"]["guess"]]["root"]) == dumps(doc["root"])
    assert stats["lower_bound"] <= optimum <= stats["total_guesses"]
    # The bound is the least of each class's: refined, or by lookahead where a class was not refined.
    refined = [re.fullmatch(r"trees that start with (\d+): best found (\d+), at least (\d+)", m) for m in messages]
    skipped = [re.fullmatch(r"first guess (\d+) \(\d/\d\): at least (\d+), not below the best tree: not refined", m) for m in messages]
    bounds = {m[1]: int(m[3]) for m in refined if m} | {m[1]: int(m[2]) for m in skipped if m}
    assert sorted(bounds) == sorted(totals)  # every class accounted for
    assert stats["lower_bound"] == min(bounds.values())
    for m in filter(None, refined):
        assert int(m[2]) == totals[m[1]]  # the same tree as its class built alone
    # A class built alone (`--first CODE`) bounds the trees that start with its guess only, as its file says, by no
    # more than the class's refined bound here (the greater of that and its lookahead bound).
    for code, alone_doc in alone.items():
        assert alone_doc["objective"]["first_guess"] == code
        if code in {m[1] for m in refined if m}:
            assert alone_doc["stats"].get("lower_bound", totals[code]) <= bounds[code]
    # So a class's bound may pass the game's optimum, which no bound of the whole game can.
    assert max(d["stats"].get("lower_bound", totals[c]) for c, d in alone.items()) > optimum
    first_refined = re.fullmatch(r"first guess (\d+) \(1/.*", messages[1])[1]
    assert (first_refined == doc["root"]["guess"]) == (order == "lowest bound first")  # this game's best ranks first


def test_every_first_guess_ranks_classes_by_a_proven_bound() -> None:
    """Each class's lookahead bound is at most the least total of the trees that start with it."""
    solver = Solver(GAME)
    rows = first_guess_bounds(solver, solver.num_codes)
    assert [bound for _, bound in rows] == sorted(bound for _, bound in rows)
    assert len(rows) == len(solver.canonical_guesses(()))
    least = {}
    for first, bound in rows:
        # A budget no part reaches: every part exact, so the tree is the class's least.
        least[first] = build(GAME, "expected", budget=10**9, workers=1, first_guess=GAME.codes[first]).stats["total_guesses"]
        assert bound <= least[first]
    assert min(least.values()) == build(GAME, "expected", workers=1).stats["total_guesses"]


def test_an_interrupted_every_class_build_resumes_class_by_class_to_the_same_bytes(small_kernel, tmp_path: Path) -> None:
    whole = build(GAME, "expected", budget=0, workers=1, greedy="entropy", first_guess="all").document
    checkpoint = tmp_path / "t.json.resume"

    def stop_after_the_first_class(message: str) -> None:
        if message.startswith("trees that start with"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(GAME, "expected", budget=0, workers=1, greedy="entropy", first_guess="all", checkpoint=checkpoint,
              progress=stop_after_the_first_class)
    saved = class_checkpoints(checkpoint)
    assert len(saved) == 1 and saved[0].name.startswith("t.json.") and not checkpoint.exists()
    messages: list[str] = []
    again = build(GAME, "expected", budget=0, workers=1, greedy="entropy", first_guess="all", checkpoint=checkpoint,
                  resume=True, progress=messages.append).document
    assert dumps(again) == dumps(whole)
    assert any(re.fullmatch(r"resuming: (\d+) of \1 subproblems already done", m) for m in messages)


def test_class_checkpoints_are_found_by_name_and_no_other_build_s(tmp_path: Path) -> None:
    checkpoint = tmp_path / "t.json.resume"
    mine = class_checkpoint(checkpoint, "11234")
    assert mine.name == "t.json.11234.resume"
    for name in (mine.name, "t.json.x.json.resume", "t.json.resume", "u.json.11234.resume"):
        (tmp_path / name).write_text("{}")
    assert class_checkpoints(checkpoint) == [mine]


def test_cli_every_first_guess_writes_the_tree_and_removes_its_resume_files(small_kernel, tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    args = ["build", "-g", "mastermind", "-n", "3", "--symbols", "12345", "-O", "expected", "--budget", "0",
            "--greedy", "entropy", "--first", "all", "-j", "1", "-o", str(out)]
    result = CliRunner().invoke(app, [*args, "--resume"])
    assert result.exit_code == 2 and "nothing to resume" in result.output
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert dumps(build(GAME, "expected", budget=0, workers=1, greedy="entropy", first_guess="all").document) == out.read_bytes()
    assert not list(tmp_path.glob("*.resume"))


def test_every_first_guess_of_a_forced_game_is_its_one_class(small_kernel) -> None:
    game = Game(3, "01234", False)
    plain = build(game, "expected", budget=0, workers=1).document
    assert dumps(build(game, "expected", budget=0, workers=1, first_guess="all").document) == dumps(plain)
